import type { BucketConfig } from "./service-config.js";

interface Bucket {
  tokens: number;
  updated_ms: number;
}

/**
 * Buckets kept before full ones are swept away (a full bucket is the same
 * as a missing one). If a flood of distinct clients leaves none full, the
 * oldest are dropped: memory stays bounded, and those clients merely start
 * again from a full bucket.
 */
const MAX_BUCKETS = 50_000;

/**
 * Token buckets keyed by client (an API key id or an address). `take`
 * answers 0 when a request may go ahead, else the milliseconds until a
 * token is back (the Retry-After).
 */
export class RateLimiter {
  readonly #burst: number;
  readonly #perMs: number;
  readonly #buckets = new Map<string, Bucket>();

  constructor({ burst, per_second }: BucketConfig) {
    this.#burst = burst;
    this.#perMs = per_second / 1000;
  }

  take(client: string, nowMs: number): number {
    let bucket = this.#buckets.get(client);
    if (bucket === undefined) {
      if (this.#buckets.size >= MAX_BUCKETS) this.#sweep(nowMs);
      bucket = { tokens: this.#burst, updated_ms: nowMs };
      this.#buckets.set(client, bucket);
    } else {
      bucket.tokens = Math.min(this.#burst, bucket.tokens + Math.max(0, nowMs - bucket.updated_ms) * this.#perMs);
      bucket.updated_ms = nowMs;
    }
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.ceil((1 - bucket.tokens) / this.#perMs);
  }

  #sweep(nowMs: number): void {
    for (const [client, bucket] of this.#buckets) {
      if (bucket.tokens + (nowMs - bucket.updated_ms) * this.#perMs >= this.#burst) this.#buckets.delete(client);
    }
    for (const client of this.#buckets.keys()) {
      if (this.#buckets.size < MAX_BUCKETS / 2) break;
      this.#buckets.delete(client);
    }
  }
}
