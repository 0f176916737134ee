/**
 * Where witnessing keeps what must survive a restart: each tile's latest
 * checkpoint with a quorum of cosignatures (what makes proofs `FINAL`), the
 * size each witness last cosigned (the `old` of the next submission), and
 * fork evidence. One small document, replaced whole: the memory store here,
 * the home's file in `src/node` (`FileWitnessingStore`).
 */

import type { CosignedCheckpoint, ForkEvidence, WitnessTileState } from "../core/witnessing-types.js";

export interface WitnessingRecord {
  readonly cosigned: readonly CosignedCheckpoint[];
  /** Per witness name, the tiles it cosigned. */
  readonly witnesses: Readonly<Record<string, readonly WitnessTileState[]>>;
  readonly forks: readonly ForkEvidence[];
  /** Per witness name, the fork evidence beyond the kept limit: counted, not kept (absent in files written before). */
  readonly forks_not_kept?: Readonly<Record<string, number>>;
}

export interface WitnessingStore {
  /** The record saved last, or undefined when there is none. */
  load(): Promise<WitnessingRecord | undefined>;
  /** Replaces the record durably (all or nothing). Calls never overlap. */
  save(record: WitnessingRecord): Promise<void>;
}

/** Keeps the record in memory: for the memory authority, whose clockchain ends with the process too. */
export class MemoryWitnessingStore implements WitnessingStore {
  #record: WitnessingRecord | undefined;

  load(): Promise<WitnessingRecord | undefined> {
    return Promise.resolve(this.#record);
  }

  save(record: WitnessingRecord): Promise<void> {
    this.#record = structuredClone(record);
    return Promise.resolve();
  }
}
