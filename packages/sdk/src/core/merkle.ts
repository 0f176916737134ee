import { TemporalRangeError } from "./errors.js";
import { equalBytes } from "./encoding.js";
import { sha256 } from "./sha256.js";

/** RFC 9162 section 2.1: domain-separated leaf and node hashes. */
export function leafHash(data: Uint8Array): Uint8Array {
  const input = new Uint8Array(1 + data.length);
  input[0] = 0x00;
  input.set(data, 1);
  return sha256(input);
}

export function nodeHash(left: Uint8Array, right: Uint8Array): Uint8Array {
  const input = new Uint8Array(65);
  input[0] = 0x01;
  input.set(left, 1);
  input.set(right, 33);
  return sha256(input);
}

const HASH_BYTES = 32;
// Perfect-subtree arithmetic below uses 32-bit operations.
const MAX_TREE_SIZE = 0x7fffffff;

/** Append-only hashes of equal-sized perfect subtrees, stored flat to keep memory at 32 bytes each. */
class HashLevel {
  #bytes = new Uint8Array(HASH_BYTES * 16);
  length = 0;

  push(hash: Uint8Array): void {
    if ((this.length + 1) * HASH_BYTES > this.#bytes.length) {
      const grown = new Uint8Array(this.#bytes.length * 2);
      grown.set(this.#bytes);
      this.#bytes = grown;
    }
    this.#bytes.set(hash, this.length * HASH_BYTES);
    this.length++;
  }

  get(index: number): Uint8Array {
    return this.#bytes.subarray(index * HASH_BYTES, (index + 1) * HASH_BYTES);
  }
}

/**
 * An append-only RFC 9162 Merkle tree that can produce the root and
 * inclusion proofs for any earlier size. Level `l` keeps the hash of every
 * complete, aligned subtree of 2^l leaves, so a perfect subtree costs a
 * lookup and a root or proof costs O(log n) hashes.
 */
export class MerkleTree {
  readonly #levels: HashLevel[] = [new HashLevel()];
  // Hashes of the ragged right edge for one tree size, shared by the proofs of a batch.
  readonly #edge = new Map<number, Uint8Array>();
  #edgeEnd = -1;

  get size(): number {
    return (this.#levels[0] as HashLevel).length;
  }

  /** Appends a leaf hash (see `leafHash`) and returns its index. */
  append(leaf: Uint8Array): number {
    const index = this.size;
    if (index >= MAX_TREE_SIZE) throw new TemporalRangeError("MERKLE_TREE_FULL", `a tile holds at most ${MAX_TREE_SIZE} leaves`);
    let level = 0;
    let position = index;
    let hash = leaf;
    for (;;) {
      this.#level(level).push(hash);
      if (position % 2 === 0) break;
      hash = nodeHash(this.#level(level).get(position - 1), hash);
      level++;
      position = (position - 1) / 2;
    }
    return index;
  }

  /**
   * Drops every leaf from `size` on, so that leaves appended for a write that
   * failed can be taken back. Level `l` holds floor(size / 2^l) subtrees.
   */
  truncate(size: number): void {
    if (!(Number.isInteger(size) && size >= 0 && size <= this.size)) {
      throw new TemporalRangeError("INVALID_LEAF_INDEX", `tree size ${size} is not in 0..${this.size}`);
    }
    for (let level = 0; level < this.#levels.length; level++) (this.#levels[level] as HashLevel).length = Math.floor(size / 2 ** level);
    // Cached edge hashes may cover leaves that are gone, and new leaves can bring the same size back: forget them.
    this.#edgeEnd = -1;
  }

  /** MTH(D[0:size]). */
  root(size = this.size): Uint8Array {
    this.#assertSize(size);
    return this.#subtree(0, size);
  }

  /** RFC 9162 PATH(index, D[0:size]), from the leaf upwards. */
  inclusionProof(index: number, size = this.size): Uint8Array[] {
    this.#assertSize(size);
    if (!(Number.isInteger(index) && index >= 0 && index < size)) {
      throw new TemporalRangeError("INVALID_LEAF_INDEX", `leaf ${index} is not in a tree of ${size} leaves`);
    }
    const path: Uint8Array[] = [];
    let start = 0;
    let end = size;
    while (end - start > 1) {
      const split = start + largestPowerOfTwoBelow(end - start);
      if (index < split) {
        path.push(this.#subtree(split, end));
        end = split;
      } else {
        path.push(this.#subtree(start, split));
        start = split;
      }
    }
    return path.reverse();
  }

  #level(level: number): HashLevel {
    let hashes = this.#levels[level];
    if (hashes === undefined) {
      hashes = new HashLevel();
      this.#levels.push(hashes);
    }
    return hashes;
  }

  #assertSize(size: number): void {
    if (!(Number.isInteger(size) && size >= 1 && size <= this.size)) {
      throw new TemporalRangeError("INVALID_LEAF_INDEX", `tree size ${size} is not in 1..${this.size}`);
    }
  }

  /** MTH(D[start:end]) where D[start:end] is either an aligned perfect subtree or a right edge ending at `end`. */
  #subtree(start: number, end: number): Uint8Array {
    const count = end - start;
    if ((count & (count - 1)) === 0 && start % count === 0) {
      return (this.#levels[31 - Math.clz32(count)] as HashLevel).get(start / count);
    }
    if (end !== this.#edgeEnd) {
      this.#edge.clear();
      this.#edgeEnd = end;
    }
    let hash = this.#edge.get(start);
    if (hash === undefined) {
      const split = start + largestPowerOfTwoBelow(count);
      hash = nodeHash(this.#subtree(start, split), this.#subtree(split, end));
      this.#edge.set(start, hash);
    }
    return hash;
  }
}

/** The largest power of two strictly less than `n` (n >= 2). */
function largestPowerOfTwoBelow(n: number): number {
  return 2 ** (31 - Math.clz32(n - 1));
}

/**
 * RFC 9162 section 2.1.3.2: recomputes the root from a leaf hash and its
 * inclusion path and compares it with `root`. Uses arithmetic rather than
 * 32-bit operations so any safe-integer size is handled.
 */
export function verifyMerklePath(leafIndex: number, treeSize: number, leaf: Uint8Array, path: readonly Uint8Array[], root: Uint8Array): boolean {
  if (!(Number.isSafeInteger(leafIndex) && Number.isSafeInteger(treeSize) && leafIndex >= 0 && leafIndex < treeSize)) return false;
  let fn = leafIndex;
  let sn = treeSize - 1;
  let hash = leaf;
  for (const sibling of path) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      hash = nodeHash(sibling, hash);
      while (fn % 2 === 0 && fn !== 0) {
        fn /= 2;
        sn = Math.floor(sn / 2);
      }
    } else {
      hash = nodeHash(hash, sibling);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && equalBytes(hash, root);
}
