import type { AnchorProof } from "../core/types.js";
import type { LogEntry } from "./seams.js";

/** Most anchors one group commit may carry, bounding record size and latency. */
export const MAX_BATCH = 1024;

interface PendingAnchor {
  readonly entry: LogEntry;
  resolve(proof: AnchorProof): void;
  reject(error: unknown): void;
}

/**
 * Commits one batch: resolves with one proof per entry, those of `entries` first, then those `joining` returned,
 * in order. See `LogStore.append`.
 */
export type CommitBatch = (entries: readonly LogEntry[], joining: () => readonly LogEntry[]) => Promise<AnchorProof[]>;

/**
 * Group commit: anchors that arrive while a commit is in progress wait here,
 * and the next commit takes all of them (up to `MAX_BATCH`), so a store
 * pays one write and one sync per batch rather than per anchor. A store that
 * first waits (for a shared database's lock) lets the anchors arriving
 * meanwhile join the batch it is about to write.
 */
export class AnchorQueue {
  readonly #commit: CommitBatch;
  #queue: PendingAnchor[] = [];
  #draining: Promise<void> | undefined;

  constructor(commit: CommitBatch) {
    this.#commit = commit;
  }

  push(entry: LogEntry): Promise<AnchorProof> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ entry, resolve, reject });
      this.#draining ??= this.#drain();
    });
  }

  /** Rejects every anchor still waiting (not the batch being committed). */
  rejectWaiting(error: unknown): void {
    for (const pending of this.#queue.splice(0)) pending.reject(error);
  }

  /** Settles once the queue is empty. */
  async idle(): Promise<void> {
    while (this.#draining !== undefined) await this.#draining;
  }

  async #drain(): Promise<void> {
    // One turn of the event loop lets a burst of callers share the first batch.
    await nextTurn();
    try {
      while (this.#queue.length > 0) {
        const batch = this.#queue.splice(0, MAX_BATCH);
        const joining = (): LogEntry[] => {
          const late = this.#queue.splice(0, MAX_BATCH - batch.length);
          batch.push(...late);
          return late.map((pending) => pending.entry);
        };
        try {
          const proofs = await this.#commit(
            batch.map((pending) => pending.entry),
            joining,
          );
          batch.forEach((pending, i) => pending.resolve(proofs[i] as AnchorProof));
        } catch (error) {
          for (const pending of batch) pending.reject(error);
        }
      }
    } finally {
      this.#draining = undefined;
    }
  }
}

/** After the current macrotask: `setImmediate` where it exists (Node.js), else a zero timeout (browsers). */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof setImmediate === "function") setImmediate(resolve);
    else setTimeout(resolve, 0);
  });
}
