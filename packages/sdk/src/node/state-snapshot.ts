import { crc32 } from "node:zlib";
import type { StateImage, TileImage } from "../authority/clockchain-state.js";
import { signedCheckpointOf } from "../core/signed-checkpoint.js";
import type { SignedCheckpoint } from "../core/types.js";
import { HEADER_BYTES } from "./record-frame.js";

/**
 * The binary snapshot of a file log store's state (`clockchain.snapshot`):
 * the magic, a JSON description (which ledger bytes it covers, the heads),
 * the hashes and leaves as flat binary, and a CRC-32 of everything before
 * it (against damage: what the snapshot claims is checked against the
 * ledger and the key on restoring; a cryptographic hash of the whole file
 * cost half of opening a million anchors). Derived data: a store that
 * cannot use a snapshot replays the ledger.
 */
const MAGIC = Buffer.from([0x89, 0x54, 0x4c, 0x53, 0x0d, 0x0a, 0x1a, 0x0a]); // 0x89 "TLS" CR LF ^Z LF, like PNG's
const VERSION = 1;
const CHECKSUM_BYTES = 4;
const HASH_BYTES = 32;
const TIME_BYTES = 8;
/** Bytes per receipt in `ReceiptIndex.table()`. */
const INDEX_ENTRY_BYTES = 40;

/** Which ledger bytes a snapshot covers: up to `ledgerOffset`, the end of the record at `lastRecordOffset` with header `lastRecordHeader`. */
export interface SnapshotCover {
  readonly ledgerOffset: number;
  readonly lastRecordOffset: number;
  readonly lastRecordHeader: Buffer;
}

export interface StateSnapshot {
  readonly cover: SnapshotCover;
  readonly image: StateImage;
}

interface Description {
  readonly version: number;
  readonly ledger_offset: number;
  readonly last_record_offset: number;
  readonly last_record_header: string;
  readonly records: number;
  readonly chain_intact: boolean;
  readonly heads: number;
  /** Each tile's latest head as its signed note, as the ledger keeps it. */
  readonly tiles: readonly { readonly id: number; readonly note: string }[];
}

export function encodeSnapshot({ cover, image }: StateSnapshot): Buffer {
  const description: Description = {
    version: VERSION,
    ledger_offset: cover.ledgerOffset,
    last_record_offset: cover.lastRecordOffset,
    last_record_header: cover.lastRecordHeader.toString("hex"),
    records: image.records,
    chain_intact: image.chainIntact,
    heads: image.headHashes.length / HASH_BYTES,
    tiles: image.tiles.map(({ id, head }) => ({ id, note: head.note })),
  };
  const json = Buffer.from(JSON.stringify(description), "utf8");
  const length = MAGIC.length + 4 + json.length + bodyBytes(description.heads, image.tiles.map(({ head }) => head)) + CHECKSUM_BYTES;
  const out = Buffer.allocUnsafe(length);
  let at = MAGIC.copy(out, 0);
  at = out.writeUInt32BE(json.length, at);
  at += json.copy(out, at);
  at += Buffer.from(image.headHashes.buffer, image.headHashes.byteOffset, image.headHashes.length).copy(out, at);
  at += Buffer.from(image.receipts.buffer, image.receipts.byteOffset, image.receipts.length).copy(out, at);
  for (const tile of image.tiles) at = writeTile(out, at, tile);
  out.writeUInt32BE(crc32(out.subarray(0, at)), at);
  return out;
}

/** The snapshot in `bytes`, or why they are not one (damaged, another version, inconsistent). */
export function decodeSnapshot(bytes: Buffer): StateSnapshot | string {
  if (bytes.length < MAGIC.length + 4 + CHECKSUM_BYTES || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) return "it is not a snapshot file";
  const end = bytes.length - CHECKSUM_BYTES;
  if (crc32(bytes.subarray(0, end)) !== bytes.readUInt32BE(end)) return "its checksum does not match";
  const jsonLength = bytes.readUInt32BE(MAGIC.length);
  let description: unknown;
  try {
    description = JSON.parse(bytes.toString("utf8", MAGIC.length + 4, MAGIC.length + 4 + jsonLength));
  } catch {
    return "its description is not JSON";
  }
  if (!isDescription(description)) return `its description is not that of a version ${VERSION} snapshot`;
  const heads = headsOf(description);
  if (heads === undefined) return "a head in its description is not a signed tile checkpoint";
  let at = MAGIC.length + 4 + jsonLength;
  if (at + bodyBytes(description.heads, heads) !== end) return "its length does not match its description";
  const headHashes = bytes.subarray(at, (at += description.heads * HASH_BYTES));
  const receipts = bytes.subarray(at, (at += anchorsOf(heads) * INDEX_ENTRY_BYTES));
  const tiles: TileImage[] = [];
  for (const [i, { id }] of description.tiles.entries()) {
    const head = heads[i] as SignedCheckpoint;
    const size = head.tree_size;
    const levels: Uint8Array[] = [];
    for (let level = 0; level < levelCount(size); level++) levels.push(bytes.subarray(at, (at += Math.floor(size / 2 ** level) * HASH_BYTES)));
    const receiptHashes = bytes.subarray(at, (at += size * HASH_BYTES));
    // Copied into an aligned buffer of its own, then read as float64s natively (little-endian, as written, wherever Node runs).
    const anchoredAt = Array.from(new Float64Array(new Uint8Array(bytes.subarray(at, at + size * TIME_BYTES)).buffer));
    at += size * TIME_BYTES;
    tiles.push({ id, head, levels, receiptHashes, anchoredAt });
  }
  const cover = {
    ledgerOffset: description.ledger_offset,
    lastRecordOffset: description.last_record_offset,
    lastRecordHeader: Buffer.from(description.last_record_header, "hex"),
  };
  return { cover, image: { records: description.records, chainIntact: description.chain_intact, headHashes, receipts, tiles } };
}

function writeTile(out: Buffer, start: number, { head, levels, receiptHashes, anchoredAt }: TileImage): number {
  let at = start;
  for (let level = 0; level < levelCount(head.tree_size); level++) {
    // A tree may hold more than its head covers (an append in progress): only the head's are saved.
    const hashes = levels[level] as Uint8Array;
    at += Buffer.from(hashes.buffer, hashes.byteOffset, Math.floor(head.tree_size / 2 ** level) * HASH_BYTES).copy(out, at);
  }
  at += Buffer.from(receiptHashes.buffer, receiptHashes.byteOffset, head.tree_size * HASH_BYTES).copy(out, at);
  for (const time of anchoredAt) at = out.writeDoubleLE(time, at);
  return at;
}

/** Bytes of the hashes and leaves a description announces. */
function bodyBytes(headCount: number, heads: readonly SignedCheckpoint[]): number {
  let bytes = headCount * HASH_BYTES + anchorsOf(heads) * INDEX_ENTRY_BYTES;
  for (const head of heads) {
    const size = head.tree_size;
    for (let level = 0; level < levelCount(size); level++) bytes += Math.floor(size / 2 ** level) * HASH_BYTES;
    bytes += size * (HASH_BYTES + TIME_BYTES);
  }
  return bytes;
}

function anchorsOf(heads: readonly SignedCheckpoint[]): number {
  return heads.reduce((sum, head) => sum + head.tree_size, 0);
}

/** The tiles' heads, parsed from their notes (nothing verified), or undefined if one is not a tile checkpoint. */
function headsOf({ tiles }: Description): SignedCheckpoint[] | undefined {
  try {
    return tiles.map(({ note }) => signedCheckpointOf(note));
  } catch {
    return undefined;
  }
}

/** Levels a tree of `size` leaves keeps: one more than the height of its largest perfect subtree. */
function levelCount(size: number): number {
  return size === 0 ? 1 : 32 - Math.clz32(size);
}

function isDescription(value: unknown): value is Description {
  if (typeof value !== "object" || value === null) return false;
  const d = value as Record<string, unknown>;
  const count = (n: unknown): boolean => Number.isSafeInteger(n) && (n as number) >= 0;
  return (
    d.version === VERSION &&
    count(d.ledger_offset) &&
    count(d.last_record_offset) &&
    typeof d.last_record_header === "string" &&
    /^[0-9a-f]*$/.test(d.last_record_header) &&
    d.last_record_header.length === 2 * HEADER_BYTES &&
    count(d.records) &&
    typeof d.chain_intact === "boolean" &&
    count(d.heads) &&
    Array.isArray(d.tiles) &&
    d.tiles.every((t: unknown) => typeof t === "object" && t !== null && count((t as { id: unknown }).id) && typeof (t as { note: unknown }).note === "string")
  );
}
