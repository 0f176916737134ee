import { randomBytes, randomInt } from "node:crypto";
import { closeSync, constants, fdatasyncSync, openSync } from "node:fs";
import { mkdir, readdir, rm, unlink } from "node:fs/promises";
import { join } from "node:path";
import { ClockchainState, TIME_BYTES, type StateParts, type StoredTile } from "../authority/clockchain-state.js";
import type { LogKeys } from "../authority/log-keys.js";
import { INDEX_ENTRY_BYTES, mergeRuns, type ReceiptLocation } from "../authority/receipt-index.js";
import type { ItemSeq } from "../core/hash-list.js";
import { signedCheckpointOf } from "../core/signed-checkpoint.js";
import { BackedItems, BlockCache, CheckedItemFile, EMPTY_COVER, appendItems, type ItemFileCover } from "./checked-item-file.js";
import type { HomePaths } from "./home.js";
import { acquireHomeLock } from "./home-lock.js";
import { openIfPresent } from "./open-if-present.js";
import { parseRecordBody } from "./record-body.js";
import { HEADER_BYTES, MAX_RECORD_BYTES, recordAt } from "./record-frame.js";
import type { ReadableFile } from "./record-reader.js";
import { decodeStateHead, encodeStateHead, type RunHead, type SnapshotCover, type StateHead, type TileHead } from "./state-snapshot.js";
import { syncDirectory } from "./sync-directory.js";
import { writeFileDurably } from "./write-durably.js";

const HASH_BYTES = 32;
/** Index runs merged under the lock hold at most this many entries together (2.5 MiB: tens of milliseconds); larger merges run aside. */
const MERGE_UNDER_LOCK_ENTRIES = 1 << 16;
/** Runs merged aside are numbered from here, at random: far above those saves number by counting. */
const MERGED_RUN_NUMBERS = 2 ** 40;
/** The head file is small; anything larger is not one. */
const MAX_HEAD_BYTES = 16 * 2 ** 20;

/** A state opened from the home's stored state: what it covers, the head it was opened from and its open files (closed with `files.close()`). */
export interface RestoredState {
  readonly state: ClockchainState;
  readonly cover: SnapshotCover;
  readonly head: StateHead;
  readonly files: StateFiles;
}

/**
 * What saving did: saved (read on from what was saved); found stored state
 * this state cannot extend but may read on from instead ("other": a head
 * covering more records, or another generation); or left it ("skipped": no
 * usable head, and this state does not hold everything to start a new one).
 */
export type SaveOutcome = "saved" | "other" | "skipped";

/** The directory of the stored state's files, beside its head. */
export function stateDirectory(paths: HomePaths): string {
  return join(paths.home, "clockchain.state");
}

/**
 * The open files of one generation of stored state. Files are opened when
 * the state is opened and kept open, so that a writer removing files it
 * merged away (or an old generation) does not take them from a reader.
 */
export class StateFiles {
  readonly directory: string;
  readonly #fds = new Map<string, number>();

  constructor(directory: string) {
    this.directory = directory;
  }

  /** The file `name`, opened read-write (created if `create`); throws ENOENT for a missing one otherwise. */
  fd(name: string, create = false): number {
    let fd = this.#fds.get(name);
    if (fd === undefined) {
      fd = openSync(join(this.directory, name), constants.O_RDWR | (create ? constants.O_CREAT : 0), 0o600);
      this.#fds.set(name, fd);
    }
    return fd;
  }

  /** fdatasyncs the files written, so that a head naming them is never durable before they are. */
  sync(names: Iterable<string>): void {
    for (const name of names) fdatasyncSync(this.fd(name));
  }

  close(): void {
    for (const fd of this.#fds.values()) closeSync(fd);
    this.#fds.clear();
  }
}

const levelFile = (tile: number, level: number): string => `tile-${tile}-level-${level}`;
const receiptsFile = (tile: number): string => `tile-${tile}-receipts`;
const timesFile = (tile: number): string => `tile-${tile}-times`;
const runFile = (run: number): string => `run-${run}`;
const HEADS_FILE = "heads";

/**
 * The state stored in the home, if it holds for the ledger `file` (`size`
 * bytes) and `key`: its head is whole (its checksum), covers no more than
 * the file, the record it says it ends with is in the file whole (its CRC)
 * and ends exactly where the head says, its files are there, and the
 * state's heads, roots and chain verify against that record's last head
 * and `keys` (see `ClockchainState.over`). Otherwise "absent" (no head)
 * or "unusable": a damaged or stale stored state is never trusted, only
 * ignored. Reads the head, one record and O(log n) blocks per tile,
 * whatever the history.
 */
export async function restoreSnapshot(paths: HomePaths, file: ReadableFile, size: number, keys: LogKeys, cache: BlockCache): Promise<RestoredState | "absent" | "unusable"> {
  const bytes = await readSmall(paths.snapshot);
  if (bytes === undefined) return "absent";
  return (await restoreFrom(paths, bytes, file, size, keys, cache)) ?? "unusable";
}

async function restoreFrom(paths: HomePaths, bytes: Buffer, file: ReadableFile, size: number, keys: LogKeys, cache: BlockCache): Promise<RestoredState | undefined> {
  const head = decodeStateHead(bytes);
  if (typeof head === "string") return undefined;
  const { cover } = head;
  const recordLength = cover.ledgerOffset - cover.lastRecordOffset;
  if (cover.ledgerOffset > size || recordLength <= HEADER_BYTES || recordLength > MAX_RECORD_BYTES) return undefined;
  const record = Buffer.alloc(recordLength);
  const { bytesRead } = await file.read(record, 0, recordLength, cover.lastRecordOffset);
  const found = recordAt(record.subarray(0, bytesRead), 0);
  if (found === undefined || !("body" in found) || found.body.length !== recordLength - HEADER_BYTES) return undefined;
  if (!record.subarray(0, HEADER_BYTES).equals(cover.lastRecordHeader)) return undefined;
  const lastRecord = parseRecordBody(found.body);
  if (lastRecord === undefined) return undefined;
  const files = new StateFiles(join(stateDirectory(paths), head.generation));
  try {
    const opened = (name: string, itemBytes: number, fileCover: ItemFileCover): BackedItems =>
      new BackedItems(new CheckedItemFile(files.fd(name), `${head.generation}/${name}`, itemBytes, fileCover, cache), itemBytes);
    const tiles: StoredTile[] = head.tiles.map((tile) => ({
      id: tile.id,
      head: signedCheckpointOf(tile.note),
      levels: tile.levels.map((level, i) => opened(levelFile(tile.id, i), HASH_BYTES, level)),
      receiptHashes: opened(receiptsFile(tile.id), HASH_BYTES, tile.receipts),
      anchoredAt: opened(timesFile(tile.id), TIME_BYTES, tile.times),
    }));
    const runs = head.runs.map((run) => new CheckedItemFile(files.fd(runFile(run.number)), `${head.generation}/${runFile(run.number)}`, INDEX_ENTRY_BYTES, run, cache));
    const stored = { records: head.records, chainIntact: head.chainIntact, headHashes: opened(HEADS_FILE, HASH_BYTES, head.heads), runs, tiles, retiredKeys: head.retiredKeys };
    const state = await ClockchainState.over(stored, lastRecord, keys, (detail) => new Error(detail));
    return { state, cover, head, files };
  } catch {
    // A missing file, a malformed head note, a block or a root that does not check: ignored, like a missing head.
    files.close();
    return undefined;
  }
}

/**
 * Saves what `state` (covering the ledger up to `cover`) holds beyond the
 * home's stored state, under the home's lock. When the stored head is the
 * one `restored` was opened from, or a later one of its generation, only
 * the new leaves, heads and index entries are appended and the head
 * rewritten: O(new records). A state replayed from the ledger (no
 * `restored`) holds everything, so it extends any head covering no more
 * than it, or starts a new generation (always when `newGeneration`: after
 * stored state failed a check). A stored head
 * covering more records than `state`, or one of another generation while
 * `state` reads its own, is left as it is ("other"). Derived data: failing
 * costs a longer replay later.
 */
export async function saveSnapshot(paths: HomePaths, cover: SnapshotCover, state: ClockchainState, restored: RestoredState | undefined, newGeneration: boolean): Promise<SaveOutcome> {
  const current = await readHead(paths);
  const parts = state.parts();
  if (current !== undefined && current.records > parts.records) return "other";
  let base = newGeneration ? undefined : current;
  if (restored !== undefined) {
    if (current === undefined || current.records < restored.head.records) return "skipped";
    if (current.generation !== restored.head.generation) return "other";
    base = current;
  }
  const generation = base?.generation ?? randomBytes(8).toString("hex");
  const directory = join(stateDirectory(paths), generation);
  if (base === undefined) await mkdir(directory, { recursive: true, mode: 0o700 });
  const files = new StateFiles(directory);
  try {
    const written = new Set<string>();
    const extend = (name: string, itemBytes: number, from: ItemFileCover, items: ItemSeq, to: number): ItemFileCover => {
      if (to <= from.count) return from;
      written.add(name);
      return appendItems(files.fd(name, true), itemBytes, from, itemsBetween(items, from.count, to));
    };
    const tiles = parts.tiles.map((tile): TileHead => {
      const old = base?.tiles.find((t) => t.id === tile.id);
      const size = tile.head.tree_size;
      return {
        id: tile.id,
        note: tile.head.note,
        levels: Array.from({ length: levelCount(size) }, (_, level) =>
          extend(levelFile(tile.id, level), HASH_BYTES, old?.levels[level] ?? EMPTY_COVER, tile.levels[level] as ItemSeq, Math.floor(size / 2 ** level)),
        ),
        receipts: extend(receiptsFile(tile.id), HASH_BYTES, old?.receipts ?? EMPTY_COVER, tile.receiptHashes, size),
        times: extend(timesFile(tile.id), TIME_BYTES, old?.times ?? EMPTY_COVER, tile.anchoredAt, size),
      };
    });
    const heads = extend(HEADS_FILE, HASH_BYTES, base?.heads ?? EMPTY_COVER, parts.headHashes, parts.headHashes.length);
    const runs = saveRuns(files, written, base, parts);
    files.sync(written);
    await syncDirectory(directory);
    const head: StateHead = { generation, cover, records: parts.records, chainIntact: parts.chainIntact, heads, tiles, runs: runs.kept, retiredKeys: parts.retiredKeys };
    await writeFileDurably(paths.snapshot, encodeStateHead(head));
    // Readers of the old head keep these open; new readers never see them.
    await Promise.all(runs.dropped.map((run) => unlink(join(directory, runFile(run.number))).catch(() => undefined)));
    if (base === undefined) await removeGenerationsBut(paths, generation);
    return "saved";
  } finally {
    files.close();
  }
}

/**
 * Writes the index entries `base` lacks as a new run, then merges the
 * newest two runs while the older is no larger than the newer, like a
 * binary counter (O(log n) runs, each entry rewritten O(log n) times) —
 * here only while the two hold at most `MERGE_UNDER_LOCK_ENTRIES`, so the
 * lock is held briefly; larger merges run aside (`mergeRunsAside`).
 */
function saveRuns(files: StateFiles, written: Set<string>, base: StateHead | undefined, parts: StateParts): { kept: RunHead[]; dropped: RunHead[] } {
  const savedLeaves = new Map(base?.tiles.map((tile) => [tile.id, tile.receipts.count]) ?? []);
  const entries = parts.index.addedTable(({ tileId, leafIndex }: ReceiptLocation) => leafIndex >= (savedLeaves.get(tileId) ?? 0));
  const kept = [...(base?.runs ?? [])];
  const dropped: RunHead[] = [];
  if (entries.length === 0) return { kept, dropped };
  let next = Math.max(-1, ...kept.map((run) => run.number)) + 1;
  const write = (chunks: Iterable<Uint8Array>): RunHead => {
    const run = writeRun(files, next++, chunks);
    written.add(runFile(run.number));
    return run;
  };
  kept.push(write([entries]));
  for (;;) {
    const newer = kept.at(-1) as RunHead;
    const older = kept.at(-2);
    if (older === undefined || older.count > newer.count || older.count + newer.count > MERGE_UNDER_LOCK_ENTRIES) break;
    kept.splice(-2, 2, write(mergeRuns(runReader(files, older), runReader(files, newer))));
    dropped.push(older, newer);
  }
  return { kept, dropped };
}

function writeRun(files: StateFiles, number: number, chunks: Iterable<Uint8Array>): RunHead {
  let cover = EMPTY_COVER;
  for (const chunk of chunks) cover = appendItems(files.fd(runFile(number), true), INDEX_ENTRY_BYTES, cover, chunk);
  return { number, ...cover };
}

/** A run to merge, through a small cache of its own: a merge reads each block once, in order, and should not evict what readers use. */
function runReader(files: StateFiles, run: RunHead): CheckedItemFile {
  return new CheckedItemFile(files.fd(runFile(run.number)), runFile(run.number), INDEX_ENTRY_BYTES, run, new BlockCache(2));
}

/** The position of the older of the newest two adjacent runs due a merge (the older no larger than the newer). */
function mergeDue(runs: readonly RunHead[]): number | undefined {
  for (let i = runs.length - 2; i >= 0; i--) if ((runs[i] as RunHead).count <= (runs[i + 1] as RunHead).count) return i;
  return undefined;
}

/**
 * Makes one merge of index runs that saving left for later (too large to
 * run under the lock): merges the two runs into a new file without the
 * lock, then takes the lock for a moment to put it in their place, if the
 * head still holds both (another store may have merged or replaced them
 * meanwhile; then the new file is removed). Resolves true when it merged,
 * so another may be due. Derived data: failures only leave more runs.
 */
export async function mergeRunsAside(paths: HomePaths, lockWaitMs: number): Promise<boolean> {
  const head = await readHead(paths);
  const at = head === undefined ? undefined : mergeDue(head.runs);
  if (head === undefined || at === undefined) return false;
  const [older, newer] = [head.runs[at] as RunHead, head.runs[at + 1] as RunHead];
  const directory = join(stateDirectory(paths), head.generation);
  const files = new StateFiles(directory);
  let merged: RunHead;
  try {
    // A number no saver picks (they count up from the largest in the head), so two stores merging never write one file.
    merged = writeRun(files, MERGED_RUN_NUMBERS + randomInt(MERGED_RUN_NUMBERS), mergeRuns(runReader(files, older), runReader(files, newer)));
    files.sync([runFile(merged.number)]);
    await syncDirectory(directory);
  } finally {
    files.close();
  }
  let replaced = false;
  const lock = await acquireHomeLock(paths.lock, lockWaitMs).catch(() => undefined);
  if (lock !== undefined) {
    try {
      const now = await readHead(paths);
      const i = now?.generation === head.generation ? now.runs.findIndex((run) => run.number === older.number) : -1;
      if (now !== undefined && i >= 0 && now.runs[i + 1]?.number === newer.number) {
        await writeFileDurably(paths.snapshot, encodeStateHead({ ...now, runs: now.runs.toSpliced(i, 2, merged) }));
        replaced = true;
      }
    } finally {
      await lock.release();
    }
  }
  const removed = replaced ? [older, newer] : [merged];
  await Promise.all(removed.map((run) => unlink(join(directory, runFile(run.number))).catch(() => undefined)));
  return replaced;
}

/** Items [from, to) of `items`, flat. */
function itemsBetween(items: ItemSeq, from: number, to: number): Uint8Array {
  const first = items.get(from);
  const out = new Uint8Array((to - from) * first.length);
  for (let i = from; i < to; i++) out.set(items.get(i), (i - from) * first.length);
  return out;
}

/** Levels a tree of `size` leaves keeps: one more than the height of its largest perfect subtree. */
function levelCount(size: number): number {
  return size === 0 ? 1 : 32 - Math.clz32(size);
}

async function removeGenerationsBut(paths: HomePaths, generation: string): Promise<void> {
  const root = stateDirectory(paths);
  const names = await readdir(root).catch(() => [] as string[]);
  await Promise.all(names.filter((name) => name !== generation).map((name) => rm(join(root, name), { recursive: true, force: true }).catch(() => undefined)));
}

/** The home's stored state head, if there is a well-formed one (nothing checked against the ledger). */
async function readHead(paths: HomePaths): Promise<StateHead | undefined> {
  const bytes = await readSmall(paths.snapshot).catch(() => undefined);
  const head = bytes === undefined ? undefined : decodeStateHead(bytes);
  return typeof head === "string" ? undefined : head;
}

/** The head file's bytes, or undefined if there is none (or it is too large to be one). */
async function readSmall(path: string): Promise<Buffer | undefined> {
  const handle = await openIfPresent(path);
  if (handle === undefined) return undefined;
  try {
    const { size } = await handle.stat();
    if (size > MAX_HEAD_BYTES) return undefined;
    const bytes = Buffer.alloc(size);
    const { bytesRead } = await handle.read(bytes, 0, size, 0);
    return bytes.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
