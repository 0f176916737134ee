/**
 * Witnessing's state in a home: `witnessing.json`, replaced whole by
 * `writeFileDurably` (temporary file, fsync, rename, folder fsync), so a
 * crash leaves the old record or the new one. What it holds is checked
 * again when loaded (every cosignature is verified with the configured
 * witnesses' keys), so a damaged file is refused rather than trusted.
 */

import { readFile } from "node:fs/promises";
import { TemporalError } from "../core/errors.js";
import { isWitnessingRecord, type WitnessingRecord, type WitnessingStore } from "../authority/witnessing-store.js";
import { writeFileDurably } from "./write-durably.js";

export class FileWitnessingStore implements WitnessingStore {
  readonly #path: string;

  constructor(path: string) {
    this.#path = path;
  }

  async load(): Promise<WitnessingRecord | undefined> {
    let text: string;
    try {
      text = await readFile(this.#path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw new TemporalError("WITNESS_STATE_FAILED", `cannot read the witnessing state ${this.#path}: ${(error as Error).message}`, { cause: error });
    }
    let record: unknown;
    try {
      record = JSON.parse(text);
    } catch (error) {
      throw new TemporalError("WITNESS_STATE_FAILED", `the witnessing state ${this.#path} is not JSON (${(error as Error).message}); restore it from a backup or move it aside`);
    }
    if (!isWitnessingRecord(record))
      throw new TemporalError("WITNESS_STATE_FAILED", `the witnessing state ${this.#path} lacks "cosigned", "witnesses" or "forks"; restore it from a backup or move it aside`);
    return record;
  }

  save(record: WitnessingRecord): Promise<void> {
    return writeFileDurably(this.#path, `${JSON.stringify(record, null, 1)}\n`);
  }
}
