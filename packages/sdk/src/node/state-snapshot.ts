import { crc32 } from "node:zlib";
import type { ItemFileCover } from "./checked-item-file.js";
import { HEADER_BYTES } from "./record-frame.js";

/**
 * The head of a file log store's stored state (`clockchain.snapshot`): a
 * small file, rewritten atomically at each save, that says which ledger
 * bytes the state covers and how much of each of its files (in
 * `clockchain.state/<generation>/`) holds it, with each tile's latest
 * signed checkpoint. Its size grows with the tiles and the logarithm of
 * their sizes (one cover per tree level and per index run), not with the
 * records. The magic, a JSON description and a CRC-32 of both (against
 * damage: what it claims is checked against the ledger and the key on
 * opening). Derived data: a store that cannot use it replays the ledger.
 */
const MAGIC = Buffer.from([0x89, 0x54, 0x4c, 0x53, 0x0d, 0x0a, 0x1a, 0x0a]); // 0x89 "TLS" CR LF ^Z LF, like PNG's
const VERSION = 2;
const CHECKSUM_BYTES = 4;

/** Which ledger bytes a stored state covers: up to `ledgerOffset`, the end of the record at `lastRecordOffset` with header `lastRecordHeader`. */
export interface SnapshotCover {
  readonly ledgerOffset: number;
  readonly lastRecordOffset: number;
  readonly lastRecordHeader: Buffer;
}

/** A tile's files: one per tree level, its receipt hashes and their anchoring times. */
export interface TileHead {
  readonly id: number;
  /** The tile's latest head as its signed note, as the ledger keeps it. */
  readonly note: string;
  readonly levels: readonly ItemFileCover[];
  readonly receipts: ItemFileCover;
  readonly times: ItemFileCover;
}

/** A sorted run of the receipt index: its file `run-<number>`. */
export interface RunHead extends ItemFileCover {
  readonly number: number;
}

export interface StateHead {
  /** The directory under `clockchain.state/` holding the files; a store that rebuilds the state from the records starts a new one. */
  readonly generation: string;
  readonly cover: SnapshotCover;
  readonly records: number;
  readonly chainIntact: boolean;
  /** The file of every head's `checkpointHash`, by sequence. */
  readonly heads: ItemFileCover;
  readonly tiles: readonly TileHead[];
  /** Oldest first. */
  readonly runs: readonly RunHead[];
  /** Key ids of the keys the log moved past (`ClockchainState.retiredKeys`); absent in heads saved before key rotation, which had none. */
  readonly retiredKeys: readonly string[];
}

export function encodeStateHead(head: StateHead): Buffer {
  const { cover, chainIntact, retiredKeys, ...rest } = head;
  const description = {
    version: VERSION,
    ...rest,
    chain_intact: chainIntact,
    ...(retiredKeys.length === 0 ? {} : { retired_keys: retiredKeys }),
    cover: { ledger_offset: cover.ledgerOffset, last_record_offset: cover.lastRecordOffset, last_record_header: cover.lastRecordHeader.toString("hex") },
  };
  const json = Buffer.from(JSON.stringify(description), "utf8");
  const out = Buffer.allocUnsafe(MAGIC.length + json.length + CHECKSUM_BYTES);
  let at = MAGIC.copy(out, 0);
  at += json.copy(out, at);
  out.writeUInt32BE(crc32(out.subarray(0, at)), at);
  return out;
}

/** The head in `bytes`, or why they are not one (damaged, another version, malformed). */
export function decodeStateHead(bytes: Buffer): StateHead | string {
  if (bytes.length < MAGIC.length + CHECKSUM_BYTES || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) return "it is not a state head file";
  const end = bytes.length - CHECKSUM_BYTES;
  if (crc32(bytes.subarray(0, end)) !== bytes.readUInt32BE(end)) return "its checksum does not match";
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString("utf8", MAGIC.length, end));
  } catch {
    return "its description is not JSON";
  }
  const d = value as Record<string, unknown>;
  if (typeof value !== "object" || value === null || d.version !== VERSION) return `it is not a version ${VERSION} state head`;
  const cover = d.cover as Record<string, unknown> | null;
  const valid =
    typeof d.generation === "string" &&
    /^[0-9a-f]{16}$/.test(d.generation) &&
    typeof cover === "object" &&
    cover !== null &&
    count(cover.ledger_offset) &&
    count(cover.last_record_offset) &&
    typeof cover.last_record_header === "string" &&
    /^[0-9a-f]*$/.test(cover.last_record_header) &&
    cover.last_record_header.length === 2 * HEADER_BYTES &&
    count(d.records) &&
    typeof d.chain_intact === "boolean" &&
    isCover(d.heads) &&
    Array.isArray(d.tiles) &&
    d.tiles.every(isTileHead) &&
    Array.isArray(d.runs) &&
    d.runs.every((run: unknown) => isCover(run) && count((run as unknown as { number: unknown }).number)) &&
    (d.retired_keys === undefined || (Array.isArray(d.retired_keys) && d.retired_keys.every((keyId: unknown) => typeof keyId === "string")));
  if (!valid) return `its description is not that of a version ${VERSION} state head`;
  return {
    generation: d.generation as string,
    cover: { ledgerOffset: cover.ledger_offset as number, lastRecordOffset: cover.last_record_offset as number, lastRecordHeader: Buffer.from(cover.last_record_header as string, "hex") },
    records: d.records as number,
    chainIntact: d.chain_intact as boolean,
    heads: d.heads as ItemFileCover,
    tiles: d.tiles as TileHead[],
    runs: d.runs as RunHead[],
    retiredKeys: (d.retired_keys as string[] | undefined) ?? [],
  };
}

function count(n: unknown): boolean {
  return Number.isSafeInteger(n) && (n as number) >= 0;
}

function isCover(value: unknown): value is ItemFileCover {
  if (typeof value !== "object" || value === null) return false;
  const { count: items, tailCrc } = value as Record<string, unknown>;
  return count(items) && count(tailCrc) && (tailCrc as number) <= 0xffffffff;
}

function isTileHead(value: unknown): value is TileHead {
  if (typeof value !== "object" || value === null) return false;
  const t = value as Record<string, unknown>;
  return count(t.id) && typeof t.note === "string" && Array.isArray(t.levels) && t.levels.every(isCover) && isCover(t.receipts) && isCover(t.times);
}
