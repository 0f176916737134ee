/**
 * Ledger formats and the migration between them. Format 1 (before heads
 * became C2SP checkpoints) stored JSON signed heads under `heads`; format 2
 * stores each head as a signed tile checkpoint note under `checkpoints`.
 * A format-1 ledger is rewritten, under the home's lock, into a verified
 * format-2 copy that replaces it atomically; the old file is kept as a
 * backup beside it and never deleted.
 */

import { constants } from "node:fs";
import { copyFile, open, rename, rm, type FileHandle } from "node:fs/promises";
import { dirname } from "node:path";
import { ClockchainState, type StagedLeaf } from "../authority/clockchain-state.js";
import type { HeadSigning, SigningKey } from "../authority/seams.js";
import { TemporalError } from "../core/errors.js";
import { receiptHash } from "../core/receipt.js";
import { sha256Hex } from "../core/sha256.js";
import { recordHash, signingPayload } from "../core/signed-record.js";
import { assertNoteKeyName } from "../core/note-key.js";
import { defaultAuthorityName } from "../core/tile-origin.js";
import type { VerifyingKey } from "../core/verifying-key.js";
import { LedgerCorruptError, isErrno, type LedgerCorruptionReason } from "./errors.js";
import { acquireHomeLock } from "./home-lock.js";
import { homePaths, type HomePaths } from "./home.js";
import { checkLedgerFile } from "./ledger-check.js";
import { encodeRecordBody, isObjectWithKeys, parseAnchors, parseJson } from "./record-body.js";
import { HEADER_BYTES, MAX_BODY_BYTES, frameRecord, recordAt } from "./record-frame.js";
import { readRecords } from "./record-reader.js";
import { FileSigner } from "./signing-key.js";
import { syncDirectory } from "./sync-directory.js";

/** The format this SDK writes. */
export const LEDGER_FORMAT = 2;

/** 1: JSON signed heads; 2: signed tile checkpoints. */
export type LedgerFormat = 1 | 2;

/** `prev_head_hash` of the first format-1 head. */
const FORMAT_1_GENESIS = "0".repeat(64);
const FORMAT_1_HEAD_KEYS = ["issued_unix_ms", "key_id", "prev_head_hash", "root_hash", "sequence", "signature", "tile_id", "tree_size", "head_version"].sort().join();

interface Format1Head {
  readonly head_version: 1;
  readonly tile_id: number;
  readonly tree_size: number;
  readonly root_hash: string;
  readonly prev_head_hash: string;
  readonly sequence: number;
  readonly issued_unix_ms: number;
  readonly key_id: string;
  readonly signature: string;
}

export interface MigrationResult {
  /** False when the ledger was already in format 2 (or empty, or absent): nothing was changed. */
  readonly migrated: boolean;
  readonly path: string;
  readonly records: number;
  readonly anchors: number;
  /** The format-1 ledger as it was, kept beside the new one. */
  readonly backup: string | undefined;
  /** Bytes after the last whole format-1 record (a torn final write), left out of the new ledger and kept in the backup. */
  readonly dropped_torn_tail: number;
}

export interface MigrateOptions {
  /** How long to wait for the home's lock, ms (the lock's default when undefined). */
  readonly lockWaitMs?: number;
  /**
   * The authority name of the new checkpoints' origins, as the authority
   * using the home is configured (`createLocalAuthority({ authorityName })`,
   * the service's `authority_name`); `temporal-authority/<key id>` when undefined.
   */
  readonly authorityName?: string;
}

/**
 * The format of a ledger file, from its first record; undefined when the
 * file is absent or empty, or its first record is unreadable (opening it
 * reports why).
 */
export async function ledgerFormat(path: string): Promise<LedgerFormat | undefined> {
  const handle = await open(path, "r").catch((error: unknown) => {
    if (isErrno(error, "ENOENT")) return undefined;
    throw error;
  });
  if (handle === undefined) return undefined;
  try {
    const header = Buffer.alloc(HEADER_BYTES);
    const { bytesRead } = await handle.read(header, 0, HEADER_BYTES, 0);
    if (bytesRead < HEADER_BYTES) return undefined;
    const first = Buffer.alloc(HEADER_BYTES + Math.min(header.readUInt32BE(4), MAX_BODY_BYTES));
    await handle.read(first, 0, first.length, 0);
    const record = recordAt(first, 0);
    if (record === undefined || !("body" in record)) return undefined;
    const body = parseJson(record.body);
    if (isObjectWithKeys(body, ["anchors", "heads"])) return 1;
    if (isObjectWithKeys(body, ["anchors", "checkpoints"])) return 2;
    return undefined;
  } finally {
    await handle.close();
  }
}

/**
 * Migrates the home's ledger to format 2 if it is in format 1; idempotent.
 * Under the home's lock: verifies the format-1 ledger completely, writes
 * the same leaves in the same order with new signed checkpoints (same key,
 * same chain order and issued times) to a temporary file, fsyncs it,
 * verifies it completely and checks that every receipt has the same hash,
 * tile and leaf index, copies the old ledger to
 * `clockchain.log.v1-<unix ms>.bak` (fsynced), then renames the new file
 * into place. Another process opening the home meanwhile waits for the
 * lock and then reads the new file; none ever reads a half-written one.
 * Throws `LEDGER_CORRUPT` for a format-1 ledger that does not verify
 * (nothing is changed), `KEY_MISSING`/`KEY_INVALID`, `HOME_LOCKED`, or the
 * I/O error.
 */
export async function migrateLedger(home: string, options: MigrateOptions = {}): Promise<MigrationResult> {
  if (options.authorityName !== undefined) assertNoteKeyName(options.authorityName);
  const paths = homePaths(home);
  const already = (): MigrationResult => ({ migrated: false, path: paths.ledger, records: 0, anchors: 0, backup: undefined, dropped_torn_tail: 0 });
  if ((await ledgerFormat(paths.ledger)) !== 1) return already();
  const key = await new FileSigner(paths, { lockWaitMs: options.lockWaitMs }).load();
  const lock = await acquireHomeLock(paths.lock, options.lockWaitMs);
  try {
    // Another process may have migrated it while this one waited for the lock.
    if ((await ledgerFormat(paths.ledger)) !== 1) return already();
    const temporary = `${paths.ledger}.migrating-${process.pid}-${Date.now()}`;
    try {
      const written = await rewriteFormat1(paths, key, temporary, options.authorityName ?? defaultAuthorityName(key.verifying.jwk));
      const anchors: string[] = [];
      const check = await checkLedgerFile(temporary, key.verifying, { onAnchor: (anchor, hash) => anchors.push(`${hash} ${anchor.tile_id} ${anchor.leaf_index}`) });
      if (check.records !== written.records || sha256Hex(anchors.join("\n")) !== written.anchorsDigest) {
        throw new TemporalError("LEDGER_IO_FAILED", `the migrated copy of ledger ${paths.ledger} does not hold the same receipts at the same leaves; the ledger was left in format 1`);
      }
      const backup = `${paths.ledger}.v1-${Date.now()}.bak`;
      await copyFile(paths.ledger, backup, constants.COPYFILE_EXCL);
      await syncFile(backup);
      await lock.assertHeld();
      await rename(temporary, paths.ledger);
      await syncDirectory(dirname(paths.ledger));
      return { migrated: true, path: paths.ledger, records: written.records, anchors: anchors.length, backup, dropped_torn_tail: written.tornTail };
    } finally {
      await rm(temporary, { force: true });
    }
  } finally {
    await lock.release();
  }
}

/**
 * What opening a home does before reading its ledger: migrates a format-1
 * ledger, or, when that cannot run here (a read-only home, no key, a key
 * other than the one the authority uses), fails with
 * `LEDGER_MIGRATION_REQUIRED`, which names the command that runs it.
 */
export async function migrateOnOpen(paths: HomePaths, key: VerifyingKey, options: MigrateOptions): Promise<void> {
  if ((await ledgerFormat(paths.ledger)) !== 1) return;
  const required = (problem: string, cause?: unknown): TemporalError =>
    new TemporalError(
      "LEDGER_MIGRATION_REQUIRED",
      `ledger ${paths.ledger} is in format 1 (JSON heads) and could not be migrated to format 2 (signed checkpoints) when it was opened: ${problem}; fix that, then run \`temporalc ledger migrate --home ${paths.home}\``,
      cause === undefined ? undefined : { cause },
    );
  try {
    // Migration signs with the home's key file; a ledger kept for another signer cannot be migrated with it.
    const homeKey = (await new FileSigner(paths, { lockWaitMs: options.lockWaitMs }).load()).verifying.key_id;
    if (homeKey !== key.key_id) throw required(`the home's key ${homeKey} is not the key ${key.key_id} this authority signs with`);
    await migrateLedger(paths.home, options);
  } catch (error) {
    if (error instanceof LedgerCorruptError || (error instanceof TemporalError && error.code === "LEDGER_MIGRATION_REQUIRED")) throw error;
    throw required((error as Error).message, error);
  }
}

/** Verifies the format-1 ledger and writes its format-2 rewrite to `temporary` (fsynced). */
async function rewriteFormat1(paths: HomePaths, key: SigningKey, temporary: string, authorityName: string): Promise<{ records: number; anchorsDigest: string; tornTail: number }> {
  const source = await open(paths.ledger, "r");
  const target = await open(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
  try {
    const { size } = await source.stat();
    const state = new ClockchainState();
    const anchors: string[] = [];
    let lastHash = FORMAT_1_GENESIS;
    let records = 0;
    const scan = await readRecords(source, size, async ({ offset, body }) => {
      const corrupt = (reason: LedgerCorruptionReason, detail: string): LedgerCorruptError => new LedgerCorruptError(reason, paths.ledger, offset, `${detail} (format 1)`);
      const value = parseJson(body);
      const stored = isObjectWithKeys(value, ["anchors", "heads"]) ? parseAnchors(value.anchors) : undefined;
      const heads = isObjectWithKeys(value, ["anchors", "heads"]) && Array.isArray(value.heads) && value.heads.every(isFormat1Head) ? value.heads : undefined;
      if (stored === undefined || heads === undefined || stored.length === 0) throw corrupt("RECORD_FORMAT", "the record is not a well-formed anchors/heads object");
      const leaves = stageFormat1(state, stored, corrupt);
      lastHash = await checkFormat1Heads(state, heads, leaves, lastHash, key.verifying, corrupt);
      const signing: HeadSigning = {
        key: key.verifying,
        authority_name: authorityName,
        issuedUnixMs: () => (heads[0] as Format1Head).issued_unix_ms,
        sign: (message) => key.sign(message),
      };
      const signed = await state.signHeads(leaves, signing);
      state.publish(leaves, signed);
      await writeAll(target, frameRecord(encodeRecordBody(ClockchainState.recordOf(leaves, signed.heads))));
      for (const leaf of leaves) anchors.push(`${leaf.hash} ${leaf.tile.id} ${leaf.leafIndex}`);
      records++;
    });
    if (scan.validLength < size && scan.tornTail === undefined) {
      throw new LedgerCorruptError("RECORD_CHECKSUM", paths.ledger, scan.validLength, "a damaged record that cannot be a torn final write: it is not the last record in the file (format 1)");
    }
    await target.datasync();
    return { records, anchorsDigest: sha256Hex(anchors.join("\n")), tornTail: size - scan.validLength };
  } finally {
    await Promise.all([source.close(), target.close()]);
  }
}

/** Adds a format-1 record's anchors to the trees, checking each receipt is new and at the leaf index the record states. */
function stageFormat1(state: ClockchainState, stored: ReturnType<typeof parseAnchors> & object, corrupt: (reason: LedgerCorruptionReason, detail: string) => Error): StagedLeaf[] {
  const entries = stored.map(({ receipt, tile_id, leaf_index }) => {
    try {
      return { receipt, hash: receiptHash(receipt) };
    } catch {
      throw corrupt("RECORD_FORMAT", `the receipt at leaf ${leaf_index} of tile ${tile_id} is not canonical JSON data`);
    }
  });
  const leaves = state.stage(entries);
  if (leaves.length !== stored.length) throw corrupt("DUPLICATE_RECEIPT", "the record anchors a receipt that is anchored already");
  leaves.forEach((leaf, i) => {
    const { tile_id, leaf_index } = stored[i] as (typeof stored)[number];
    if (leaf.tile.id !== tile_id || leaf.leafIndex !== leaf_index) throw corrupt("LEAF_ORDER", `tile ${tile_id} expects leaf ${leaf.leafIndex}, the record has leaf ${leaf_index}`);
  });
  return leaves;
}

/**
 * Checks a format-1 record's heads as format-1 replay did (one per tile, in
 * the order the writer signs them; key, chain link, size, root, signature)
 * and returns the last head's hash.
 */
async function checkFormat1Heads(
  state: ClockchainState,
  heads: readonly Format1Head[],
  leaves: readonly StagedLeaf[],
  prevHash: string,
  key: VerifyingKey,
  corrupt: (reason: LedgerCorruptionReason, detail: string) => Error,
): Promise<string> {
  const tiles = [...new Set(leaves.map((leaf) => leaf.tile))];
  if (heads.length !== tiles.length || heads.some((head, i) => head.tile_id !== tiles[i]?.id)) {
    throw corrupt("RECORD_FORMAT", "the record does not carry exactly one head per tile it anchors into, in anchor order");
  }
  let hash = prevHash;
  let sequence = (state.lastCheckpoint?.sequence ?? -1) + 1;
  for (const [i, head] of heads.entries()) {
    const tile = tiles[i] as StagedLeaf["tile"];
    if (head.key_id !== key.key_id) throw corrupt("UNKNOWN_KEY", `head ${head.sequence} is signed by key ${head.key_id}, not ${key.key_id}`);
    if (head.prev_head_hash !== hash || head.sequence !== sequence) throw corrupt("CHAIN_BROKEN", `head ${head.sequence} (tile ${head.tile_id}) does not link to the head before it`);
    if (head.tree_size !== tile.tree.size || head.root_hash !== Buffer.from(tile.tree.root()).toString("hex")) {
      throw corrupt("ROOT_MISMATCH", `head ${head.sequence} does not state the root of tile ${head.tile_id} the records give`);
    }
    if (head.issued_unix_ms !== (heads[0] as Format1Head).issued_unix_ms) throw corrupt("RECORD_FORMAT", `the heads of the record were not signed with one clock reading`);
    if (!(await key.verify(head.signature, signingPayload(head)))) throw corrupt("HEAD_SIGNATURE", `the signature of head ${head.sequence} (tile ${head.tile_id}) does not verify`);
    hash = recordHash(head);
    sequence++;
  }
  return hash;
}

function isFormat1Head(value: unknown): value is Format1Head {
  if (!isObjectWithKeys(value, null) || Object.keys(value).sort().join() !== FORMAT_1_HEAD_KEYS) return false;
  const { head_version, tile_id, tree_size, root_hash, prev_head_hash, sequence, issued_unix_ms, key_id, signature } = value;
  const hex = (text: unknown, length: number) => typeof text === "string" && text.length === length && /^[0-9a-f]*$/.test(text);
  return (
    head_version === 1 &&
    [tile_id, tree_size, sequence, issued_unix_ms].every(Number.isSafeInteger) &&
    hex(root_hash, 64) &&
    hex(prev_head_hash, 64) &&
    hex(key_id, 16) &&
    hex(signature, 128)
  );
}

async function writeAll(handle: FileHandle, bytes: Buffer): Promise<void> {
  for (let written = 0; written < bytes.length;) written += (await handle.write(bytes, written)).bytesWritten;
}

async function syncFile(path: string): Promise<void> {
  const handle = await open(path, "r");
  try {
    await handle.datasync();
  } finally {
    await handle.close();
  }
}
