import { TemporalError } from "../core/errors.js";

export type LedgerCorruptionReason =
  | "RECORD_CHECKSUM"
  | "RECORD_FORMAT"
  | "LEAF_ORDER"
  | "DUPLICATE_RECEIPT"
  | "ROOT_MISMATCH"
  | "HEAD_SIGNATURE"
  | "CHAIN_BROKEN"
  | "UNKNOWN_KEY";

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

/** Another live process holds the home directory. */
export class HomeLockedError extends TemporalError {
  declare readonly code: "HOME_LOCKED";
  readonly lockPath: string;
  readonly pid: number;
  constructor(lockPath: string, pid: number) {
    const holder = pid === process.pid ? `this process (${pid}); close the other authority first` : `running process ${pid}`;
    super("HOME_LOCKED", `${lockPath} is held by ${holder}; only one authority may write a Temporal home at a time`);
    this.name = "HomeLockedError";
    this.lockPath = lockPath;
    this.pid = pid;
  }
}

/** Whether `error` is a Node.js system error with one of `codes` (e.g. "ENOENT"). */
export function isErrno(error: unknown, ...codes: string[]): boolean {
  return error instanceof Error && codes.includes((error as NodeJS.ErrnoException).code ?? "");
}
