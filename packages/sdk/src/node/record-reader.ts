import { TemporalError } from "../core/errors.js";
import { HEADER_BYTES, MAX_RECORD_BYTES, isTornTail, recordAt } from "./record-frame.js";

/**
 * Bytes read at a time (more when one record is longer). Reading in chunks
 * of whole records keeps memory bounded and lifts the 2 GiB limit of
 * reading the file into a single Buffer.
 */
const CHUNK_BYTES = 8 * 1024 * 1024;

export interface FramedRecord {
  readonly offset: number;
  readonly body: Buffer;
}

export interface RecordScan {
  /** Bytes that are whole records; anything after is a damaged region. */
  readonly validLength: number;
  /** The damaged region, when it can only be a torn final write (see `isTornTail`). */
  readonly tornTail: Buffer | undefined;
}

/** The part of a `FileHandle` the reader uses. */
export interface ReadableFile {
  read(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
}

/**
 * Reads bytes `from` (a record boundary, default 0) up to `fileLength` of a
 * ledger file record by record, awaiting `onRecord` for each whole record
 * in file order, and stops at the first bytes that are not a valid record.
 */
export async function readRecords(file: ReadableFile, fileLength: number, onRecord: (record: FramedRecord) => void | Promise<void>, chunkBytes = CHUNK_BYTES, from = 0): Promise<RecordScan> {
  let chunk: Buffer = Buffer.alloc(0);
  let chunkStart = from;
  let offset = from;
  while (offset < fileLength) {
    const record = recordAt(chunk, offset - chunkStart);
    if (record !== undefined && "body" in record) {
      await onRecord({ offset, body: record.body });
      offset += HEADER_BYTES + record.body.length;
    } else if (record !== undefined && chunkStart + chunk.length < fileLength) {
      // The record runs past this chunk: read on from its start.
      chunk = await readAt(file, offset, Math.min(fileLength - offset, Math.max(chunkBytes, record.needs)));
      chunkStart = offset;
    } else {
      break;
    }
  }
  if (offset === fileLength) return { validLength: offset, tornTail: undefined };
  // One byte more than the longest record is enough for isTornTail to rule a longer region out.
  const region = await readAt(file, offset, Math.min(fileLength - offset, MAX_RECORD_BYTES + 1));
  return { validLength: offset, tornTail: isTornTail(region) ? region : undefined };
}

async function readAt(file: ReadableFile, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(length);
  for (let filled = 0; filled < length;) {
    const { bytesRead } = await file.read(buffer, filled, length - filled, position + filled);
    if (bytesRead === 0) {
      throw new TemporalError("LEDGER_IO_FAILED", `the ledger file ended at byte ${position + filled} while it was being read; did another process truncate it?`);
    }
    filled += bytesRead;
  }
  return buffer;
}
