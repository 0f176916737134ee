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
/** The longest record, and so the longest write, the ledger ever makes. */
export const MAX_RECORD_BYTES = HEADER_BYTES + MAX_BODY_BYTES;

export function frameRecord(body: Uint8Array): Buffer {
  const record = Buffer.allocUnsafe(HEADER_BYTES + body.length);
  writeHeader(record, body);
  record.set(body, HEADER_BYTES);
  return record;
}

/** The header `frameRecord` puts before `body`. */
export function recordHeader(body: Uint8Array): Buffer {
  const header = Buffer.allocUnsafe(HEADER_BYTES);
  writeHeader(header, body);
  return header;
}

function writeHeader(target: Buffer, body: Uint8Array): void {
  target.writeUInt32BE(MAGIC, 0);
  target.writeUInt32BE(body.length, 4);
  target.writeUInt32BE(crc32(body), 8);
}

/**
 * What starts at `offset` of `bytes`: a whole record (its body), `needs`
 * bytes from `offset` when `bytes` ends before the record could, or
 * `undefined` when the bytes there are not a valid record.
 */
export type RecordAt = { readonly body: Buffer } | { readonly needs: number } | undefined;

export function recordAt(bytes: Buffer, offset: number): RecordAt {
  if (bytes.length - offset < HEADER_BYTES) return { needs: HEADER_BYTES };
  const length = statedLength(bytes, offset);
  if (length === undefined) return undefined;
  if (bytes.length - offset < HEADER_BYTES + length) return { needs: HEADER_BYTES + length };
  const body = bytes.subarray(offset + HEADER_BYTES, offset + HEADER_BYTES + length);
  return crc32(body) === bytes.readUInt32BE(offset + 8) ? { body } : undefined;
}

/**
 * Whether a damaged region — from the first record that fails its checks to
 * the end of the file — can be a torn final write. The writer appends one
 * record per write and fsyncs it before writing the next, so a crash can
 * only damage the last record in the file. The region is therefore torn
 * only if it is no longer than one record, its header is incomplete or
 * unreadable or says the record runs to or past the end of the file, and no
 * whole record follows. A readable header that says the record ends before
 * the end of the file means the writer wrote something after it: that is
 * damage to an earlier record, whatever happened to the bytes after it.
 */
export function isTornTail(region: Buffer): boolean {
  if (region.length > MAX_RECORD_BYTES) return false;
  const length = region.length < HEADER_BYTES ? undefined : statedLength(region, 0);
  if (length !== undefined && HEADER_BYTES + length < region.length) return false;
  return !hasRecordAfter(region, 1);
}

/** The body length of the header at `offset`, unless the magic is wrong or the length impossible. */
function statedLength(bytes: Buffer, offset: number): number | undefined {
  if (bytes.readUInt32BE(offset) !== MAGIC) return undefined;
  const length = bytes.readUInt32BE(offset + 4);
  return length <= MAX_BODY_BYTES ? length : undefined;
}

function hasRecordAfter(bytes: Buffer, from: number): boolean {
  for (let at = bytes.indexOf(MAGIC_BYTES, from); at >= 0; at = bytes.indexOf(MAGIC_BYTES, at + 1)) {
    const record = recordAt(bytes, at);
    if (record !== undefined && "body" in record) return true;
  }
  return false;
}
