/**
 * `verifyFinality` offline: a FINAL proof built from a real memory authority's
 * anchors and checkpoints, cosigned by test witnesses (cosignature/v1 with
 * node:crypto keys), checked with nothing but keys; every check is shown to fail
 * on its own when its part of the proof is wrong.
 */

import { createHash, createPrivateKey, createPublicKey, sign } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  contextAt,
  createCosigner,
  createMemoryAuthority,
  createTsaeRequest,
  formatSignatureLine,
  formatVerifierKey,
  parseVerifierKey,
  parseWitnesses,
  sha256Hex,
  verifyFinality,
  witnessMajority,
  type AnchorProof,
  type Authority,
  type CosignedCheckpoint,
  type Cosigner,
  type FinalityCheckName,
  type KeySet,
} from "../src/index.js";
import { quorumFor } from "../src/core/verify-finality.js";
import { cosignCheckpoint, expectCode, testCosigner } from "./note-helpers.js";

/** The PKCS #8 DER header of an Ed25519 private key, followed by its 32-byte seed. */
const PKCS8_ED25519_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");

const CONTEXT = contextAt(Date.UTC(2026, 4, 6, 12), { zone: 4 });

const anchorNew = async (authority: Authority, label: string) =>
  authority.anchor(await authority.issueReceipt(createTsaeRequest(CONTEXT, { scope: "test.verify_finality.v1", action_hash_hex: sha256Hex(label) })));

/** A FINAL proof of the first of two anchors, its witnessed checkpoint the tile's checkpoint of size 2 cosigned by `cosigners` at `times`. */
async function finalProof(cosigners: readonly Cosigner[], times: readonly number[]) {
  const authority = createMemoryAuthority({ authorityName: "log.finality.test" });
  try {
    const first = await anchorNew(authority, "first");
    const second = await anchorNew(authority, "second");
    const head = second.checkpoint;
    const cosigned = await cosignCheckpoint(head, cosigners, times);
    const consistency = await authority.getConsistencyProof(first.tile_id, first.tree_size, head.tree_size);
    const proof: AnchorProof = { ...first, finality: "FINAL", witnessed: { checkpoint: cosigned, consistency_proof: consistency.proof, quorum: 2, witnessed_unix_s: 0 } };
    const keySet: KeySet = { keys: await authority.publicKeys(), note_verifier_keys: await authority.noteVerifierKeys() };
    return { proof, keySet };
  } finally {
    await authority.close();
  }
}

/** A cosigner whose Ed25519 key is derived from SHA-256(`seed`): the same key on every run. */
const seededCosigner = (name: string, seed: string) => {
  const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, createHash("sha256").update(seed).digest()]), format: "der", type: "pkcs8" });
  const publicKey = new Uint8Array(Buffer.from(createPublicKey(privateKey).export({ format: "jwk" }).x as string, "base64url"));
  return createCosigner(name, publicKey, async (message) => new Uint8Array(sign(null, message, privateKey)));
};

const failed = (result: { checks: readonly { name: FinalityCheckName; ok: boolean }[] }) => result.checks.filter(({ ok }) => !ok).map(({ name }) => name);

describe("verifyFinality", () => {
  const witnesses = [testCosigner("w.test/a"), testCosigner("w.test/b"), testCosigner("w.test/c")];
  const vkeys = witnesses.map(({ vkey }) => vkey);

  it("a FINAL proof with 3 cosignatures passes every check for quorum 2 and 3; the witnessed time is the k-th smallest timestamp", async () => {
    const { proof, keySet } = await finalProof(witnesses, [1_800_000_030, 1_800_000_010, 1_800_000_020]);
    const two = await verifyFinality(proof, { log: keySet, witnesses: vkeys }, 2);
    expect(two).toMatchObject({ valid: true, witnessed_unix_s: 1_800_000_020 });
    expect(two.checks.map(({ name }) => name)).toEqual(["inclusion", "log_signature", "witnessed", "cosigned_log_signature", "consistency", "cosignatures"]);
    expect([...two.cosigned_by].sort()).toEqual(["w.test/a", "w.test/b", "w.test/c"]);
    expect(await verifyFinality(proof, { log: keySet, witnesses: vkeys }, 3)).toMatchObject({ valid: true, witnessed_unix_s: 1_800_000_030 });
    const four = await verifyFinality(proof, { log: keySet, witnesses: vkeys }, 4);
    expect(four).toMatchObject({ valid: false, witnessed_unix_s: null });
    expect(failed(four)).toEqual(["cosignatures"]);
  });

  it("without a quorum, checks a majority of the distinct trusted witnesses and says which quorum it checked", async () => {
    const { proof, keySet } = await finalProof(witnesses.slice(0, 2), [1_800_000_010, 1_800_000_020]);
    const silent = testCosigner("w.test/silent");
    const majority = await verifyFinality(proof, { log: keySet, witnesses: vkeys });
    expect(majority).toStrictEqual(await verifyFinality(proof, { log: keySet, witnesses: vkeys }, 2));
    expect(majority).toMatchObject({ valid: true, quorum: 2, witnessed_unix_s: 1_800_000_020 });
    // A key listed twice is one witness; four distinct ones need three.
    expect(await verifyFinality(proof, { log: keySet, witnesses: [...vkeys, vkeys[0] as string] })).toMatchObject({ valid: true, quorum: 2 });
    const four = await verifyFinality(proof, { log: keySet, witnesses: [...vkeys, silent.vkey] });
    expect(four).toMatchObject({ valid: false, quorum: 3, witnessed_unix_s: null });
    expect(failed(four)).toEqual(["cosignatures"]);
    // No trusted witness at all: the majority of none is still one cosignature, so such a proof is never final.
    const none = await verifyFinality(proof, { log: keySet, witnesses: [] });
    expect(none).toMatchObject({ valid: false, quorum: 1, cosigned_by: [], witnessed_unix_s: null });
    expect(none.checks.at(-1)).toEqual({ name: "cosignatures", ok: false, detail: "0 of the 0 trusted witnesses cosigned the checkpoint; the quorum is 1" });
    expect([(await parseWitnesses([])).size, witnessMajority([])]).toEqual([0, 1]);
  });

  it("parseWitnesses: the vkeys parsed once, into a set verifyFinality and witnessMajority take as they take the vkeys", async () => {
    const { proof, keySet } = await finalProof(witnesses.slice(0, 2), [1_800_000_010, 1_800_000_020]);
    const listed = [...vkeys, vkeys[0] as string];
    const parsed = await parseWitnesses(listed);
    // A key listed twice is one witness: three, whose majority is two.
    expect([parsed.size, witnessMajority(parsed), witnessMajority(listed)]).toEqual([3, 2, 2]);
    for (const quorum of [undefined, 2, 3]) {
      expect(await verifyFinality(proof, { log: keySet, witnesses: parsed }, quorum)).toStrictEqual(await verifyFinality(proof, { log: keySet, witnesses: listed }, quorum));
    }
    // The set shows only its size; a look-alike that parseWitnesses did not make is refused, not trusted.
    expect(JSON.stringify(parsed)).toBe('{"size":3}');
    await expectCode(() => verifyFinality(proof, { log: keySet, witnesses: { size: 3 } }), "INVALID_ARGUMENT", "or a parseWitnesses set");
    await expectCode(() => witnessMajority({ size: 3 }), "INVALID_ARGUMENT", "witnessMajority: witnesses must be", "or a parseWitnesses set");
    // parseWitnesses takes vkeys only, and says so.
    await expectCode(() => parseWitnesses({ size: 3 } as unknown as string[]), "INVALID_ARGUMENT", "parseWitnesses: vkeys must be an array of cosignature/v1 vkeys, got");
    expect(await parseWitnesses({ size: 3 } as unknown as string[]).catch(String)).not.toContain("or a parseWitnesses set");
    // Bad vkeys are refused when parsed or counted, as verifyFinality refuses them.
    const noteKey = formatVerifierKey("w.test/a", parseVerifierKey(vkeys[0] as string).publicKey);
    await expectCode(() => parseWitnesses([noteKey]), "INVALID_COSIGNATURE", "0x04");
    await expectCode(() => witnessMajority([noteKey]), "INVALID_COSIGNATURE", "0x04");
    await expectCode(() => parseWitnesses(["not a vkey"]), "INVALID_NOTE_KEY");
  });

  it("the log key may be given as a vkey, a JWK, or a list holding a retired key too; a wrong key fails both signature checks", async () => {
    const { proof, keySet } = await finalProof(witnesses, [1, 2, 3]);
    const [vkey] = Object.values(keySet.note_verifier_keys);
    const [jwk] = Object.values(keySet.keys);
    const stranger = createMemoryAuthority({ authorityName: "log.finality.test" });
    const [otherVkey] = Object.values(await stranger.noteVerifierKeys());
    await stranger.close();
    expect((await verifyFinality(proof, { log: vkey as string, witnesses: vkeys }, 3)).valid).toBe(true);
    expect((await verifyFinality(proof, { log: jwk as NonNullable<typeof jwk>, witnesses: vkeys }, 3)).valid).toBe(true);
    expect((await verifyFinality(proof, { log: [otherVkey as string, vkey as string], witnesses: vkeys }, 3)).valid).toBe(true);
    expect(failed(await verifyFinality(proof, { log: [otherVkey as string], witnesses: vkeys }, 3))).toEqual(["log_signature", "cosigned_log_signature"]);
  });

  it("only trusted witnesses count, each public key once, and a line under a witness's name by another key is not its cosignature", async () => {
    const { proof, keySet } = await finalProof(witnesses, [5, 6, 7]);
    // Two of three trusted: quorum 3 fails.
    expect(failed(await verifyFinality(proof, { log: keySet, witnesses: vkeys.slice(0, 2) }, 3))).toEqual(["cosignatures"]);
    // One key listed twice counts once.
    expect((await verifyFinality(proof, { log: keySet, witnesses: [vkeys[0] as string, vkeys[0] as string] }, 2)).valid).toBe(false);
    // Witness a's line replaced by one an impostor made under a's name with another key: a no longer counts.
    const checkpoint = proof.witnessed?.checkpoint as CosignedCheckpoint;
    const impostor = await testCosigner("w.test/a").cosign(checkpoint.note.slice(0, checkpoint.note.indexOf("\n\n") + 1), 4);
    const note = checkpoint.note.replace(/^— w\.test\/a .*\n/m, formatSignatureLine(impostor));
    const withImpostor: AnchorProof = { ...proof, witnessed: { ...(proof.witnessed as NonNullable<AnchorProof["witnessed"]>), checkpoint: { ...checkpoint, note } } };
    const result = await verifyFinality(withImpostor, { log: keySet, witnesses: vkeys }, 2);
    expect(result).toMatchObject({ valid: true, cosigned_by: ["w.test/b", "w.test/c"], witnessed_unix_s: 7 });
    expect(failed(await verifyFinality(withImpostor, { log: keySet, witnesses: vkeys }, 3))).toEqual(["cosignatures"]);
  });

  it("two distinct witness keys whose base64 ends alike after its last '+' are two witnesses", async () => {
    // Seeds found by a deterministic search: base64(0x04 || key) of both ends in "+7", so text after the vkey's last "+" is equal.
    const [a, b] = [seededCosigner("w.test/plus-a", "witness-74"), seededCosigner("w.test/plus-b", "witness-292")] as [Cosigner, Cosigner];
    const tail = (vkey: string) => vkey.slice(vkey.lastIndexOf("+") + 1);
    expect(tail(a.vkey)).toBe("7");
    expect(tail(b.vkey)).toBe(tail(a.vkey));
    const { proof, keySet } = await finalProof([a, b], [10, 20]);
    const result = await verifyFinality(proof, { log: keySet, witnesses: [a.vkey, b.vkey] }, 2);
    expect(result).toMatchObject({ valid: true, witnessed_unix_s: 20 });
    expect([...result.cosigned_by].sort()).toEqual(["w.test/plus-a", "w.test/plus-b"]);
  });

  it("each part of the proof, when wrong, fails its own check", async () => {
    const { proof, keySet } = await finalProof(witnesses, [1, 2, 3]);
    const keys = { log: keySet, witnesses: vkeys };
    const witnessed = proof.witnessed as NonNullable<AnchorProof["witnessed"]>;
    expect(failed(await verifyFinality({ ...proof, leaf_index: 1 }, keys, 2))).toContain("inclusion");
    expect(failed(await verifyFinality({ ...proof, finality: "PROVISIONAL" }, keys, 2))).toEqual(["witnessed"]);
    expect(failed(await verifyFinality({ ...proof, witnessed: undefined }, keys, 2))).toEqual(["witnessed"]);
    expect(failed(await verifyFinality({ ...proof, witnessed: { ...witnessed, checkpoint: { ...witnessed.checkpoint, tree_size: 3 } } }, keys, 2))).toEqual(["witnessed"]);
    expect(failed(await verifyFinality({ ...proof, witnessed: { ...witnessed, consistency_proof: [] } }, keys, 2))).toEqual(["consistency"]);
    // The cosigned note without the log's own line: the witnesses' lines alone do not make it the log's.
    const note = witnessed.checkpoint.note
      .split("\n")
      .filter((line) => !line.startsWith("— log.finality.test/"))
      .join("\n");
    expect(failed(await verifyFinality({ ...proof, witnessed: { ...witnessed, checkpoint: { ...witnessed.checkpoint, note } } }, keys, 2))).toEqual(["cosigned_log_signature"]);
  });

  it("property: valid exactly when the trusted cosigners reach the quorum; the witnessed time is the quorum-th smallest of their timestamps", async () => {
    const four = [...witnesses, testCosigner("w.test/d")];
    const { proof, keySet } = await finalProof(four, [1, 2, 3, 4]);
    const witnessed = proof.witnessed as NonNullable<AnchorProof["witnessed"]>;
    const logNote = witnessed.checkpoint.note
      .split("\n")
      .filter((line) => !line.startsWith("— w.test/"))
      .join("\n");
    const text = logNote.slice(0, logNote.indexOf("\n\n") + 1);
    await fc.assert(
      fc.asyncProperty(
        fc.subarray([0, 1, 2, 3]),
        fc.array(fc.integer({ min: 1, max: 2_000_000_000 }), { minLength: 4, maxLength: 4 }),
        fc.integer({ min: 1, max: 5 }),
        async (signers, times, quorum) => {
          const lines = await Promise.all(signers.map((i) => (four[i] as Cosigner).cosign(text, times[i] as number)));
          const note = logNote + lines.map(formatSignatureLine).join("");
          const result = await verifyFinality(
            { ...proof, witnessed: { ...witnessed, checkpoint: { ...witnessed.checkpoint, note } } },
            { log: keySet, witnesses: four.map(({ vkey }) => vkey) },
            quorum,
          );
          const sorted = signers.map((i) => times[i] as number).sort((a, b) => a - b);
          expect(result.valid).toBe(signers.length >= quorum);
          expect(result.witnessed_unix_s).toBe(signers.length >= quorum ? sorted[quorum - 1] : null);
          expect(result.cosigned_by).toHaveLength(signers.length);
        },
      ),
      { numRuns: 40 },
    );
  });

  it("refuses a quorum that is not a positive integer and a witness key that is not cosignature/v1", async () => {
    const { proof, keySet } = await finalProof(witnesses, [1, 2, 3]);
    await expectCode(() => verifyFinality(proof, { log: keySet, witnesses: vkeys }, 0), "INVALID_ARGUMENT", "quorum");
    await expectCode(() => verifyFinality(proof, { log: keySet, witnesses: Object.values(keySet.note_verifier_keys) }, 1), "INVALID_COSIGNATURE", "0x04");
    // Every vkey is checked, not only the one kept for its public key: a note key listed before the same key as a cosigner is still refused.
    const [first] = vkeys as [string];
    const noteKeyOfFirst = formatVerifierKey("w.test/a", parseVerifierKey(first).publicKey);
    await expectCode(() => verifyFinality(proof, { log: keySet, witnesses: [noteKeyOfFirst, ...vkeys] }, 1), "INVALID_COSIGNATURE", "0x04");
    // The first bad vkey is the one named, whichever way it is bad.
    await expectCode(() => verifyFinality(proof, { log: keySet, witnesses: [noteKeyOfFirst, "not a vkey"] }, 1), "INVALID_COSIGNATURE", "0x04");
    await expectCode(() => verifyFinality(proof, { log: keySet, witnesses: ["not a vkey", noteKeyOfFirst] }, 1), "INVALID_NOTE_KEY");
  });
});

describe("quorumFor, the one default quorum of verifyFinality and verifyZtt", () => {
  it("property: the quorum asked for when given; else the smallest number of the distinct witnesses that is more than half of them", () => {
    fc.assert(
      fc.property(fc.nat({ max: 1_000 }), fc.option(fc.integer({ min: 1, max: 1_000 }), { nil: undefined }), (distinct, asked) => {
        const quorum = quorumFor(asked, distinct);
        if (asked !== undefined) expect(quorum).toBe(asked);
        else expect([2 * quorum > distinct, 2 * (quorum - 1) <= distinct]).toEqual([true, true]);
      }),
    );
    expect([0, 1, 2, 3, 4, 5].map((distinct) => quorumFor(undefined, distinct))).toEqual([1, 1, 2, 2, 3, 3]);
  });
});
