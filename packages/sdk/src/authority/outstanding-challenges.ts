/** How many issued, unused challenges an authority remembers by default. */
export const DEFAULT_CHALLENGE_CAPACITY = 100_000;

interface Expiry {
  readonly expires: number;
  readonly nonce: string;
}

/**
 * The nonces of challenges issued and not yet used, in memory only, so a
 * restart forgets them all (their challenges are then refused as unknown).
 * Memory is bounded: at `capacity` the oldest issued nonce is dropped.
 * Expired nonces are purged in expiry order through a min-heap; the heap
 * may still hold nonces already used or dropped, and is rebuilt when those
 * outnumber the live ones so it stays within twice the live set.
 */
export class OutstandingChallenges {
  readonly capacity: number;
  /** Nonce -> expiry, in the order issued (a Map keeps insertion order), so the first key is the oldest. */
  readonly #live = new Map<string, number>();
  #heap: Expiry[] = [];

  constructor(capacity = DEFAULT_CHALLENGE_CAPACITY) {
    this.capacity = capacity;
  }

  get size(): number {
    return this.#live.size;
  }

  /** Remembers a nonce valid until `expires` (exclusive), first forgetting expired ones and, at capacity, the oldest. */
  add(nonce: string, expires: number, now: number): void {
    this.purge(now);
    while (this.#live.size >= this.capacity) this.#live.delete(this.#live.keys().next().value as string);
    this.#live.set(nonce, expires);
    this.#push({ expires, nonce });
    if (this.#heap.length > 2 * this.#live.size + 1024) this.#rebuild();
  }

  /** Forgets the nonce; true when it was outstanding. Whether it had expired is for the caller to check first. */
  take(nonce: string): boolean {
    return this.#live.delete(nonce);
  }

  /** Forgets every nonce whose expiry is at or before `now`. */
  purge(now: number): void {
    while (this.#heap.length > 0 && (this.#heap[0] as Expiry).expires <= now) {
      const { nonce, expires } = this.#pop();
      if (this.#live.get(nonce) === expires) this.#live.delete(nonce);
    }
  }

  #rebuild(): void {
    this.#heap = [];
    for (const [nonce, expires] of this.#live) this.#push({ expires, nonce });
  }

  #push(entry: Expiry): void {
    const heap = this.#heap;
    let i = heap.push(entry) - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if ((heap[parent] as Expiry).expires <= entry.expires) break;
      heap[i] = heap[parent] as Expiry;
      i = parent;
    }
    heap[i] = entry;
  }

  #pop(): Expiry {
    const heap = this.#heap;
    const top = heap[0] as Expiry;
    const last = heap.pop() as Expiry;
    if (heap.length > 0) {
      let i = 0;
      for (;;) {
        let child = 2 * i + 1;
        if (child >= heap.length) break;
        if (child + 1 < heap.length && (heap[child + 1] as Expiry).expires < (heap[child] as Expiry).expires) child++;
        if ((heap[child] as Expiry).expires >= last.expires) break;
        heap[i] = heap[child] as Expiry;
        i = child;
      }
      heap[i] = last;
    }
    return top;
  }
}
