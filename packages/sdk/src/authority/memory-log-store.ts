import { TemporalError } from "../core/errors.js";
import type { AnchorPage, ConsistencyProof } from "../core/service-types.js";
import type { AnchorProof, AnchorSummary } from "../core/types.js";
import type { VerifyingKey } from "../core/verifying-key.js";
import { parseNote } from "../core/signed-note.js";
import { ClockchainState } from "./clockchain-state.js";
import { LogKeys } from "./log-keys.js";
import type { HeadSigning, LogEntry, LogStatus, LogStore } from "./seams.js";
import { SerialQueue } from "./serial-queue.js";

/**
 * A clockchain kept in memory only: gone with the process (or the page), so
 * its proofs verify but nothing outlives it. Appends are applied one at a
 * time, so several authorities may share one store.
 */
export class MemoryLogStore implements LogStore {
  readonly kind = "memory";
  readonly failure = undefined;
  readonly #state = new ClockchainState();
  readonly #appends = new SerialQueue();
  #closed = false;

  /**
   * Its heads were signed in this process, so they need no verifying; but a
   * store shared by authorities with different keys (one rotating another's
   * key) refuses an authority whose keys did not sign its last head, as the
   * other stores do (`LOG_KEY_UNKNOWN`).
   */
  async open(key: VerifyingKey, previousKeys: readonly VerifyingKey[] = []): Promise<void> {
    this.#assertOpen();
    const last = this.#state.lastCheckpoint;
    if (last === undefined) return;
    const keys = new LogKeys(key, previousKeys);
    const note = parseNote(last.note);
    if (keys.signatureOf(note, last.origin) === undefined) throw keys.unknownKeyError(last, note);
    this.#state.assertSignsNext(keys);
  }

  append(entries: readonly LogEntry[], signing: HeadSigning): Promise<AnchorProof[]> {
    return this.#appends.run(async () => {
      this.#assertOpen();
      const leaves = this.#state.stage(entries);
      if (leaves.length > 0) {
        try {
          this.#state.publish(leaves, await this.#state.signHeads(leaves, signing));
        } catch (error) {
          this.#state.unstage(leaves);
          throw error;
        }
      }
      return entries.map((entry) => this.#state.proof(entry.hash) as AnchorProof);
    });
  }

  async proof(receiptHash: string): Promise<AnchorProof | undefined> {
    return this.#state.proof(receiptHash);
  }

  async list(tileId: number): Promise<AnchorSummary[]> {
    return this.#state.list(tileId);
  }

  async page(tileId: number, offset: number, limit: number): Promise<AnchorPage> {
    return this.#state.page(tileId, offset, limit);
  }

  async consistencyProof(tileId: number, first: number, second: number): Promise<ConsistencyProof> {
    return this.#state.consistencyProof(tileId, first, second);
  }

  async headHashAt(sequence: number): Promise<string | undefined> {
    return this.#state.headHashAt(sequence);
  }

  async status(): Promise<LogStatus> {
    const state = this.#state;
    return { records: state.records, tiles: state.tiles(), anchors: state.anchors, last_checkpoint: state.lastCheckpoint, chain_valid: state.chainIntact, recovered: undefined };
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#appends.idle();
  }

  #assertOpen(): void {
    if (this.#closed) throw new TemporalError("AUTHORITY_CLOSED", "the in-memory clockchain is closed");
  }
}

export function createMemoryLogStore(): MemoryLogStore {
  return new MemoryLogStore();
}
