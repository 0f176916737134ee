import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bytesToHex } from "../src/core/encoding.js";
import { MerkleTree, leafHash, verifyMerklePath } from "../src/core/merkle.js";
import { GENESIS_CHECKPOINT_HASH, formatNote, formatTileCheckpoint, signedCheckpointOf, tileOrigin, verifyInclusion, type AnchorProof, type SignedCheckpoint } from "../src/core/index.js";

/** RFC 9162 section 2.1.1 MTH, written from the definition with node:crypto as an independent reference. */
function referenceRoot(leaves: readonly Buffer[]): Buffer {
  const hash = (...parts: Buffer[]) => createHash("sha256").update(Buffer.concat(parts)).digest();
  const mth = (d: readonly Buffer[]): Buffer => {
    if (d.length === 1) return hash(Buffer.from([0]), d[0] as Buffer);
    let k = 1;
    while (k * 2 < d.length) k *= 2;
    return hash(Buffer.from([1]), mth(d.slice(0, k)), mth(d.slice(k)));
  };
  return mth(leaves);
}

const leafData = (i: number) => Buffer.from(createHash("sha256").update(`leaf ${i}`).digest());

function treeOf(size: number): MerkleTree {
  const tree = new MerkleTree();
  for (let i = 0; i < size; i++) tree.append(leafHash(leafData(i)));
  return tree;
}

/** A well-formed tile checkpoint with a zero signature: `verifyInclusion` reads it but checks no signature. */
function unsignedCheckpoint(tileId: number, size: number, root: string): SignedCheckpoint {
  const origin = tileOrigin("merkle.test", tileId);
  const text = formatTileCheckpoint({ origin, tree_size: size, root_hash: root, sequence: 0, prev_checkpoint_hash: GENESIS_CHECKPOINT_HASH, issued_unix_ms: 0 });
  return signedCheckpointOf(formatNote({ text, signatures: [{ name: origin, keyId: 0, signature: new Uint8Array(64) }] }));
}

function proofFor(tree: MerkleTree, index: number, size: number): AnchorProof {
  const root = bytesToHex(tree.root(size));
  return {
    receipt_hash: bytesToHex(leafData(index)),
    tile_id: 7,
    leaf_index: index,
    tree_size: size,
    root_hash: root,
    inclusion_proof: tree.inclusionProof(index, size).map(bytesToHex),
    checkpoint: unsignedCheckpoint(7, size, root),
  };
}

describe("Merkle tree (RFC 9162)", () => {
  const big = treeOf(300);

  it("has the reference root for every size 1..300, including earlier sizes of a grown tree", () => {
    for (let size = 1; size <= 300; size++) {
      const expected = referenceRoot(Array.from({ length: size }, (_, i) => leafData(i))).toString("hex");
      expect(bytesToHex(treeOf(size).root())).toBe(expected);
      expect(bytesToHex(big.root(size))).toBe(expected);
    }
  });

  it("gives inclusion proofs that verify for every leaf of every tree of size 1..300", () => {
    let checked = 0;
    for (let size = 1; size <= 300; size++) {
      const root = big.root(size);
      for (let index = 0; index < size; index++) {
        const path = big.inclusionProof(index, size);
        expect(path.length).toBeLessThanOrEqual(Math.ceil(Math.log2(size)));
        if (!verifyMerklePath(index, size, leafHash(leafData(index)), path, root)) throw new Error(`proof of leaf ${index} in size ${size} fails`);
        checked++;
      }
    }
    expect(checked).toBe((300 * 301) / 2);
  });

  it("takes leaves back with truncate: appending other leaves then gives the tree of those leaves", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 70 }), fc.integer({ min: 0, max: 70 }), fc.integer({ min: 1, max: 70 }), (grown, kept, added) => {
        fc.pre(kept <= grown);
        const tree = treeOf(grown);
        tree.root(); // fills the edge cache for the size being dropped
        tree.truncate(kept);
        expect(tree.size).toBe(kept);
        const other = (i: number) => leafData(1000 + i);
        for (let i = 0; i < added; i++) tree.append(leafHash(other(i)));
        const leaves = [...Array.from({ length: kept }, (_, i) => leafData(i)), ...Array.from({ length: added }, (_, i) => other(i))];
        const size = kept + added;
        expect(bytesToHex(tree.root())).toBe(referenceRoot(leaves).toString("hex"));
        const index = size - 1;
        expect(verifyMerklePath(index, size, leafHash(leaves[index] as Buffer), tree.inclusionProof(index), tree.root())).toBe(true);
      }),
      { numRuns: 100 },
    );
    expect(() => treeOf(3).truncate(4)).toThrow(expect.objectContaining({ code: "INVALID_LEAF_INDEX" }));
  });

  it("verifyInclusion accepts well-formed proofs and checks them against the signed head", () => {
    for (const [index, size] of [
      [0, 1],
      [4, 5],
      [255, 256],
      [299, 300],
    ] as const) {
      const proof = proofFor(big, index, size);
      expect(verifyInclusion(proof)).toBe(true);
      // A checkpoint of another size or tile, and a parsed view its note does not state.
      expect(verifyInclusion({ ...proof, checkpoint: unsignedCheckpoint(7, size + 1, proof.root_hash) })).toBe(false);
      expect(verifyInclusion({ ...proof, checkpoint: unsignedCheckpoint(8, size, proof.root_hash) })).toBe(false);
      expect(verifyInclusion({ ...proof, checkpoint: { ...proof.checkpoint, tree_size: size + 1 } })).toBe(false);
      expect(verifyInclusion({ ...proof, inclusion_proof: [...proof.inclusion_proof, "0".repeat(64)] })).toBe(false);
      expect(verifyInclusion({ ...proof, leaf_index: size })).toBe(false);
    }
    expect(verifyInclusion(null as unknown as AnchorProof)).toBe(false);
    expect(verifyInclusion({} as AnchorProof)).toBe(false);
  });

  it("rejects a proof after any single bit flip in the leaf, the path, the root or the leaf index", () => {
    const flip = (hex: string, bit: number) => {
      const bytes = Buffer.from(hex, "hex");
      bytes[bit >> 3] = (bytes[bit >> 3] as number) ^ (1 << (bit & 7));
      return bytes.toString("hex");
    };
    const caseArb = fc
      .integer({ min: 1, max: 300 })
      .chain((size) => fc.tuple(fc.constant(size), fc.integer({ min: 0, max: size - 1 })))
      .chain(([size, index]) => {
        const pathLength = big.inclusionProof(index, size).length;
        const targets = ["receipt", "root", "index", ...(pathLength > 0 ? ["path"] : [])] as const;
        return fc.record({
          size: fc.constant(size),
          index: fc.constant(index),
          target: fc.constantFrom(...targets),
          element: fc.integer({ min: 0, max: Math.max(0, pathLength - 1) }),
          bit: fc.integer({ min: 0, max: 255 }),
        });
      });
    fc.assert(
      fc.property(caseArb, ({ size, index, target, element, bit }) => {
        const proof = proofFor(big, index, size);
        let tampered: AnchorProof;
        switch (target) {
          case "receipt":
            tampered = { ...proof, receipt_hash: flip(proof.receipt_hash, bit) };
            break;
          case "root": {
            const root_hash = flip(proof.root_hash, bit);
            tampered = { ...proof, root_hash, checkpoint: unsignedCheckpoint(7, size, root_hash) };
            break;
          }
          case "index":
            tampered = { ...proof, leaf_index: index ^ (1 << (bit % 9)) };
            break;
          case "path":
            tampered = { ...proof, inclusion_proof: proof.inclusion_proof.map((h, i) => (i === element ? flip(h, bit) : h)) };
            break;
          default:
            throw new Error(`unknown target ${String(target)}`);
        }
        expect(verifyInclusion(proof)).toBe(true);
        expect(verifyInclusion(tampered)).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });
});
