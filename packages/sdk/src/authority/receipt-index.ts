import { hexToBytes } from "../core/encoding.js";
import type { ItemSeq } from "../core/hash-list.js";

/** One entry of a sorted run: the receipt hash, then its tile id and leaf index (unsigned 32-bit big-endian). */
export const INDEX_ENTRY_BYTES = 40;
const HASH_BYTES = 32;
/** Interpolation steps before a search falls back to halving (receipt hashes are uniform, so it rarely gets there). */
const INTERPOLATION_STEPS = 8;
/** Entries a merge hands on at once. */
const MERGE_CHUNK = 1024;

/** Where a receipt is anchored. */
export interface ReceiptLocation {
  readonly tileId: number;
  readonly leafIndex: number;
}

/** Entries sorted by hash, 40 bytes each, in memory or on disk (read on demand). */
export type SortedRun = Pick<ItemSeq, "length" | "get">;

/**
 * Receipt hash to leaf. A restored state has its receipts as sorted runs
 * (on disk, newest last, as the store saved them, merged like an LSM tree
 * so that there are O(log n) of them), searched in place by interpolation
 * on the hash, which is uniform: a lookup costs a few block reads per run,
 * and opening costs no work per receipt. Receipts added since are held in a
 * map until `addedTable()` gives them to the next saved run.
 */
export class ReceiptIndex {
  readonly #runs: readonly SortedRun[];
  readonly #added = new Map<string, ReceiptLocation>();

  constructor(runs: readonly SortedRun[] = []) {
    this.#runs = runs;
  }

  get size(): number {
    return this.#runs.reduce((sum, run) => sum + run.length, this.#added.size);
  }

  get(hash: string): ReceiptLocation | undefined {
    const added = this.#added.get(hash);
    if (added !== undefined || this.#runs.length === 0) return added;
    const bytes = hexToBytes(hash);
    for (let i = this.#runs.length - 1; i >= 0; i--) {
      const run = this.#runs[i] as SortedRun;
      const at = find(run, bytes);
      if (at !== undefined) return locationOf(run.get(at));
    }
    return undefined;
  }

  has(hash: string): boolean {
    return this.get(hash) !== undefined;
  }

  set(hash: string, location: ReceiptLocation): void {
    this.#added.set(hash, location);
  }

  /** The receipts added since the runs (those `keep` accepts), sorted: the next run to save. */
  addedTable(keep: (location: ReceiptLocation) => boolean = () => true): Uint8Array {
    const entries: Uint8Array[] = [];
    const prefixes: number[] = [];
    for (const [hash, location] of this.#added) {
      if (!keep(location)) continue;
      const entry = entryOf(hexToBytes(hash), location);
      entries.push(entry);
      prefixes.push(prefixOf(entry));
    }
    // Sorted by the hashes' first 48 bits as numbers, the whole hash only on a tie: fast at a million entries.
    const order = Array.from(entries.keys()).sort((a, b) => (prefixes[a] as number) - (prefixes[b] as number) || compareHashes(entries[a] as Uint8Array, 0, entries[b] as Uint8Array));
    const out = new Uint8Array(entries.length * INDEX_ENTRY_BYTES);
    order.forEach((from, i) => out.set(entries[from] as Uint8Array, i * INDEX_ENTRY_BYTES));
    return out;
  }
}

/** The entries of two sorted runs in one sorted sequence, in chunks of whole entries. */
export function* mergeRuns(older: SortedRun, newer: SortedRun): Generator<Uint8Array> {
  let a = 0;
  let b = 0;
  while (a < older.length || b < newer.length) {
    const chunk = new Uint8Array(Math.min(MERGE_CHUNK, older.length - a + newer.length - b) * INDEX_ENTRY_BYTES);
    for (let at = 0; at < chunk.length; at += INDEX_ENTRY_BYTES) {
      const takeOlder = b >= newer.length || (a < older.length && compareHashes(older.get(a), 0, newer.get(b)) < 0);
      chunk.set(takeOlder ? older.get(a++) : newer.get(b++), at);
    }
    yield chunk;
  }
}

function entryOf(hash: Uint8Array, location: ReceiptLocation): Uint8Array {
  const entry = new Uint8Array(INDEX_ENTRY_BYTES);
  entry.set(hash);
  const view = new DataView(entry.buffer);
  view.setUint32(HASH_BYTES, location.tileId);
  view.setUint32(HASH_BYTES + 4, location.leafIndex);
  return entry;
}

function locationOf(entry: Uint8Array): ReceiptLocation {
  const view = new DataView(entry.buffer, entry.byteOffset, entry.length);
  return { tileId: view.getUint32(HASH_BYTES), leafIndex: view.getUint32(HASH_BYTES + 4) };
}

/** The index of the entry for `hash` in `run`, or undefined: interpolation search on the hash's first 48 bits, then halving. */
function find(run: SortedRun, hash: Uint8Array): number | undefined {
  const key = prefixOf(hash);
  let low = 0;
  let high = run.length - 1;
  let keyLow = 0;
  let keyHigh = 2 ** 48;
  for (let step = 0; low <= high; step++) {
    const guess = step < INTERPOLATION_STEPS ? Math.min(high, Math.max(low, low + Math.floor(((key - keyLow) / Math.max(1, keyHigh - keyLow)) * (high - low + 1)))) : (low + high) >>> 1;
    const entry = run.get(guess);
    const order = compareHashes(entry, 0, hash);
    if (order === 0) return guess;
    if (order < 0) {
      low = guess + 1;
      keyLow = prefixOf(entry);
    } else {
      high = guess - 1;
      keyHigh = prefixOf(entry);
    }
  }
  return undefined;
}

function prefixOf(hash: Uint8Array): number {
  return (hash[0] as number) * 2 ** 40 + (hash[1] as number) * 2 ** 32 + (((hash[2] as number) << 24) >>> 0) + ((hash[3] as number) << 16) + ((hash[4] as number) << 8) + (hash[5] as number);
}

/** Compares the 32 bytes of `bytes` at `at` with `hash`. */
function compareHashes(bytes: Uint8Array, at: number, hash: Uint8Array): number {
  for (let i = 0; i < HASH_BYTES; i++) {
    const difference = (bytes[at + i] as number) - (hash[i] as number);
    if (difference !== 0) return difference;
  }
  return 0;
}
