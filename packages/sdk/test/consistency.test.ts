import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bytesToHex } from "../src/core/encoding.js";
import { MerkleTree, leafHash, verifyConsistency } from "../src/core/merkle.js";
import { verifyConsistencyProof, type ConsistencyProof } from "../src/core/index.js";

/** RFC 9162 section 2.1 written from the definitions with node:crypto, as an independent model. */
const sha = (...parts: Buffer[]) => createHash("sha256").update(Buffer.concat(parts)).digest();
const leaf = (i: number) => sha(Buffer.from([0]), sha(Buffer.from(`leaf ${i}`)));
const largestPowerBelow = (n: number) => {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
};
function mth(d: readonly Buffer[]): Buffer {
  if (d.length === 1) return d[0] as Buffer;
  const k = largestPowerBelow(d.length);
  return sha(Buffer.from([1]), mth(d.slice(0, k)), mth(d.slice(k)));
}
/** Section 2.1.4.1 SUBPROOF, recursive as written. */
function subproof(m: number, d: readonly Buffer[], b: boolean): Buffer[] {
  if (m === d.length) return b ? [] : [mth(d)];
  const k = largestPowerBelow(d.length);
  return m <= k ? [...subproof(m, d.slice(0, k), b), mth(d.slice(k))] : [...subproof(m - k, d.slice(k), false), mth(d.slice(0, k))];
}
const isPowerOfTwo = (n: number) => (n & (n - 1)) === 0;
const leaves = (n: number) => Array.from({ length: n }, (_, i) => leaf(i));

function treeOf(size: number): MerkleTree {
  const tree = new MerkleTree();
  for (let i = 0; i < size; i++) tree.append(leafHash(sha(Buffer.from(`leaf ${i}`))));
  return tree;
}

function wireProof(tree: MerkleTree, first: number, second: number): ConsistencyProof {
  return {
    tile_id: 3,
    first,
    second,
    first_root: bytesToHex(tree.root(first)),
    second_root: bytesToHex(tree.root(second)),
    proof: tree.consistencyProof(first, second).map(bytesToHex),
  };
}

const flip = (hex: string, bit: number) => {
  const bytes = Buffer.from(hex, "hex");
  bytes[bit >> 3] = (bytes[bit >> 3] as number) ^ (1 << (bit & 7));
  return bytes.toString("hex");
};

describe("RFC 9162 consistency proofs", () => {
  const big = treeOf(130);
  const model = leaves(130);

  it("equal the recursive SUBPROOF of the RFC and verify, for every pair of sizes 1 <= first <= second <= 100", () => {
    for (let second = 1; second <= 100; second++) {
      const secondRoot = big.root(second);
      expect(bytesToHex(secondRoot)).toBe(mth(model.slice(0, second)).toString("hex"));
      for (let first = 1; first <= second; first++) {
        const proof = big.consistencyProof(first, second);
        const expected = first === second ? [] : subproof(first, model.slice(0, second), true);
        if (proof.map(bytesToHex).join() !== expected.map((h) => h.toString("hex")).join()) throw new Error(`proof ${first} -> ${second} differs from the RFC model`);
        if (!verifyConsistency(first, second, big.root(first), secondRoot, proof)) throw new Error(`proof ${first} -> ${second} does not verify`);
      }
    }
  });

  it("verify for random tree sizes up to 5000, also from a tree grown further, and on the wire shape", () => {
    const grown = treeOf(5000);
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5000 }).chain((second) => fc.tuple(fc.integer({ min: 1, max: second }), fc.constant(second))),
        ([first, second]) => {
          const proof = wireProof(grown, first, second);
          expect(proof.proof.length).toBeLessThanOrEqual(2 * Math.ceil(Math.log2(second)) + 1);
          expect(verifyConsistencyProof(proof)).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("rejects any single bit flip in the proof or either root", () => {
    const caseArb = fc
      .integer({ min: 2, max: 130 })
      .chain((second) => fc.tuple(fc.integer({ min: 1, max: second - 1 }), fc.constant(second)))
      .chain(([first, second]) => {
        const length = big.consistencyProof(first, second).length;
        return fc.record({
          first: fc.constant(first),
          second: fc.constant(second),
          target: fc.constantFrom("proof", "first_root", "second_root"),
          element: fc.integer({ min: 0, max: length - 1 }),
          bit: fc.integer({ min: 0, max: 255 }),
        });
      });
    fc.assert(
      fc.property(caseArb, ({ first, second, target, element, bit }) => {
        const proof = wireProof(big, first, second);
        let tampered: ConsistencyProof;
        switch (target) {
          case "proof":
            tampered = { ...proof, proof: proof.proof.map((h, i) => (i === element ? flip(h, bit) : h)) };
            break;
          case "first_root":
            tampered = { ...proof, first_root: flip(proof.first_root, bit) };
            break;
          default:
            tampered = { ...proof, second_root: flip(proof.second_root, bit) };
        }
        expect(verifyConsistencyProof(proof)).toBe(true);
        expect(verifyConsistencyProof(tampered)).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it("binds the sizes as far as the path's shape does: sizes that need a path of another length are rejected", () => {
    // As with inclusion proofs, RFC 9162 verification cannot tell apart sizes whose paths are hashed
    // identically (38 -> 79 and 38 -> 80 here); the roots are what is proven, and a signed head pairs each
    // root with its size.
    expect(verifyConsistencyProof({ ...wireProof(big, 38, 79), second: 80 })).toBe(true);
    const pairs = fc.tuple(fc.integer({ min: 1, max: 130 }), fc.integer({ min: 1, max: 130 })).map(([a, b]) => [Math.min(a, b), Math.max(a, b)] as const);
    fc.assert(
      fc.property(pairs, pairs, ([first, second], [otherFirst, otherSecond]) => {
        const proof = wireProof(big, first, second);
        fc.pre(first !== second && otherFirst !== otherSecond);
        // Path nodes the verifier hashes: a power-of-two first tree's root is the implicit first node.
        const pathLength = (m: number, n: number) => big.consistencyProof(m, n).length + (isPowerOfTwo(m) ? 1 : 0);
        if (pathLength(otherFirst, otherSecond) !== pathLength(first, second)) expect(verifyConsistencyProof({ ...proof, first: otherFirst, second: otherSecond })).toBe(false);
      }),
      { numRuns: 3000 },
    );
  });

  it("rejects proofs with an element dropped, added or reordered, and proofs between different trees", () => {
    const other = treeOf(0);
    for (let i = 0; i < 60; i++) other.append(leafHash(sha(Buffer.from(i === 20 ? "changed" : `leaf ${i}`))));
    for (const [first, second] of [
      [3, 7],
      [4, 8],
      [20, 60],
      [21, 60],
      [1, 2],
      [59, 60],
      [7, 8],
    ] as const) {
      const proof = wireProof(big, first, second);
      expect(verifyConsistencyProof(proof)).toBe(true);
      expect(verifyConsistencyProof({ ...proof, proof: proof.proof.slice(1) })).toBe(false);
      expect(verifyConsistencyProof({ ...proof, proof: [...proof.proof, proof.first_root] })).toBe(false);
      if (proof.proof.length > 1 && proof.proof[0] !== proof.proof[1]) expect(verifyConsistencyProof({ ...proof, proof: [...proof.proof].reverse() })).toBe(false);
      // A history rewritten at leaf 20 extends the original first tree only if that tree ends before leaf 20.
      const forked = { ...proof, second_root: bytesToHex(other.root(second)), proof: other.consistencyProof(first, second).map(bytesToHex) };
      expect(verifyConsistencyProof(forked)).toBe(first <= 20);
    }
  });

  it("treats equal sizes as an empty proof between equal roots, and size 0 as invalid", () => {
    const proof = wireProof(big, 9, 9);
    expect(proof.proof).toEqual([]);
    expect(verifyConsistencyProof(proof)).toBe(true);
    expect(verifyConsistencyProof({ ...proof, second_root: bytesToHex(big.root(10)) })).toBe(false);
    expect(verifyConsistencyProof({ ...proof, proof: [proof.first_root] })).toBe(false);
    expect(verifyConsistencyProof({ ...wireProof(big, 3, 9), proof: [] })).toBe(false);
    expect(verifyConsistencyProof({ ...proof, first: 0 })).toBe(false);
    expect(verifyConsistency(0, 0, big.root(1), big.root(1), [])).toBe(false);
  });

  it("MerkleTree.consistencyProof refuses sizes out of range with INVALID_TREE_SIZE", () => {
    const tree = treeOf(10);
    for (const [first, second] of [
      [0, 5],
      [6, 5],
      [1, 11],
      [1.5, 5],
      [1, 0],
      [Number.NaN, 5],
    ] as const) {
      expect(() => tree.consistencyProof(first, second)).toThrow(expect.objectContaining({ code: "INVALID_TREE_SIZE" }));
    }
    expect(tree.consistencyProof(10)).toEqual([]);
  });

  it("never throws on garbage, and garbage never verifies", () => {
    const hash = fc.stringMatching(/^[0-9a-f]{64}$/);
    const garbage = fc.oneof(
      fc.anything(),
      fc.record(
        {
          tile_id: fc.oneof(fc.integer(), fc.anything()),
          first: fc.oneof(fc.integer({ min: -3, max: 2 ** 53 + 2 }), fc.double(), fc.anything()),
          second: fc.oneof(fc.integer({ min: -3, max: 2 ** 53 + 2 }), fc.double(), fc.anything()),
          first_root: fc.oneof(hash, fc.anything()),
          second_root: fc.oneof(hash, fc.anything()),
          proof: fc.oneof(fc.array(hash, { maxLength: 70 }), fc.anything()),
        },
        { requiredKeys: [] },
      ),
    );
    fc.assert(
      fc.property(garbage, (value) => {
        expect(verifyConsistencyProof(value as ConsistencyProof)).toBe(false);
      }),
      { numRuns: 3000 },
    );
    expect(verifyConsistency(1, 2, "x" as unknown as Uint8Array, new Uint8Array(32), [])).toBe(false);
    expect(verifyConsistency(1, 2, new Uint8Array(32), new Uint8Array(32), [new Uint8Array(31)])).toBe(false);
    expect(verifyConsistency(1, 2, new Uint8Array(32), new Uint8Array(32), null as unknown as Uint8Array[])).toBe(false);
  });
});
