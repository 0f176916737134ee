import { constants } from "node:fs";
import { access, lstat, open, writeFile, type FileHandle } from "node:fs/promises";
import { dirname } from "node:path";
import { ClockchainState, type PendingSignature, type StagedLeaf } from "../authority/clockchain-state.js";
import { DerivedStateDamaged } from "../authority/derived-state-damaged.js";
import { LogKeys } from "../authority/log-keys.js";
import type { HeadSigning, LogEntry, LogRecovery, LogStatus, LogStore } from "../authority/seams.js";
import { onceUnlessRejected } from "../authority/once-unless-rejected.js";
import { SerialQueue } from "../authority/serial-queue.js";
import { TemporalError, TemporalRangeError, describeValue } from "../core/errors.js";
import type { AnchorPage, ConsistencyProof } from "../core/service-types.js";
import type { AnchorProof, AnchorSummary, SignedCheckpoint } from "../core/types.js";
import type { VerifyingKey } from "../core/verifying-key.js";
import { LedgerCorruptError, isErrno, type LedgerCorruptionReason } from "./errors.js";
import { ensureHome, type HomePaths } from "./home.js";
import { migrateOnOpen } from "./ledger-migration.js";
import { acquireHomeLock } from "./home-lock.js";
import type { HomeLock } from "./lock.js";
import { encodeRecordBody, parseRecordBody } from "./record-body.js";
import { HEADER_BYTES, frameRecord, recordHeader } from "./record-frame.js";
import { readRecords, type FramedRecord } from "./record-reader.js";
import { BlockCache } from "./checked-item-file.js";
import { mergeRunsAside, restoreSnapshot, saveSnapshot, type RestoredState } from "./snapshot-store.js";
import { syncDirectory } from "./sync-directory.js";

/** Head signatures checked at once while reading, bounding the memory they hold. */
const SIGNATURE_BATCH = 1024;
/** A snapshot is saved after an append once this many records (by default), or this much time, passed since the last... */
const SNAPSHOT_EVERY_RECORDS = 1024;
const SNAPSHOT_EVERY_MS = 10_000;
/** ...and at least this many times as long as saving the last one took, so saving costs appenders a bounded share of their time. */
const SNAPSHOT_COST_FACTOR = 10;
/** How long saving a snapshot waits for the lock: a reader's close, or the ops queued after an append, should not hang behind a long append. */
const CLOSING_SNAPSHOT_LOCK_WAIT_MS = 1000;
/** Blocks of the stored state (4 KiB each) a store keeps in memory: what bounds its memory, whatever the history. */
const CACHED_BLOCKS = 2048;

/** A torn tail removed by this store; `saved_to` keeps its bytes. */
export type TornTailRecovery = LogRecovery;

export interface LedgerStatus {
  readonly path: string;
  readonly records: number;
  readonly tiles: number;
  readonly anchors: number;
  readonly last_checkpoint: SignedCheckpoint | undefined;
  readonly recovered: TornTailRecovery | undefined;
}

export interface FileLogStoreOptions {
  /** How long an append waits for the home's lock, ms (the lock's default when undefined). */
  readonly lockWaitMs?: number;
  /**
   * Records appended or read since the last snapshot after which an append
   * saves a new one (default 1024; see docs/sdk.md, "Opening from the
   * stored state"): fewer means less to replay after a crash, more saves.
   */
  readonly snapshotEveryRecords?: number;
  /** The authority name of the checkpoints a format-1 ledger is migrated to (see `MigrateOptions.authorityName`). */
  readonly authorityName?: string;
}

/**
 * The clockchain as one append-only file of checksummed records in a home
 * (`clockchain.log`), shared by every process and authority using that
 * home. The home's lock is held only while appending: under it the store
 * first reads and verifies what others appended since its last read, then
 * writes and fsyncs its own record. Reads catch up without the lock.
 */
export class FileLogStore implements LogStore {
  readonly kind = "file";
  readonly path: string;
  readonly #paths: HomePaths;
  readonly #lockWaitMs: number | undefined;
  readonly #authorityName: string | undefined;
  readonly #snapshotEveryRecords: number;
  /** Opening, catching up and appending, one at a time: each reads and extends the state. */
  readonly #ops = new SerialQueue();
  #handle: FileHandle | undefined;
  #keys: LogKeys | undefined;
  #state = new ClockchainState();
  /** File length up to the end of the last record read and verified: where catching up resumes and a failed append is cut back to. */
  #length = 0;
  #recovered: TornTailRecovery | undefined;
  /**
   * Where the last record read or written starts, and its header (length and
   * checksum): checked before reading on, so that a record replaced at the
   * same length (cut off by its writer after this store read it, then
   * another written in its place) is noticed.
   */
  #lastRecord: { offset: number; header: Buffer } | undefined;
  /** Head signatures read but not yet awaited. */
  #signatureChecks: { offset: number; check: PendingSignature }[] = [];
  /** The stored state the state was last started from, rather than from the start of the file; its files stay open while the state reads them. */
  #restored: RestoredState | undefined;
  /** Set when stored state failed a check after it was opened: the state is rebuilt from the records, and the stored state ignored until this store saves its own. */
  #ignoreStored = false;
  readonly #cache = new BlockCache(CACHED_BLOCKS);
  /** Index runs being merged aside after a save, outside the ops queue and the lock (see `mergeRunsAside`); closing waits for it. */
  #merging: Promise<void> | undefined;
  /** The records the last snapshot saved or restored covers, when, and how long saving it took. */
  #snapshot = { records: 0, atMs: Date.now(), tookMs: 0 };
  #closing: Promise<void> | undefined;
  #failure: TemporalError | undefined;

  constructor(paths: HomePaths, options: FileLogStoreOptions = {}) {
    this.#paths = paths;
    this.path = paths.ledger;
    this.#lockWaitMs = options.lockWaitMs;
    this.#authorityName = options.authorityName;
    const every = options.snapshotEveryRecords ?? SNAPSHOT_EVERY_RECORDS;
    if (!(Number.isSafeInteger(every) && every >= 1)) throw new TemporalRangeError("INVALID_ARGUMENT", `snapshotEveryRecords must be a positive integer, got ${describeValue(every)}`);
    this.#snapshotEveryRecords = every;
  }

  get failure(): TemporalError | undefined {
    return this.#failure;
  }

  /**
   * Opens (creating if needed) and fully verifies the ledger. Only a torn
   * final record is removed, and only under the home's lock after
   * everything before it verified; any other damage throws
   * `LedgerCorruptError` and leaves the file as it is. Every checkpoint must
   * be signed by `key` or one of `previousKeys` (`LOG_KEY_UNKNOWN`).
   */
  open(key: VerifyingKey, previousKeys: readonly VerifyingKey[] = []): Promise<void> {
    this.#keys ??= new LogKeys(key, previousKeys);
    return this.#open();
  }

  readonly #open = onceUnlessRejected(() =>
    this.#ops.run(async () => {
      this.#assertOpen();
      if (this.#handle === undefined) await migrateOnOpen(this.#paths, (this.#keys as LogKeys).current, { lockWaitMs: this.#lockWaitMs, authorityName: this.#authorityName });
      this.#handle ??= await this.#openFile();
      await this.#catchUp();
      if ((await this.#fileSize()) > this.#length) await this.#locked(() => this.#catchUp(true));
    }),
  );

  /** Resolves once the receipts are durably anchored (written and fsynced), here or by another writer. */
  append(entries: readonly LogEntry[], signing: HeadSigning): Promise<AnchorProof[]> {
    return this.#ops.run(async () => {
      this.#assertOpen();
      if (this.#failure !== undefined) throw this.#failure;
      const proofs = await this.#rebuildingIfDamaged(async () => {
        // Anchored already, as far as this store has read: no lock, no write. Under the lock it reads what others added.
        if (entries.every((entry) => this.#state.proof(entry.hash) !== undefined)) return this.#proofsOf(entries);
        return this.#locked(async (lock) => {
          await this.#catchUp(true);
          await this.#commit(this.#state.stage(entries), signing, lock);
          return this.#proofsOf(entries);
        });
      });
      // Queued behind this append, not awaited by its caller: the proofs hold without the snapshot (derived data).
      if (this.#snapshotDue()) void this.#ops.run(() => this.#saveSnapshotLocked());
      return proofs;
    });
  }

  proof(receiptHash: string): Promise<AnchorProof | undefined> {
    return this.#read(() => this.#state.proof(receiptHash));
  }

  list(tileId: number): Promise<AnchorSummary[]> {
    return this.#read(() => this.#state.list(tileId));
  }

  page(tileId: number, offset: number, limit: number): Promise<AnchorPage> {
    return this.#read(() => this.#state.page(tileId, offset, limit));
  }

  consistencyProof(tileId: number, first: number, second: number): Promise<ConsistencyProof> {
    return this.#read(() => this.#state.consistencyProof(tileId, first, second));
  }

  headHashAt(sequence: number): Promise<string | undefined> {
    return this.#read(() => this.#state.headHashAt(sequence));
  }

  /**
   * `chain_valid` is true when every record read verified completely
   * (checksum, leaf order, roots, head links and signatures: the store
   * refuses to serve otherwise), every head added since links to the one
   * before it, and no failed append has left the file in an unknown state.
   * Whole records cut off the end of the file cannot show (compare
   * `last_checkpoint` with one kept elsewhere).
   */
  status(): Promise<LogStatus> {
    return this.#read(() => {
      const state = this.#state;
      return {
        records: state.records,
        tiles: state.tiles(),
        anchors: state.anchors,
        last_checkpoint: state.lastCheckpoint,
        chain_valid: state.chainIntact && this.#failure === undefined,
        recovered: this.#recovered,
      };
    });
  }

  /** The status with the file's path and the number of tiles, as `LocalAuthority.status()` gives it. */
  async ledgerStatus(): Promise<LedgerStatus> {
    const { records, tiles, anchors, last_checkpoint, recovered } = await this.status();
    return { path: this.path, records, tiles: tiles.length, anchors, last_checkpoint, recovered };
  }

  /** Refuses new calls, waits for those in progress, saves a snapshot of what it read since the last, then closes the file. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      await this.#ops.idle();
      await this.#saveSnapshotLocked();
      await this.#merging;
      await this.#handle?.close();
      this.#restored?.files.close();
    })();
    return this.#closing;
  }

  #read<T>(answer: () => T): Promise<T> {
    return this.#ops.run(async () => {
      this.#assertOpen();
      return this.#rebuildingIfDamaged(async () => {
        await this.#catchUp();
        return answer();
      });
    });
  }

  /**
   * Runs `use`; if stored state it read failed a check (`DerivedStateDamaged`),
   * forgets the state, rebuilds it from the records alone and runs `use`
   * again. Nothing is ever answered from stored state that did not check.
   */
  async #rebuildingIfDamaged<T>(use: () => Promise<T>): Promise<T> {
    try {
      return await use();
    } catch (error) {
      if (!(error instanceof DerivedStateDamaged)) throw error;
      this.#forgetStored();
      return use();
    }
  }

  #proofsOf(entries: readonly LogEntry[]): AnchorProof[] {
    return entries.map((entry) => this.#state.proof(entry.hash) as AnchorProof);
  }

  async #locked<T>(use: (lock: HomeLock) => Promise<T>, waitMs = this.#lockWaitMs): Promise<T> {
    const lock = await acquireHomeLock(this.#paths.lock, waitMs);
    try {
      return await use(lock);
    } finally {
      await lock.release();
    }
  }

  /**
   * Opens the ledger for reading and appending, refusing one that is not
   * this home's own file: a symbolic link, or a file with other hard links,
   * could be another home's ledger, whose writers take that home's lock,
   * not this one's, and would interleave their records with ours.
   */
  async #openFile(): Promise<FileHandle> {
    await ensureHome(this.#paths);
    const path = this.path;
    if (constants.O_NOFOLLOW === undefined && (await isSymlink(path))) throw linkedLedger(path, "is a symbolic link");
    let handle: FileHandle;
    try {
      handle = await open(path, constants.O_RDWR | constants.O_CREAT | constants.O_APPEND | (constants.O_NOFOLLOW ?? 0), 0o600);
    } catch (error) {
      if (isErrno(error, "ELOOP")) throw linkedLedger(path, "is a symbolic link");
      if (isErrno(error, "EACCES", "EPERM", "EROFS")) throw homeNotWritable(this.#paths.home, error);
      throw error;
    }
    try {
      const { nlink, size } = await handle.stat();
      if (nlink > 1) throw linkedLedger(path, `has ${nlink} hard links`);
      await access(this.#paths.home, constants.W_OK).catch((error: unknown) => {
        throw homeNotWritable(this.#paths.home, error);
      });
      // No anchor can have been acknowledged from an empty ledger, so syncing its directory entry now covers
      // every later one, even if an earlier run created the file and crashed before syncing it.
      if (size === 0) await syncDirectory(dirname(path));
      return handle;
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  async #fileSize(): Promise<number> {
    return (await (this.#handle as FileHandle).stat()).size;
  }

  /**
   * Reads and verifies the records appended since the last read. Without
   * the lock (`locked` false), bytes after the last whole record may be an
   * append in progress and are left for later. Under the lock nobody else
   * is writing, so they are a torn tail to remove, or damage to report.
   * Anything unexpected after an earlier read (the file shorter than read,
   * a record that does not verify) may be another writer having cut back
   * a failed append that was read before it was undone: the state is then
   * rebuilt from the start of the file, whose verdict stands.
   */
  async #catchUp(locked = false): Promise<void> {
    const from = this.#length;
    try {
      await this.#readOn(locked, from === 0);
    } catch (error) {
      // Stored state is never the last word: what went wrong after it is judged again from the start of the file.
      const restored = this.#restored !== undefined;
      this.#reset();
      if (error instanceof DerivedStateDamaged) this.#forgetStored();
      else if ((from === 0 && !restored) || !mayBeUndoneAppend(error)) throw error;
      try {
        await this.#readOn(locked, false);
      } catch (again) {
        this.#reset();
        throw again;
      }
    }
  }

  async #readOn(locked: boolean, fromSnapshot: boolean): Promise<void> {
    const size = await this.#fileSize();
    if (fromSnapshot && this.#length === 0 && size > 0) await this.#restore(size);
    if (size < this.#length) throw new TemporalError("LEDGER_IO_FAILED", `ledger ${this.path} is ${size} bytes, shorter than the ${this.#length} already read`);
    await this.#checkLastRecord();
    if (size === this.#length) return;
    const scan = await readRecords(this.#handle as FileHandle, size, (record) => this.#replay(record), undefined, this.#length);
    await this.#checkSignatures();
    this.#length = scan.validLength;
    if (scan.validLength === size || !locked) return;
    if (scan.tornTail === undefined) {
      throw new LedgerCorruptError("RECORD_CHECKSUM", this.path, scan.validLength, "a damaged record that cannot be a torn final write: it is not the last record in the file");
    }
    await this.#truncateTornTail(scan.validLength, scan.tornTail);
  }

  /** Forgets everything read, so the next read verifies the file from its start. */
  #reset(): void {
    this.#state = new ClockchainState();
    this.#length = 0;
    this.#lastRecord = undefined;
    this.#signatureChecks = [];
    this.#restored?.files.close();
    this.#restored = undefined;
  }

  /** Runs the index merges the last save left for later, one after another, unless they are running already. */
  #mergeAside(): void {
    const lockWaitMs = Math.min(this.#lockWaitMs ?? Infinity, CLOSING_SNAPSHOT_LOCK_WAIT_MS);
    this.#merging ??= (async () => {
      try {
        while (await mergeRunsAside(this.#paths, lockWaitMs));
      } catch {
        // Derived data: a merge that failed leaves more runs to search, nothing wrong.
      } finally {
        this.#merging = undefined;
      }
    })();
  }

  /** Forgets the state and ignores the stored state, which failed a check, until this store has saved its own, rebuilt from the records (due at once). */
  #forgetStored(): void {
    this.#reset();
    this.#ignoreStored = true;
    this.#snapshot = { ...this.#snapshot, records: 0 };
  }

  /** Starts the state from the home's stored state when it verifies against the file and the key (see `restoreSnapshot`). */
  async #restore(size: number): Promise<void> {
    if (this.#ignoreStored) return;
    const restored = await restoreSnapshot(this.#paths, this.#handle as FileHandle, size, this.#keys as LogKeys, this.#cache);
    if (typeof restored !== "string") this.#adopt(restored);
    // Damaged or stale: the next save starts a new generation rather than extend it.
    else if (restored === "unusable") this.#ignoreStored = true;
  }

  #adopt(restored: RestoredState): void {
    this.#restored?.files.close();
    this.#state = restored.state;
    this.#length = restored.cover.ledgerOffset;
    this.#lastRecord = { offset: restored.cover.lastRecordOffset, header: restored.cover.lastRecordHeader };
    this.#restored = restored;
    this.#snapshot = { records: restored.state.records, atMs: Date.now(), tookMs: this.#snapshot.tookMs };
  }

  #snapshotDue(): boolean {
    const added = this.#state.records - this.#snapshot.records;
    const sinceMs = Date.now() - this.#snapshot.atMs;
    if (added === 0 || sinceMs < SNAPSHOT_COST_FACTOR * this.#snapshot.tookMs) return false;
    return added >= this.#snapshotEveryRecords || sinceMs >= SNAPSHOT_EVERY_MS;
  }

  /**
   * Takes the lock (waiting at most `CLOSING_SNAPSHOT_LOCK_WAIT_MS`) and saves the state read so far, a prefix of the file.
   * Derived data: if the lock cannot be had or the save fails, the next opening replays a little more. Never rejects.
   */
  #saveSnapshotLocked(): Promise<void> {
    if (this.#failure !== undefined || this.#state.records === this.#snapshot.records) return Promise.resolve();
    return this.#locked(() => this.#saveSnapshot(), Math.min(this.#lockWaitMs ?? Infinity, CLOSING_SNAPSHOT_LOCK_WAIT_MS)).catch(() => undefined);
  }

  /**
   * Saves what the state read so far adds to the home's stored state (under
   * the lock, so that saves follow the file's order), then reads on from
   * what was saved, so that memory holds only what came after it. Stored
   * state this one cannot extend (covering more, or another generation) is
   * read on from instead, so that memory does not grow while saving is
   * impossible.
   */
  async #saveSnapshot(): Promise<void> {
    const last = this.#lastRecord;
    if (last === undefined) return;
    const startedMs = Date.now();
    const cover = { ledgerOffset: this.#length, lastRecordOffset: last.offset, lastRecordHeader: last.header };
    // Derived data: failing to save it costs only a longer replay at the next opening.
    const outcome = await saveSnapshot(this.#paths, cover, this.#state, this.#restored, this.#ignoreStored).catch(() => "skipped" as const);
    this.#snapshot = { records: this.#state.records, atMs: Date.now(), tookMs: Date.now() - startedMs };
    if (outcome === "saved") this.#mergeAside();
    if (outcome === "skipped" || (outcome === "other" && this.#ignoreStored) || this.#closing !== undefined) return;
    if (outcome === "saved") {
      const restored = await restoreSnapshot(this.#paths, this.#handle as FileHandle, this.#length, this.#keys as LogKeys, this.#cache).catch(() => "unusable" as const);
      if (typeof restored === "string") return;
      if (restored.cover.ledgerOffset !== this.#length) return restored.files.close();
      this.#ignoreStored = false;
      this.#adopt(restored);
      return;
    }
    this.#reset();
    await this.#catchUp();
  }

  async #checkLastRecord(): Promise<void> {
    const last = this.#lastRecord;
    if (last === undefined) return;
    const header = Buffer.alloc(HEADER_BYTES);
    await (this.#handle as FileHandle).read(header, 0, HEADER_BYTES, last.offset);
    if (!header.equals(last.header)) throw new TemporalError("LEDGER_IO_FAILED", `the record at byte ${last.offset} of ledger ${this.path} changed after it was read`);
  }

  /** Stages, signs, writes and fsyncs one record (under `lock`, caught up); nothing is written for no new leaves. */
  async #commit(leaves: StagedLeaf[], signing: HeadSigning, lock: HomeLock): Promise<void> {
    if (leaves.length === 0) return;
    let signed: Awaited<ReturnType<ClockchainState["signHeads"]>>;
    let record: Buffer;
    try {
      signed = await this.#state.signHeads(leaves, signing);
      record = frameRecord(encodeRecordBody(ClockchainState.recordOf(leaves, signed.heads)));
      // Signing takes a while; a holder stalled past the lock's staleness may have lost it, and must not write then.
      await lock.assertHeld();
    } catch (error) {
      // A clock reading that cannot be signed (INVALID_TIME), a failed signature or a lost lock: nothing was written, so only this batch fails.
      this.#state.unstage(leaves);
      throw error;
    }
    try {
      await this.#write(record);
    } catch (error) {
      this.#state.unstage(leaves);
      throw await this.#undoAppend(error);
    }
    this.#lastRecord = { offset: this.#length, header: Buffer.from(record.subarray(0, HEADER_BYTES)) };
    this.#length += record.length;
    this.#state.publish(leaves, signed);
  }

  async #write(record: Buffer): Promise<void> {
    const handle = this.#handle as FileHandle;
    for (let written = 0; written < record.length;) {
      written += (await handle.write(record, written)).bytesWritten;
    }
    await handle.datasync();
  }

  /**
   * A write or fsync failed, so the file may hold some or all of a batch
   * whose callers are told it failed; reopening must not show it anchored.
   * Cuts the file back to its last durable record (still under the lock).
   * If even that fails, the file's contents are unknown and the store
   * refuses all further appends. Returns the error to reject the batch with.
   */
  async #undoAppend(error: unknown): Promise<TemporalError> {
    const handle = this.#handle as FileHandle;
    try {
      await handle.truncate(this.#length);
      await handle.datasync();
    } catch (undoError) {
      this.#failure = new TemporalError(
        "LEDGER_IO_FAILED",
        `appending to ledger ${this.path} failed, and so did cutting the failed batch off again (${String(undoError)}); the ledger accepts no more anchors: restart the process once the storage is healthy (opening the ledger re-verifies it)`,
        { cause: error },
      );
      return this.#failure;
    }
    return new TemporalError("LEDGER_IO_FAILED", `appending to ledger ${this.path} failed; these anchors were not recorded and the file was cut back to its last durable record`, {
      cause: error,
    });
  }

  /** Replays one record: rebuilds the trees, checking leaf order, roots and the head chain, and queues its head signatures for checking. */
  async #replay({ offset, body }: FramedRecord): Promise<void> {
    const corrupt = (reason: LedgerCorruptionReason, detail: string): LedgerCorruptError => new LedgerCorruptError(reason, this.path, offset, detail);
    const parsed = parseRecordBody(body);
    if (parsed === undefined) throw corrupt("RECORD_FORMAT", "the record is not a well-formed anchors/checkpoints object");
    let checks: PendingSignature[];
    try {
      checks = this.#state.replay(parsed, this.#keys as LogKeys, corrupt);
    } catch (error) {
      // An earlier record's forged signature is the first problem: it must not hide behind this one (LOG_KEY_UNKNOWN would say the node holds the wrong keys).
      await this.#checkSignatures();
      throw error;
    }
    for (const check of checks) this.#signatureChecks.push({ offset, check });
    this.#lastRecord = { offset, header: recordHeader(body) };
    if (this.#signatureChecks.length >= SIGNATURE_BATCH) await this.#checkSignatures();
  }

  async #checkSignatures(): Promise<void> {
    const checks = this.#signatureChecks.splice(0);
    const results = await Promise.all(checks.map(({ check }) => check.valid));
    const bad = checks[results.indexOf(false)];
    if (bad !== undefined) {
      const { head } = bad.check;
      throw new LedgerCorruptError("HEAD_SIGNATURE", this.path, bad.offset, `the signature of head ${head.sequence} (tile ${head.tile_id}) does not verify`);
    }
  }

  /** Keeps the removed bytes beside the ledger, then cuts the file back to its last whole record. */
  async #truncateTornTail(validLength: number, tail: Buffer): Promise<void> {
    const handle = this.#handle as FileHandle;
    const savedTo = `${this.path}.torn-${validLength}-${Date.now()}`;
    await writeFile(savedTo, tail, { mode: 0o600, flush: true });
    await syncDirectory(dirname(this.path));
    await handle.truncate(validLength);
    await handle.datasync();
    this.#recovered = { offset: validLength, bytes: tail.length, saved_to: savedTo };
  }

  #assertOpen(): void {
    if (this.#closing !== undefined) throw new TemporalError("AUTHORITY_CLOSED", `ledger ${this.path} is closed`);
  }
}

/** The errors reading on can give when a record read earlier was since cut off by its writer (the file shrank or changed under it). */
function mayBeUndoneAppend(error: unknown): boolean {
  return error instanceof LedgerCorruptError || (error instanceof TemporalError && error.code === "LEDGER_IO_FAILED");
}

async function isSymlink(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isSymbolicLink();
  } catch (error) {
    if (isErrno(error, "ENOENT")) return false;
    throw error;
  }
}

function linkedLedger(path: string, what: string): TemporalError {
  return new TemporalError(
    "LEDGER_LINKED",
    `ledger ${path} ${what}: a ledger belongs to one home, whose lock keeps its writers apart, so a ledger shared with another home by a link is refused; use the home it belongs to (--home or TEMPORAL_HOME), or replace the link with a copy to start a separate history`,
  );
}

function homeNotWritable(home: string, cause: unknown): TemporalError {
  const code = (cause as NodeJS.ErrnoException).code ?? String(cause);
  return new TemporalError("HOME_NOT_WRITABLE", `home ${home} cannot be written by this process (${code}); make it writable or choose another home (--home or TEMPORAL_HOME)`, { cause });
}
