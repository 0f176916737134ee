import { TemporalRangeError } from "./errors.js";
import { equalBytes } from "./encoding.js";
import { HashList, type ItemSeq } from "./hash-list.js";
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

// Perfect-subtree arithmetic below uses 32-bit operations.
const MAX_TREE_SIZE = 0x7fffffff;

/**
 * An append-only RFC 9162 Merkle tree that can produce the root and
 * inclusion proofs for any earlier size. Level `l` keeps the hash of every
 * complete, aligned subtree of 2^l leaves, so a perfect subtree costs a
 * lookup and a root or proof costs O(log n) hashes.
 */
export class MerkleTree {
  readonly #levels: ItemSeq[] = [new HashList()];
  // Hashes of the ragged right edge for one tree size, shared by the proofs of a batch.
  readonly #edge = new Map<number, Uint8Array>();
  #edgeEnd = -1;

  /**
   * A tree of `size` leaves over the given levels (level `l` holding the
   * floor(size / 2^l) complete aligned subtrees, in memory or on disk),
   * taken over rather than copied; levels above them are added in memory
   * as it grows. Only the level lengths are checked: callers check the
   * root against a signed one.
   */
  static over(size: number, levels: readonly ItemSeq[]): MerkleTree {
    const tree = new MerkleTree();
    tree.#levels.length = 0;
    for (const [level, list] of levels.entries()) {
      if (list.length !== Math.floor(size / 2 ** level)) throw new TemporalRangeError("INVALID_TREE_SIZE", `level ${level} of a tree of ${size} leaves holds ${list.length} hashes`);
      tree.#levels.push(list);
    }
    if (tree.#levels.length === 0) tree.#levels.push(new HashList());
    if (tree.size !== size || (size > 0 && 2 ** levels.length <= size)) throw new TemporalRangeError("INVALID_TREE_SIZE", `${levels.length} levels cannot hold a tree of ${size} leaves`);
    return tree;
  }

  get size(): number {
    return (this.#levels[0] as ItemSeq).length;
  }

  /** The lists of every complete aligned subtree's hash, level by level from the leaves (the tree's own, not copies). */
  levels(): readonly ItemSeq[] {
    return this.#levels;
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
    for (let level = 0; level < this.#levels.length; level++) (this.#levels[level] as ItemSeq).truncate(Math.floor(size / 2 ** level));
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

  /**
   * RFC 9162 section 2.1.4.1 PROOF(first, D[0:second]): the hashes that show
   * the tree of `first` leaves is a prefix of the tree of `second` leaves.
   * Empty when the sizes are equal. Walks SUBPROOF iteratively: each step
   * records the subtree the older tree does not determine, and the base
   * case (reached only when `first` is not a left spine of the tree) adds
   * the root of the subtree `first` ends in.
   */
  consistencyProof(first: number, second = this.size): Uint8Array[] {
    if (!(Number.isInteger(second) && second >= 1 && second <= this.size)) {
      throw new TemporalRangeError("INVALID_TREE_SIZE", `tree size ${second} is not in 1..${this.size}`);
    }
    if (!(Number.isInteger(first) && first >= 1 && first <= second)) {
      throw new TemporalRangeError("INVALID_TREE_SIZE", `first tree size ${first} is not in 1..${second}`);
    }
    const proof: Uint8Array[] = [];
    let start = 0;
    let end = second;
    // Leaves of the older tree inside D[start:end].
    let remaining = first;
    // SUBPROOF's b: true while D[start:end] is a left spine whose root the verifier already has (the old root).
    let onLeftSpine = true;
    while (remaining < end - start) {
      const split = largestPowerOfTwoBelow(end - start);
      if (remaining <= split) {
        proof.push(this.#subtree(start + split, end));
        end = start + split;
      } else {
        proof.push(this.#subtree(start, start + split));
        start += split;
        remaining -= split;
        onLeftSpine = false;
      }
    }
    if (!onLeftSpine) proof.push(this.#subtree(start, end));
    return proof.reverse();
  }

  #level(level: number): ItemSeq {
    let hashes = this.#levels[level];
    if (hashes === undefined) {
      hashes = new HashList();
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
      return (this.#levels[31 - Math.clz32(count)] as ItemSeq).get(start / count);
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

/**
 * RFC 9162 section 2.1.4.2: true when `proof` shows that the tree of `first`
 * leaves with root `firstRoot` is a prefix of the tree of `second` leaves
 * with root `secondRoot`. Equal sizes need an empty proof and equal roots;
 * `first` must be at least 1. Arithmetic rather than 32-bit operations, so
 * any safe-integer size is handled, and false (never an exception) for
 * malformed arguments.
 */
export function verifyConsistency(first: number, second: number, firstRoot: Uint8Array, secondRoot: Uint8Array, proof: readonly Uint8Array[]): boolean {
  if (!(Number.isSafeInteger(first) && Number.isSafeInteger(second) && first >= 1 && first <= second)) return false;
  if (!isHashBytes(firstRoot) || !isHashBytes(secondRoot) || !Array.isArray(proof) || !proof.every(isHashBytes)) return false;
  if (first === second) return proof.length === 0 && equalBytes(firstRoot, secondRoot);
  if (proof.length === 0) return false;
  // A power-of-two old tree is a left spine of the new one: its root is the first node of the path.
  const path = isPowerOfTwo(first) ? [firstRoot, ...proof] : proof;
  let fn = first - 1;
  let sn = second - 1;
  while (fn % 2 === 1) {
    fn = (fn - 1) / 2;
    sn = Math.floor(sn / 2);
  }
  let fr = path[0] as Uint8Array;
  let sr = fr;
  for (let i = 1; i < path.length; i++) {
    const c = path[i] as Uint8Array;
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      while (fn % 2 === 0 && fn !== 0) {
        fn /= 2;
        sn = Math.floor(sn / 2);
      }
    } else {
      sr = nodeHash(sr, c);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && equalBytes(fr, firstRoot) && equalBytes(sr, secondRoot);
}

function isHashBytes(value: unknown): value is Uint8Array {
  return value instanceof Uint8Array && value.length === 32;
}

function isPowerOfTwo(n: number): boolean {
  // Safe integers exceed 32 bits, so no bit tricks.
  let x = n;
  while (x % 2 === 0) x /= 2;
  return x === 1;
}
