/** How many of the latest receipts an authority remembers having signed: about 1.5 MB of hashes. */
export const REMEMBERED_RECEIPTS = 16_384;

/**
 * The hashes of the receipts an authority signed most recently, so that `anchor` can skip the Ed25519
 * verification (which costs more than the signing) for a receipt that comes back as it was issued: over HTTP the
 * receipt is a new object, parsed from the request, but its hash (SHA-256 of its canonical JSON, signature
 * included) equals the hash of the receipt signed only if it is that receipt, unchanged. Bounded: the oldest
 * hash is forgotten first, and a receipt anchored after that is verified as any other.
 */
export class IssuedReceipts {
  readonly #capacity: number;
  readonly #hashes = new Set<string>();
  /** The same hashes in the order they came, as a ring: `#next` is where the next one goes, over the oldest. */
  readonly #ring: string[] = [];
  #next = 0;

  constructor(capacity = REMEMBERED_RECEIPTS) {
    this.#capacity = capacity;
  }

  remember(hash: string): void {
    if (this.#hashes.has(hash)) return;
    const oldest = this.#ring[this.#next];
    if (oldest !== undefined) this.#hashes.delete(oldest);
    this.#ring[this.#next] = hash;
    this.#next = (this.#next + 1) % this.#capacity;
    this.#hashes.add(hash);
  }

  has(hash: string): boolean {
    return this.#hashes.has(hash);
  }
}
