/**
 * `LogKeys` when two of a log's keys share a note key ID (4 bytes, so it happens): the two Ed25519 keys below were
 * found by a birthday search to share key ID a2b87a77 under the origin `collide.test/tile/1`. A checkpoint signed by
 * the second must be found signed by it, though the first's ID matches too.
 */
import { describe, expect, it } from "vitest";
import { ED25519_SIGNATURE_TYPE, LogKeys, MemorySigner, hexToBytes, noteKeyId, type Note, type PrivateKeyJwk } from "../src/index.js";
import { rawPublicKey } from "../src/core/verifying-key.js";

const ORIGIN = "collide.test/tile/1";
const KEY_ID = 0xa2b87a77;
const FIRST: PrivateKeyJwk = { kty: "OKP", crv: "Ed25519", d: "-Yim3KvTD8OVwShrJ6qo8tPqfXWO0sByXCA5H0bP7UA", x: "4X49SzaiUGEUBa--RkSbOKUncHKMHxzR9idMGLyi9WQ" };
const SECOND: PrivateKeyJwk = { kty: "OKP", crv: "Ed25519", d: "efagRIRfZIadmG43fWSo_RDMCF_Hykuuhzb-lsVGonQ", x: "AjkBmhz06nxTFNVc6leV5Wg4cqtrZr1cLd3SVxtfwcs" };

/** A note whose text `signer` signed under ORIGIN, its line carrying the shared key ID. */
async function signedBy(signer: MemorySigner, text: string): Promise<Note> {
  return { text, signatures: [{ name: ORIGIN, keyId: KEY_ID, signature: hexToBytes(await (await signer.load()).sign(text)) }] };
}

describe("LogKeys with two keys sharing a note key ID", () => {
  it("tries every matching key: the one whose signature verifies is the one that signed", async () => {
    const [first, second] = [new MemorySigner({ privateKey: FIRST }), new MemorySigner({ privateKey: SECOND })];
    const [keyFirst, keySecond] = [(await first.load()).verifying, (await second.load()).verifying];
    // The fixture holds: two different keys, one key ID.
    expect(keyFirst.key_id).not.toBe(keySecond.key_id);
    expect(noteKeyId(ORIGIN, ED25519_SIGNATURE_TYPE, rawPublicKey(keyFirst.jwk))).toBe(KEY_ID);
    expect(noteKeyId(ORIGIN, ED25519_SIGNATURE_TYPE, rawPublicKey(keySecond.jwk))).toBe(KEY_ID);

    const keys = new LogKeys(keyFirst, [keySecond]);
    const bySecond = await signedBy(second, `${ORIGIN}\n1\n${"A".repeat(43)}=`);
    expect(keys.signaturesOf(bySecond, ORIGIN).map((candidate) => candidate.key)).toEqual([keyFirst, keySecond]);
    expect((await keys.verifiedSignatureOf(bySecond, ORIGIN))?.key).toBe(keySecond);
    expect((await keys.verifiedSignatureOf(bySecond, ORIGIN, keyFirst))?.key).toBeUndefined();
    // Before the signature is checked, the key that signed the head before is the likelier one.
    expect(keys.signatureOf(bySecond, ORIGIN)?.key).toBe(keyFirst);
    expect(keys.signatureOf(bySecond, ORIGIN, keySecond.key_id)?.key).toBe(keySecond);

    const byFirst = await signedBy(first, `${ORIGIN}\n2\n${"B".repeat(43)}=`);
    expect((await new LogKeys(keySecond, [keyFirst]).verifiedSignatureOf(byFirst, ORIGIN))?.key).toBe(keyFirst);
    // A third key with another ID is no candidate; a line under another name (a witness's) is ignored.
    const other = (await new MemorySigner().load()).verifying;
    expect(new LogKeys(other).signaturesOf(byFirst, ORIGIN)).toEqual([]);
    expect(keys.signaturesOf({ ...byFirst, signatures: byFirst.signatures.map((line) => ({ ...line, name: "witness.test/w1" })) }, ORIGIN)).toEqual([]);
  });

  it("reads key IDs per origin: the collision under one tile's origin is none under another's, whichever is asked first", async () => {
    const [first, second] = [new MemorySigner({ privateKey: FIRST }), new MemorySigner({ privateKey: SECOND })];
    const [keyFirst, keySecond] = [(await first.load()).verifying, (await second.load()).verifying];
    const otherOrigin = "collide.test/tile/2";
    const secondId = noteKeyId(otherOrigin, ED25519_SIGNATURE_TYPE, rawPublicKey(keySecond.jwk));
    expect(noteKeyId(otherOrigin, ED25519_SIGNATURE_TYPE, rawPublicKey(keyFirst.jwk))).not.toBe(secondId);
    const text = `${otherOrigin}\n1\n${"C".repeat(43)}=`;
    const underOther: Note = { text, signatures: [{ name: otherOrigin, keyId: secondId, signature: hexToBytes(await (await second.load()).sign(text)) }] };
    const bySecond = await signedBy(second, `${ORIGIN}\n1\n${"A".repeat(43)}=`);

    const keys = new LogKeys(keyFirst, [keySecond]);
    expect(keys.signaturesOf(bySecond, ORIGIN).map((candidate) => candidate.key)).toEqual([keyFirst, keySecond]);
    expect(keys.signaturesOf(underOther, otherOrigin).map((candidate) => candidate.key)).toEqual([keySecond]);
    expect((await keys.verifiedSignatureOf(underOther, otherOrigin))?.key).toBe(keySecond);
    // Asked again, each origin still gives its own candidates.
    expect(keys.signaturesOf(bySecond, ORIGIN).map((candidate) => candidate.key)).toEqual([keyFirst, keySecond]);
    expect(keys.signaturesOf(underOther, ORIGIN)).toEqual([]);
  });
});
