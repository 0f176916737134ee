import { open } from "node:fs/promises";
import { ClockchainState, type PendingSignature, type StoredAnchor } from "../authority/clockchain-state.js";
import { LogKeys } from "../authority/log-keys.js";
import { receiptHash } from "../core/receipt.js";
import type { SignedCheckpoint } from "../core/types.js";
import type { VerifyingKey } from "../core/verifying-key.js";
import { LedgerCorruptError, type LedgerCorruptionReason } from "./errors.js";
import { parseRecordBody } from "./record-body.js";
import { readRecords } from "./record-reader.js";

/** Checkpoint signatures checked at once, bounding the memory they hold. */
const SIGNATURE_BATCH = 1024;

/** What a complete read of a ledger file found, every record verified. */
export interface LedgerCheck {
  readonly path: string;
  /** File size, bytes. */
  readonly size: number;
  readonly records: number;
  readonly anchors: number;
  readonly tiles: number;
  readonly last_checkpoint: SignedCheckpoint | undefined;
  /** Bytes after the last whole record that can only be a torn final write (`ledger repair` removes them). */
  readonly torn_tail: { readonly offset: number; readonly bytes: number } | undefined;
}

export interface LedgerCheckOptions {
  /** Retired keys that signed earlier checkpoints of a rotated log (see `LogKeys`). */
  readonly previousKeys?: readonly VerifyingKey[];
  /** Called for every anchor, in file order, once its record verified (checkpoint signatures aside, which are checked in batches). */
  readonly onAnchor?: (anchor: StoredAnchor, receiptHash: string) => void;
}

/**
 * Reads a format-2 ledger file from start to end without changing it and
 * verifies every record: checksum, leaf order, no receipt twice, roots,
 * chain links and every checkpoint signature against `key` (or one of
 * `options.previousKeys`; `LOG_KEY_UNKNOWN` for another). Throws
 * `LedgerCorruptError` (reason, byte offset of the record, and which tile
 * or leaf) for the first problem, including damage after the last whole
 * record that cannot be a torn final write.
 */
export async function checkLedgerFile(path: string, key: VerifyingKey, options: LedgerCheckOptions = {}): Promise<LedgerCheck> {
  const handle = await open(path, "r");
  try {
    const { size } = await handle.stat();
    const state = new ClockchainState();
    const keys = new LogKeys(key, options.previousKeys);
    const pending: { offset: number; check: PendingSignature }[] = [];
    const checkSignatures = async (): Promise<void> => {
      const checks = pending.splice(0);
      const results = await Promise.all(checks.map(({ check }) => check.valid));
      const bad = checks[results.indexOf(false)];
      if (bad !== undefined) {
        const { head } = bad.check;
        throw new LedgerCorruptError("HEAD_SIGNATURE", path, bad.offset, `the signature of checkpoint ${head.sequence} (tile ${head.tile_id}) does not verify`);
      }
    };
    const scan = await readRecords(handle, size, async ({ offset, body }) => {
      const corrupt = (reason: LedgerCorruptionReason, detail: string): LedgerCorruptError => new LedgerCorruptError(reason, path, offset, detail);
      const parsed = parseRecordBody(body);
      if (parsed === undefined) throw corrupt("RECORD_FORMAT", "the record is not a well-formed anchors/checkpoints object (format 2)");
      let checks: PendingSignature[];
      try {
        checks = state.replay(parsed, keys, corrupt);
      } catch (error) {
        // An earlier record's forged signature is the first problem: it must not hide behind this one (LOG_KEY_UNKNOWN would say the keys are wrong).
        await checkSignatures();
        throw error;
      }
      for (const check of checks) pending.push({ offset, check });
      if (options.onAnchor !== undefined) for (const anchor of parsed.anchors) options.onAnchor(anchor, receiptHash(anchor.receipt));
      if (pending.length >= SIGNATURE_BATCH) await checkSignatures();
    });
    await checkSignatures();
    if (scan.validLength < size && scan.tornTail === undefined) {
      throw new LedgerCorruptError("RECORD_CHECKSUM", path, scan.validLength, "a damaged record that cannot be a torn final write: it is not the last record in the file");
    }
    return {
      path,
      size,
      records: state.records,
      anchors: state.anchors,
      tiles: state.tiles().length,
      last_checkpoint: state.lastCheckpoint,
      torn_tail: scan.tornTail === undefined ? undefined : { offset: scan.validLength, bytes: scan.tornTail.length },
    };
  } finally {
    await handle.close();
  }
}
