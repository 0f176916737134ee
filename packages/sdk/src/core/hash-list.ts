/** A list of fixed-size byte items that may live in memory or partly on disk (see `HashList`, and the file store's checked item files). */
export interface ItemSeq {
  readonly length: number;
  /** A view of item `index` (not a copy; never changed afterwards); callers check `index < length`. */
  get(index: number): Uint8Array;
  push(item: Uint8Array): void;
  /** Keeps the first `length` items. */
  truncate(length: number): void;
}

/**
 * An append-only list of fixed-size items (32-byte hashes unless told)
 * stored flat, so each costs its bytes rather than an object or a
 * 64-character string.
 */
export class HashList implements ItemSeq {
  static readonly HASH_BYTES = 32;
  readonly itemBytes: number;
  #bytes: Uint8Array;
  #length = 0;

  constructor(itemBytes = HashList.HASH_BYTES) {
    this.itemBytes = itemBytes;
    this.#bytes = new Uint8Array(itemBytes * 16);
  }

  /** A list holding the items in `bytes` (a whole number of items), which it takes over rather than copies. */
  static adopt(bytes: Uint8Array, itemBytes = HashList.HASH_BYTES): HashList {
    if (bytes.length % itemBytes !== 0) throw new RangeError(`${bytes.length} bytes are not a whole number of ${itemBytes}-byte items`);
    const list = new HashList(itemBytes);
    list.#bytes = bytes.length === 0 ? list.#bytes : bytes;
    list.#length = bytes.length / itemBytes;
    return list;
  }

  get length(): number {
    return this.#length;
  }

  push(item: Uint8Array): void {
    if ((this.#length + 1) * this.itemBytes > this.#bytes.length) {
      const grown = new Uint8Array(this.#bytes.length * 2);
      grown.set(this.#bytes);
      this.#bytes = grown;
    }
    this.#bytes.set(item, this.#length * this.itemBytes);
    this.#length++;
  }

  get(index: number): Uint8Array {
    return this.#bytes.subarray(index * this.itemBytes, (index + 1) * this.itemBytes);
  }

  /** A view of every item held, in order (not a copy). */
  bytes(): Uint8Array {
    return this.#bytes.subarray(0, this.#length * this.itemBytes);
  }

  truncate(length: number): void {
    this.#length = Math.min(this.#length, length);
  }
}
