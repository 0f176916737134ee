/**
 * The witness's durable state: one JSON file per origin under
 * `<state dir>/logs/` (named by the SHA-256 of the origin, which may hold
 * any characters) with the latest cosigned checkpoint, replaced via temp
 * file + fsync + rename; refused checkpoints that contradict a cosigned one
 * under `<state dir>/evidence/`. Requests for one origin run one after the
 * other (a promise chain per origin), so two cannot both pass the check on
 * the same old size; a lock file keeps a second witness process off the
 * same directory.
 */

import { TemporalError, parseCheckpoint, parseNote, sha256Hex } from "@temporal/agent-sdk";
import { HomeLockedError, acquireLock, makeDirectory, writeFileDurably, type HomeLock } from "@temporal/agent-sdk/node";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Evidence, LatestCheckpoint, WitnessStateStore } from "./add-checkpoint.js";

const utf8 = new TextEncoder();

export class FileStateStore implements WitnessStateStore {
  readonly #directory: string;
  readonly #lock: HomeLock;
  /** The latest checkpoint per origin once read, so a request costs no file read. */
  readonly #latest = new Map<string, LatestCheckpoint | undefined>();
  /** The tail of each origin's queue of updates. */
  readonly #queues = new Map<string, Promise<unknown>>();

  private constructor(directory: string, lock: HomeLock) {
    this.#directory = directory;
    this.#lock = lock;
  }

  /** Opens (creating) the state directory and takes its lock, waiting up to `lockWaitMs`. Throws `WITNESS_STATE_FAILED` when another witness holds it. */
  static async open(directory: string, { lockWaitMs = 3_000 }: { readonly lockWaitMs?: number } = {}): Promise<FileStateStore> {
    try {
      await makeDirectory(join(directory, "logs"), { mode: 0o700 });
      await makeDirectory(join(directory, "evidence"), { mode: 0o700 });
      const lock = await acquireLock(join(directory, "witness.lock"), { waitMs: lockWaitMs });
      return new FileStateStore(directory, lock);
    } catch (error) {
      // The SDK's lock message advises its API (a larger waitMs); an operator needs to know which witness holds the folder.
      if (error instanceof HomeLockedError) throw lockedError(directory, error);
      throw new TemporalError("WITNESS_STATE_FAILED", `cannot use the state directory ${directory}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }

  update<T>(origin: string, decide: (latest: LatestCheckpoint | undefined) => Promise<{ readonly result: T; readonly next?: LatestCheckpoint }>): Promise<T> {
    const previous = this.#queues.get(origin) ?? Promise.resolve();
    const turn = previous.then(async () => {
      const latest = await this.#read(origin);
      const { result, next } = await decide(latest);
      if (next !== undefined) await this.#write(origin, next);
      return result;
    });
    const tail = turn.catch(() => undefined);
    this.#queues.set(origin, tail);
    // Forget an idle origin's queue, so the map holds only origins with requests in flight.
    void tail.then(() => {
      if (this.#queues.get(origin) === tail) this.#queues.delete(origin);
    });
    return turn;
  }

  async recordEvidence(evidence: Evidence): Promise<void> {
    // Named by the refused note, so the same evidence submitted again is one file.
    const name = `${sha256Hex(evidence.origin).slice(0, 16)}-${evidence.cosigned.size}-${evidence.kind}-${sha256Hex(evidence.refusedNote).slice(0, 16)}.json`;
    await this.#lock.assertHeld();
    await writeFileDurably(join(this.#directory, "evidence", name), `${JSON.stringify(evidence, null, 2)}\n`);
  }

  /** Waits for the updates in flight (a decision being persisted), then releases the directory's lock. */
  async close(): Promise<void> {
    await Promise.all(this.#queues.values());
    await this.#lock.release();
  }

  async #read(origin: string): Promise<LatestCheckpoint | undefined> {
    if (this.#latest.has(origin)) return this.#latest.get(origin);
    const path = this.#pathOf(origin);
    let text: string;
    try {
      text = await readFile(path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw stateError(path, error);
      this.#latest.set(origin, undefined);
      return undefined;
    }
    const latest = parseStateFile(path, origin, text);
    this.#latest.set(origin, latest);
    return latest;
  }

  async #write(origin: string, latest: LatestCheckpoint): Promise<void> {
    await this.#lock.assertHeld();
    const record = { origin, size: latest.size, root_hash: latest.rootHash, note: latest.note };
    try {
      await writeFileDurably(this.#pathOf(origin), utf8.encode(`${JSON.stringify(record, null, 2)}\n`));
    } catch (error) {
      // The rename may have happened before the failure: the next request reads the file again instead of trusting memory.
      this.#latest.delete(origin);
      throw error;
    }
    this.#latest.set(origin, latest);
  }

  #pathOf(origin: string): string {
    return join(this.#directory, "logs", `${sha256Hex(origin)}.json`);
  }
}

/** The state file's record, checked against the note it keeps: a file that disagrees with itself is refused, never trusted. */
function parseStateFile(path: string, origin: string, text: string): LatestCheckpoint {
  try {
    const record = JSON.parse(text) as { origin?: unknown; size?: unknown; root_hash?: unknown; note?: unknown };
    if (typeof record.note !== "string") throw new Error("it has no note");
    const checkpoint = parseCheckpoint(parseNote(record.note).text);
    if (record.origin !== origin || checkpoint.origin !== origin) throw new Error(`it is not the state of ${origin}`);
    if (record.size !== checkpoint.tree_size || record.root_hash !== checkpoint.root_hash) throw new Error("its size and root hash are not its note's");
    return { size: checkpoint.tree_size, rootHash: checkpoint.root_hash, note: record.note };
  } catch (error) {
    throw stateError(path, error);
  }
}

function lockedError(directory: string, error: HomeLockedError): TemporalError {
  return new TemporalError(
    "WITNESS_STATE_FAILED",
    `cannot use the state directory ${directory}: another temporal-witness (${error.heldBy}) uses it; stop that one first, or give this one its own "state_dir" (the lock of a witness that is no longer running is taken over automatically)`,
    { cause: error },
  );
}

function stateError(path: string, error: unknown): TemporalError {
  return new TemporalError(
    "WITNESS_STATE_FAILED",
    `the state file ${path} cannot be used (${error instanceof Error ? error.message : String(error)}); restore it from a backup, never delete it: a witness that forgets its state can be made to cosign a rollback`,
    { cause: error },
  );
}
