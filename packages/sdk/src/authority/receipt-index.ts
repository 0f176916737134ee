import { hexToBytes } from "../core/encoding.js";

/** One entry of a sorted table: the receipt hash, then its tile id and leaf index (unsigned 32-bit big-endian). */
const ENTRY_BYTES = 40;
const HASH_BYTES = 32;

/** Where a receipt is anchored. */
export interface ReceiptLocation {
  readonly tileId: number;
  readonly leafIndex: number;
}

/**
 * Receipt hash to leaf. Restored states take their receipts as one table
 * sorted by hash (saved with the state), searched in place, so opening
 * costs no work per receipt; receipts added since are held in a map until
 * `table()` merges them into the next saved table.
 */
export class ReceiptIndex {
  readonly #table: Uint8Array;
  readonly #tableView: DataView;
  readonly #added = new Map<string, ReceiptLocation>();

  /** `table` as `table()` gives it; not checked here beyond its length (see `ClockchainState.restore`). */
  constructor(table: Uint8Array = new Uint8Array(0)) {
    if (table.length % ENTRY_BYTES !== 0) throw new RangeError(`a receipt table of ${table.length} bytes is not a whole number of ${ENTRY_BYTES}-byte entries`);
    this.#table = table;
    this.#tableView = new DataView(table.buffer, table.byteOffset, table.length);
  }

  get size(): number {
    return this.#table.length / ENTRY_BYTES + this.#added.size;
  }

  get(hash: string): ReceiptLocation | undefined {
    const added = this.#added.get(hash);
    if (added !== undefined || this.#table.length === 0) return added;
    const at = this.#find(hexToBytes(hash));
    return at === undefined ? undefined : this.#locationAt(at);
  }

  has(hash: string): boolean {
    return this.get(hash) !== undefined;
  }

  set(hash: string, location: ReceiptLocation): void {
    this.#added.set(hash, location);
  }

  /** Every entry, sorted by hash: the table to save. */
  table(): Uint8Array {
    const added = [...this.#added].map(([hash, location]) => ({ hash: hexToBytes(hash), location })).sort((a, b) => compareHashes(a.hash, 0, b.hash));
    const table = this.#table;
    const out = new Uint8Array(table.length + added.length * ENTRY_BYTES);
    const view = new DataView(out.buffer);
    let from = 0;
    let at = 0;
    for (const { hash, location } of added) {
      // Copies the run of saved entries that sort before this one in one go.
      const end = this.#lowerBound(hash, from / ENTRY_BYTES) * ENTRY_BYTES;
      out.set(table.subarray(from, end), at);
      at += end - from;
      from = end;
      out.set(hash, at);
      view.setUint32(at + HASH_BYTES, location.tileId);
      view.setUint32(at + HASH_BYTES + 4, location.leafIndex);
      at += ENTRY_BYTES;
    }
    out.set(table.subarray(from), at);
    return out;
  }

  #locationAt(at: number): ReceiptLocation {
    return { tileId: this.#tableView.getUint32(at + HASH_BYTES), leafIndex: this.#tableView.getUint32(at + HASH_BYTES + 4) };
  }

  #find(hash: Uint8Array): number | undefined {
    const index = this.#lowerBound(hash, 0);
    const at = index * ENTRY_BYTES;
    return at < this.#table.length && compareHashes(this.#table, at, hash) === 0 ? at : undefined;
  }

  /** The first entry at or after `from` whose hash is not below `hash`. */
  #lowerBound(hash: Uint8Array, from: number): number {
    let low = from;
    let high = this.#table.length / ENTRY_BYTES;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compareHashes(this.#table, middle * ENTRY_BYTES, hash) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

/** Compares the 32 bytes of `bytes` at `at` with `hash`. */
function compareHashes(bytes: Uint8Array, at: number, hash: Uint8Array): number {
  for (let i = 0; i < HASH_BYTES; i++) {
    const difference = (bytes[at + i] as number) - (hash[i] as number);
    if (difference !== 0) return difference;
  }
  return 0;
}
