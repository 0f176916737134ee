import { randomBytes } from "node:crypto";
import { readFile, readdir, rename, stat, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ChallengeStore } from "../authority/seams.js";
import { TemporalTypeError, describeValue } from "../core/errors.js";
import { isErrno } from "./errors.js";
import { makeDirectory } from "./make-directory.js";

/** Issued challenges between purges of expired ones; a purge lists the whole directory. */
const PURGE_EVERY = 256;
const NONCE = /^[0-9a-f]{64}$/;
/** Age after which a file left by an interrupted write is removed; a live write renames its file within milliseconds. */
const ABANDONED_MS = 60_000;

/**
 * Outstanding challenges as one file per nonce in a directory of the home
 * (`challenges/<nonce>`, holding its expiry), so that a challenge issued by
 * one process can be used by any other process sharing the home. Taking a
 * nonce removes its file: `unlink` succeeds for exactly one caller, across
 * processes, with no lock. Files are written aside and renamed into place,
 * so a reader never sees half an expiry. They are not fsynced: a crash
 * forgets challenges (they are then refused as unknown), as a restart of
 * the in-memory store does.
 */
export class FileChallengeStore implements ChallengeStore {
  readonly #directory: string;
  #created = false;
  #addsSincePurge = 0;

  constructor(directory: string) {
    this.#directory = directory;
  }

  async add(nonce: string, expiresUnixMs: number, nowUnixMs: number): Promise<void> {
    if (!NONCE.test(nonce)) throw new TemporalTypeError("CHALLENGE_INVALID", `a challenge nonce is 64 lowercase hex digits, got ${describeValue(nonce)}`);
    if (!this.#created) {
      await makeDirectory(this.#directory, { mode: 0o700 });
      this.#created = true;
    }
    if (++this.#addsSincePurge >= PURGE_EVERY) {
      this.#addsSincePurge = 0;
      await this.purge(nowUnixMs);
    }
    const pending = join(this.#directory, `.${nonce}.${randomBytes(4).toString("hex")}`);
    await writeFile(pending, String(expiresUnixMs), { mode: 0o600 });
    await rename(pending, join(this.#directory, nonce));
  }

  async take(nonce: string, nowUnixMs: number): Promise<boolean> {
    if (!NONCE.test(nonce)) return false;
    const path = join(this.#directory, nonce);
    const expires = await readExpiry(path);
    if (expires === undefined || !(await removed(path))) return false;
    return nowUnixMs < expires;
  }

  /** Removes every challenge that expired at or before `nowUnixMs`, and leftovers of interrupted writes. */
  async purge(nowUnixMs: number): Promise<void> {
    let names: string[];
    try {
      names = await readdir(this.#directory);
    } catch (error) {
      if (isErrno(error, "ENOENT")) return;
      throw error;
    }
    for (const name of names) {
      const path = join(this.#directory, name);
      if (NONCE.test(name)) {
        const expires = await readExpiry(path);
        if (expires !== undefined && expires <= nowUnixMs) await removed(path);
      } else if (name.startsWith(".") && (await isAbandoned(path))) {
        await removed(path);
      }
    }
  }

  async close(): Promise<void> {}
}

/** The expiry in a nonce's file; undefined when the file is gone (taken or purged). Unreadable content counts as expired. */
async function readExpiry(path: string): Promise<number | undefined> {
  try {
    const expires = Number(await readFile(path, "utf8"));
    return Number.isSafeInteger(expires) ? expires : 0;
  } catch (error) {
    if (isErrno(error, "ENOENT")) return undefined;
    throw error;
  }
}

/** A write's file not renamed into place for a minute: its writer was interrupted. */
async function isAbandoned(path: string): Promise<boolean> {
  try {
    return Date.now() - (await stat(path)).mtimeMs > ABANDONED_MS;
  } catch (error) {
    if (isErrno(error, "ENOENT")) return false;
    throw error;
  }
}

/** True when this call removed the file; false when it was already gone. */
async function removed(path: string): Promise<boolean> {
  try {
    await unlink(path);
    return true;
  } catch (error) {
    if (isErrno(error, "ENOENT")) return false;
    throw error;
  }
}
