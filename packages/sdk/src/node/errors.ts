import { hostname } from "node:os";
import { TemporalError } from "../core/errors.js";
import { errnoCode } from "./describe-errno.js";

export type LedgerCorruptionReason =
  "RECORD_CHECKSUM" | "RECORD_FORMAT" | "LEAF_ORDER" | "DUPLICATE_RECEIPT" | "ROOT_MISMATCH" | "HEAD_SIGNATURE" | "CHAIN_BROKEN" | "UNKNOWN_KEY" | "KEY_RETIRED";

/** The ledger file fails verification somewhere other than a torn tail. The file is left untouched. */
export class LedgerCorruptError extends TemporalError {
  declare readonly code: "LEDGER_CORRUPT";
  readonly reason: LedgerCorruptionReason;
  readonly path: string;
  /** Byte offset of the first record that fails verification. */
  readonly offset: number;
  constructor(reason: LedgerCorruptionReason, path: string, offset: number, detail: string) {
    super("LEDGER_CORRUPT", `ledger ${path} is corrupt at byte ${offset} (${reason}): ${detail}; it has not been modified`);
    this.name = "LedgerCorruptError";
    this.reason = reason;
    this.path = path;
    this.offset = offset;
  }
}

/** The holder a `HomeLockedError` names, as far as the lock file tells. */
export interface HomeLockHolder {
  readonly pid: number;
  readonly host: string;
  /** When the holder took the lock, Unix ms by its clock. */
  readonly since_unix_ms: number;
}

/**
 * The home's lock is held by someone else: after waiting `waited_ms` for it
 * (from `acquireLock`), or, with `lost`, a holding this process had was
 * taken over (from `HomeLock.assertHeld`). `holder` is undefined when the
 * lock file names nobody readable (half-written, or an older version's).
 */
export class HomeLockedError extends TemporalError {
  declare readonly code: "HOME_LOCKED";
  readonly lockPath: string;
  readonly holder: HomeLockHolder | undefined;
  /** The holder in words, for a tool's own message: `process 123 on host "h" since <ISO time>`, or that the lock file names none. */
  readonly heldBy: string;
  /** The holder's pid, or undefined when the lock file names none. */
  readonly pid: number | undefined;
  /** How long `acquireLock` waited, ms; undefined for a lost holding. */
  readonly waited_ms: number | undefined;
  readonly lost: boolean;
  constructor(lockPath: string, holder: HomeLockHolder | undefined, how: { readonly waitedMs: number } | { readonly lost: true }) {
    const by = holder === undefined ? "a holder that the lock file does not name" : describeHolder(holder);
    const message =
      "lost" in how
        ? `this process no longer holds ${lockPath}: it is now held by ${by}; do not write, take the lock again`
        : `${lockPath} is held by ${by}; gave up after waiting ${how.waitedMs} ms (pass a larger waitMs to acquireLock to wait longer)`;
    super("HOME_LOCKED", message);
    this.name = "HomeLockedError";
    this.lockPath = lockPath;
    this.holder = holder;
    this.heldBy = by;
    this.pid = holder?.pid;
    this.waited_ms = "lost" in how ? undefined : how.waitedMs;
    this.lost = "lost" in how;
  }
}

function describeHolder({ pid, host, since_unix_ms }: HomeLockHolder): string {
  const since = Number.isFinite(since_unix_ms) && Math.abs(since_unix_ms) <= 8.64e15 ? new Date(since_unix_ms).toISOString() : String(since_unix_ms);
  const here = pid === process.pid && host === hostname() ? " (this process)" : "";
  return `process ${pid} on host ${JSON.stringify(host)}${here} since ${since}`;
}

/** Whether `error` is a failed system call (by `errnoCode`'s one test) with one of `codes` (e.g. "ENOENT"). */
export function isErrno(error: unknown, ...codes: string[]): boolean {
  const code = errnoCode(error);
  return code !== undefined && codes.includes(code);
}
