import { ClockchainState } from "../authority/clockchain-state.js";
import type { VerifyingKey } from "../core/verifying-key.js";
import { openIfPresent } from "./open-if-present.js";
import { parseRecordBody } from "./record-body.js";
import { HEADER_BYTES, MAX_RECORD_BYTES, recordAt } from "./record-frame.js";
import type { ReadableFile } from "./record-reader.js";
import { decodeSnapshot, encodeSnapshot, type SnapshotCover } from "./state-snapshot.js";
import { writeFileDurably } from "./write-durably.js";

export interface RestoredState {
  readonly state: ClockchainState;
  readonly cover: SnapshotCover;
}

/**
 * The state saved in the snapshot at `path`, if it holds for the ledger
 * `file` (`size` bytes) and `key`: the snapshot is whole (its checksum),
 * covers no more than the file, the record it says it ends with is in the
 * file whole (its CRC) and ends exactly where the snapshot does, and the
 * state's heads, roots and chain verify against that record's last head and
 * `key` (see `ClockchainState.restore`). Otherwise undefined: a missing,
 * damaged or stale snapshot is never trusted, only ignored.
 */
export async function restoreSnapshot(path: string, file: ReadableFile, size: number, key: VerifyingKey): Promise<RestoredState | undefined> {
  const bytes = await readWhole(path);
  if (bytes === undefined) return undefined;
  const snapshot = decodeSnapshot(bytes);
  if (typeof snapshot === "string") return undefined;
  const { cover, image } = snapshot;
  const recordLength = cover.ledgerOffset - cover.lastRecordOffset;
  if (cover.ledgerOffset > size || recordLength <= HEADER_BYTES || recordLength > MAX_RECORD_BYTES) return undefined;
  const record = Buffer.alloc(recordLength);
  const { bytesRead } = await file.read(record, 0, recordLength, cover.lastRecordOffset);
  const found = recordAt(record.subarray(0, bytesRead), 0);
  if (found === undefined || !("body" in found) || found.body.length !== recordLength - HEADER_BYTES) return undefined;
  if (!record.subarray(0, HEADER_BYTES).equals(cover.lastRecordHeader)) return undefined;
  const lastRecord = parseRecordBody(found.body);
  if (lastRecord === undefined) return undefined;
  const mismatch = (detail: string): Error => new Error(detail);
  try {
    return { state: await ClockchainState.restore(image, lastRecord, key, mismatch), cover };
  } catch {
    return undefined;
  }
}

/** The file's bytes in one read (`readFile` reads in 512 KiB steps, which cost more than the reading at a million anchors), or undefined if there is none. */
async function readWhole(path: string): Promise<Buffer | undefined> {
  const handle = await openIfPresent(path);
  if (handle === undefined) return undefined;
  try {
    const { size } = await handle.stat();
    const bytes = Buffer.allocUnsafe(size);
    let filled = 0;
    while (filled < size) {
      const { bytesRead } = await handle.read(bytes, filled, size - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return bytes.subarray(0, filled);
  } finally {
    await handle.close();
  }
}

/** Saves `state`, which covers the ledger up to `cover`, as the snapshot at `path`; false if that failed (nothing depends on it). */
export async function saveSnapshot(path: string, cover: SnapshotCover, state: ClockchainState): Promise<boolean> {
  try {
    await writeFileDurably(path, encodeSnapshot({ cover, image: state.image() }), { mode: 0o600 });
    return true;
  } catch {
    return false;
  }
}
