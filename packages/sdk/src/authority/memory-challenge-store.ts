import { OutstandingChallenges } from "./outstanding-challenges.js";
import type { ChallengeStore } from "./seams.js";

/** Outstanding challenges in memory (at most `capacity`, the oldest dropped first), forgotten on restart. */
export class MemoryChallengeStore implements ChallengeStore {
  readonly #outstanding: OutstandingChallenges;

  constructor(capacity?: number) {
    this.#outstanding = new OutstandingChallenges(capacity);
  }

  async add(nonce: string, expiresUnixMs: number, nowUnixMs: number): Promise<void> {
    this.#outstanding.add(nonce, expiresUnixMs, nowUnixMs);
  }

  async take(nonce: string, nowUnixMs: number): Promise<boolean> {
    this.#outstanding.purge(nowUnixMs);
    return this.#outstanding.take(nonce);
  }

  async close(): Promise<void> {}
}

export function createMemoryChallengeStore(options: { capacity?: number } = {}): MemoryChallengeStore {
  return new MemoryChallengeStore(options.capacity);
}
