import { crc32 } from "node:zlib";

/**
 * Record framing of the ledger file: a 12-byte header (magic, body length,
 * CRC-32 of the body, all big-endian) followed by the body. The magic's
 * first byte is non-ASCII so a JSON body can never imitate a header.
 */
const MAGIC = 0x89544c47; // 0x89 "TLG"
const MAGIC_BYTES = Buffer.from([0x89, 0x54, 0x4c, 0x47]);
export const HEADER_BYTES = 12;
/** Upper bound on a body, so a damaged length field cannot ask for gigabytes. */
export const MAX_BODY_BYTES = 64 * 1024 * 1024;

export function frameRecord(body: Uint8Array): Buffer {
  const record = Buffer.allocUnsafe(HEADER_BYTES + body.length);
  record.writeUInt32BE(MAGIC, 0);
  record.writeUInt32BE(body.length, 4);
  record.writeUInt32BE(crc32(body), 8);
  record.set(body, HEADER_BYTES);
  return record;
}

export interface FramedRecord {
  readonly offset: number;
  readonly body: Buffer;
}

export interface ScanResult {
  readonly records: FramedRecord[];
  /** Bytes that are whole records; anything after is a damaged region. */
  readonly validLength: number;
  /** True when the damaged region contains no whole record, i.e. it can only be a torn final write. */
  readonly tornTail: boolean;
}

/**
 * Splits a ledger file into records. The writer appends one record per
 * write and fsyncs before writing the next, so after a crash at most the
 * final record can be incomplete. A damaged region is therefore a torn tail
 * exactly when no whole, checksummed record follows it; otherwise the
 * damage is in the middle and the caller must report corruption.
 */
export function scanRecords(file: Buffer): ScanResult {
  const records: FramedRecord[] = [];
  let offset = 0;
  while (offset < file.length) {
    const body = bodyAt(file, offset);
    if (body === undefined) {
      return { records, validLength: offset, tornTail: !hasRecordAfter(file, offset + 1) };
    }
    records.push({ offset, body });
    offset += HEADER_BYTES + body.length;
  }
  return { records, validLength: offset, tornTail: false };
}

function bodyAt(file: Buffer, offset: number): Buffer | undefined {
  if (offset + HEADER_BYTES > file.length || file.readUInt32BE(offset) !== MAGIC) return undefined;
  const length = file.readUInt32BE(offset + 4);
  const end = offset + HEADER_BYTES + length;
  if (length > MAX_BODY_BYTES || end > file.length) return undefined;
  const body = file.subarray(offset + HEADER_BYTES, end);
  return crc32(body) === file.readUInt32BE(offset + 8) ? body : undefined;
}

function hasRecordAfter(file: Buffer, from: number): boolean {
  for (let at = file.indexOf(MAGIC_BYTES, from); at >= 0; at = file.indexOf(MAGIC_BYTES, at + 1)) {
    if (bodyAt(file, at) !== undefined) return true;
  }
  return false;
}
