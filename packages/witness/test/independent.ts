/**
 * A second implementation, written from the specs with node:crypto only and
 * sharing no code with the SDK or the witness: RFC 6962 Merkle tree hashes
 * and consistency proofs in their recursive definitions (section 2.1), and a
 * verifier of C2SP signed-note Ed25519 signatures (type 0x01) and
 * tlog-cosignature/v1 cosignatures (type 0x04). The tests check what the
 * witness produces and consumes against it.
 */

import { createHash, createPublicKey, verify } from "node:crypto";

export function sha256(...parts: Uint8Array[]): Uint8Array {
  const hash = createHash("sha256");
  for (const part of parts) hash.update(part);
  return new Uint8Array(hash.digest());
}

export function leafHash(data: Uint8Array): Uint8Array {
  return sha256(Uint8Array.of(0), data);
}

/** MTH(D[n]) over leaf hashes: the largest power of two k < n splits the tree. */
export function treeHash(leaves: readonly Uint8Array[]): Uint8Array {
  if (leaves.length === 0) return sha256();
  if (leaves.length === 1) return leaves[0] as Uint8Array;
  const k = split(leaves.length);
  return sha256(Uint8Array.of(1), treeHash(leaves.slice(0, k)), treeHash(leaves.slice(k)));
}

/** PROOF(m, D[n]) = SUBPROOF(m, D[n], true). */
export function consistencyProof(m: number, leaves: readonly Uint8Array[]): Uint8Array[] {
  return subproof(m, leaves, true);
}

function subproof(m: number, leaves: readonly Uint8Array[], complete: boolean): Uint8Array[] {
  const n = leaves.length;
  if (m === n) return complete ? [] : [treeHash(leaves)];
  const k = split(n);
  if (m <= k) return [...subproof(m, leaves.slice(0, k), complete), treeHash(leaves.slice(k))];
  return [...subproof(m - k, leaves.slice(k), false), treeHash(leaves.slice(0, k))];
}

function split(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

interface Vkey {
  readonly name: string;
  readonly keyId: Buffer;
  readonly type: number;
  readonly publicKey: Buffer;
}

function readVkey(vkey: string): Vkey {
  // Names have no "+", key IDs are 8 hex digits; the base64 after them may hold "+".
  const plus = vkey.indexOf("+");
  const material = Buffer.from(vkey.slice(plus + 10), "base64");
  return { name: vkey.slice(0, plus), keyId: Buffer.from(vkey.slice(plus + 1, plus + 9), "hex"), type: material[0] as number, publicKey: material.subarray(1) };
}

function ed25519Verify(publicKey: Buffer, message: Buffer, signature: Buffer): boolean {
  const key = createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: publicKey.toString("base64url") }, format: "jwk" });
  return verify(null, message, key, signature);
}

/**
 * The signature lines of `note` by `vkey` that verify: for type 0x01 the
 * note text is signed; for type 0x04 `cosignature/v1\ntime <t>\n` and the
 * text, with t the big-endian u64 before the signature. Each result holds
 * the timestamp of a cosignature (0 for a plain signature).
 */
export function verifiedLines(note: string, vkey: string): { timestamp: bigint }[] {
  const key = readVkey(vkey);
  const expectedId = sha256(Buffer.from(`${key.name}\n`), Uint8Array.of(key.type), key.publicKey).subarray(0, 4);
  if (!Buffer.from(expectedId).equals(key.keyId)) throw new Error(`vkey ${vkey} has the wrong key ID`);
  const blank = note.lastIndexOf("\n\n");
  const text = Buffer.from(note.slice(0, blank + 1));
  const found: { timestamp: bigint }[] = [];
  for (const line of note.slice(blank + 2, -1).split("\n")) {
    const [dash, name, encoded] = line.split(" ");
    const bytes = Buffer.from(encoded as string, "base64");
    if (dash !== "\u2014" || name !== key.name || !bytes.subarray(0, 4).equals(key.keyId)) continue;
    if (key.type === 0x01 && ed25519Verify(key.publicKey, text, bytes.subarray(4))) found.push({ timestamp: 0n });
    if (key.type === 0x04 && bytes.length === 76) {
      const timestamp = bytes.readBigUInt64BE(4);
      const message = Buffer.concat([Buffer.from(`cosignature/v1\ntime ${timestamp}\n`), text]);
      if (ed25519Verify(key.publicKey, message, bytes.subarray(12))) found.push({ timestamp });
    }
  }
  return found;
}
