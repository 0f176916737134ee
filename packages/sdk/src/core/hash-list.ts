/** An append-only list of 32-byte hashes stored flat, so each costs 32 bytes rather than an object or a 64-character string. */
export class HashList {
  static readonly HASH_BYTES = 32;
  #bytes = new Uint8Array(HashList.HASH_BYTES * 16);
  #length = 0;

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

  /** Keeps the first `length` hashes. */
  truncate(length: number): void {
    this.#length = Math.min(this.#length, length);
  }
}
