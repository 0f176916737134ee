/**
 * Anchor proofs carry C2SP signed tile checkpoints: they verify with the
 * public key alone, through the SDK and through a check written here from
 * the spec texts (signed-note, tlog-checkpoint, RFC 6962) with node:crypto.
 */
import { createHash, createPublicKey, verify } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  contextAt,
  createMemoryAuthority,
  createTsaeRequest,
  formatVerifierKey,
  openTileCheckpoint,
  sha256Hex,
  verifyAnchorProof,
  type AnchorProof,
  type ComposedAuthority,
  type PublicKeyJwk,
} from "../src/index.js";
import { withEditedIssuedTime } from "./helpers.js";

const T0 = Date.UTC(2026, 0, 5, 9);
const sha256 = (...parts: Buffer[]) => createHash("sha256").update(Buffer.concat(parts)).digest();

/** RFC 9162 section 2.1.3.2, from the text. */
function rootFromInclusionPath(leafIndex: number, treeSize: number, leaf: Buffer, path: readonly Buffer[]): Buffer | undefined {
  if (leafIndex >= treeSize) return undefined;
  let fn = leafIndex;
  let sn = treeSize - 1;
  let r = sha256(Buffer.from([0]), leaf);
  for (const p of path) {
    if (sn === 0) return undefined;
    if (fn % 2 === 1 || fn === sn) {
      r = sha256(Buffer.from([1]), p, r);
      if (fn % 2 === 0) while (fn % 2 === 0 && fn !== 0) [fn, sn] = [fn >> 1, sn >> 1];
    } else {
      r = sha256(Buffer.from([1]), r, p);
    }
    [fn, sn] = [fn >> 1, sn >> 1];
  }
  return sn === 0 ? r : undefined;
}

/** Everything a third party checks of a proof, from the C2SP and RFC texts, with only the Ed25519 public key. */
function independentlyVerified(proof: AnchorProof, jwk: PublicKeyJwk): boolean {
  const note = proof.checkpoint.note;
  // signed-note: the text ends at the last blank line; then one "— <name> <base64(key ID || signature)>" line per signature.
  const split = note.lastIndexOf("\n\n");
  const body = note.slice(0, split + 1);
  const lines = note.slice(split + 2, -1).split("\n");
  const [origin, size, rootBase64] = body.split("\n");
  const publicKey = Buffer.from(jwk.x, "base64url");
  const keyId = sha256(Buffer.from(origin as string, "utf8"), Buffer.from([0x0a, 0x01]), publicKey).subarray(0, 4);
  const signed = lines.some((line) => {
    if (!line.startsWith(`\u2014 ${origin} `)) return false;
    const bytes = Buffer.from(line.slice(`\u2014 ${origin} `.length), "base64");
    return (
      bytes.subarray(0, 4).equals(keyId) && verify(null, Buffer.from(body, "utf8"), createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: jwk.x }, format: "jwk" }), bytes.subarray(4))
    );
  });
  // tlog-checkpoint: origin, decimal size, base64 root; the origin names the tile.
  const root = Buffer.from(rootBase64 as string, "base64");
  const leaf = Buffer.from(proof.receipt_hash, "hex");
  const computed = rootFromInclusionPath(
    proof.leaf_index,
    Number(size),
    leaf,
    proof.inclusion_proof.map((h) => Buffer.from(h, "hex")),
  );
  return signed && origin?.endsWith(`/tile/${proof.tile_id}`) === true && computed !== undefined && computed.equals(root);
}

async function anchorSome(authority: ComposedAuthority, zones: readonly number[]): Promise<AnchorProof[]> {
  const receipts = await Promise.all(
    zones.map((zone, n) => authority.issueReceipt(createTsaeRequest(contextAt(T0 + n, { zone }), { scope: "test.checkpoint.v1", action_hash_hex: sha256Hex(`c${n}`) }))),
  );
  return Promise.all(receipts.map((receipt) => authority.anchor(receipt)));
}

describe("anchor proofs as signed checkpoints", () => {
  it("verify with only the public key: verifyAnchorProof with the JWK or the vkey, and an independent check from the specs", async () => {
    const authority = createMemoryAuthority({ clock: () => T0 });
    const proofs = await anchorSome(authority, [1, 1, 4, 1, 7, 4, 1]);
    const jwk = Object.values(await authority.publicKeys())[0] as PublicKeyJwk;
    const vkey = Object.values(await authority.noteVerifierKeys())[0] as string;
    expect(vkey).toBe(formatVerifierKey(`temporal-authority/${jwk.kid}`, jwk));
    for (const proof of proofs) {
      expect(await verifyAnchorProof(proof, jwk)).toBe(true);
      expect(await verifyAnchorProof(proof, vkey)).toBe(true);
      expect(independentlyVerified(proof, jwk)).toBe(true);
      expect((await openTileCheckpoint(proof.checkpoint.note, [vkey])).head).toMatchObject({ tree_size: proof.tree_size, root_hash: proof.root_hash });
    }
    await authority.close();
  });

  it("fail, both ways, for an edited note, another key, a vkey of another name and another receipt", async () => {
    const authority = createMemoryAuthority({ clock: () => T0 });
    const [proof, other] = (await anchorSome(authority, [2, 2])) as [AnchorProof, AnchorProof];
    const jwk = Object.values(await authority.publicKeys())[0] as PublicKeyJwk;
    const stranger = createMemoryAuthority();
    const strangerJwk = Object.values(await stranger.publicKeys())[0] as PublicKeyJwk;
    const edited = { ...proof, checkpoint: withEditedIssuedTime(proof.checkpoint, T0 + 1) };
    expect(await verifyAnchorProof(edited, jwk)).toBe(false);
    expect(independentlyVerified(edited, jwk)).toBe(false);
    expect(await verifyAnchorProof(proof, strangerJwk)).toBe(false);
    expect(independentlyVerified(proof, strangerJwk)).toBe(false);
    expect(await verifyAnchorProof(proof, formatVerifierKey("clock.example.com", jwk))).toBe(false);
    const swapped = { ...proof, receipt_hash: other.receipt_hash };
    expect(await verifyAnchorProof(swapped, jwk)).toBe(false);
    expect(independentlyVerified(swapped, jwk)).toBe(false);
    await Promise.all([authority.close(), stranger.close()]);
  });

  it("carry the configured authority name in every origin", async () => {
    const authority = createMemoryAuthority({ clock: () => T0, authorityName: "clock.example.com" });
    const [proof] = (await anchorSome(authority, [3])) as [AnchorProof];
    const jwk = Object.values(await authority.publicKeys())[0] as PublicKeyJwk;
    expect(proof.checkpoint.origin).toBe(`clock.example.com/tile/${proof.tile_id}`);
    expect(await authority.noteVerifierKeys()).toEqual({ [jwk.kid]: formatVerifierKey("clock.example.com", jwk) });
    expect(await verifyAnchorProof(proof, formatVerifierKey("clock.example.com", jwk))).toBe(true);
    expect(await verifyAnchorProof(proof, formatVerifierKey(`temporal-authority/${jwk.kid}`, jwk))).toBe(false);
    expect(independentlyVerified(proof, jwk)).toBe(true);
    await authority.close();
    expect(() => createMemoryAuthority({ authorityName: "has space" })).toThrow(expect.objectContaining({ code: "INVALID_NOTE_KEY" }));
  });
});
