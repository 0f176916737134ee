/** An append-only list of 32-byte hashes stored flat, so each costs 32 bytes rather than an object or a 64-character string. */
export class HashList {
  static readonly HASH_BYTES = 32;
  #bytes: Uint8Array = new Uint8Array(HashList.HASH_BYTES * 16);
  #length = 0;

  /** A list holding the hashes in `bytes` (a multiple of 32 bytes long), which it takes over rather than copies. */
  static adopt(bytes: Uint8Array): HashList {
    if (bytes.length % HashList.HASH_BYTES !== 0) throw new RangeError(`${bytes.length} bytes are not a whole number of 32-byte hashes`);
    const list = new HashList();
    list.#bytes = bytes.length === 0 ? list.#bytes : bytes;
    list.#length = bytes.length / HashList.HASH_BYTES;
    return list;
  }

  get length(): number {
    return this.#length;
  }

  push(hash: Uint8Array): void {
    if ((this.#length + 1) * HashList.HASH_BYTES > this.#bytes.length) {
      const grown = new Uint8Array(this.#bytes.length * 2);
      grown.set(this.#bytes);
      this.#bytes = grown;
    }
    this.#bytes.set(hash, this.#length * HashList.HASH_BYTES);
    this.#length++;
  }

  /** A view of hash `index` (not a copy); callers check `index < length`. */
  get(index: number): Uint8Array {
    return this.#bytes.subarray(index * HashList.HASH_BYTES, (index + 1) * HashList.HASH_BYTES);
  }

  /** A view of every hash held, in order, 32 bytes each (not a copy). */
  bytes(): Uint8Array {
    return this.#bytes.subarray(0, this.#length * HashList.HASH_BYTES);
  }

  /** Keeps the first `length` hashes. */
  truncate(length: number): void {
    this.#length = Math.min(this.#length, length);
  }
}
