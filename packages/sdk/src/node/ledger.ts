import { open, writeFile, type FileHandle } from "node:fs/promises";
import { dirname } from "node:path";
import { bytesToHex, hexToBytes } from "../core/encoding.js";
import { TemporalError, TemporalRangeError, describeValue } from "../core/errors.js";
import { HashList } from "../core/hash-list.js";
import { MerkleTree, leafHash } from "../core/merkle.js";
import { receiptHash } from "../core/receipt.js";
import { GENESIS_HEAD_HASH, HEAD_VERSION, headHash } from "../core/signed-head.js";
import { signingPayload } from "../core/signed-record.js";
import type { AnchorPage, ConsistencyProof, TileStatus } from "../core/service-types.js";
import type { AnchorProof, AnchorSummary, Receipt, SignedHead } from "../core/types.js";
import { LedgerCorruptError, type LedgerCorruptionReason } from "./errors.js";
import { encodeRecordBody, parseRecordBody, type StoredAnchor } from "./record-body.js";
import { frameRecord } from "./record-frame.js";
import { readRecords, type FramedRecord } from "./record-reader.js";
import type { SigningKey } from "./signing-key.js";
import { syncDirectory } from "./sync-directory.js";

/** Most anchors one group commit may carry, bounding record size and latency. */
const MAX_BATCH = 1024;
/** Head signatures checked at once while opening, bounding the memory they hold. */
const SIGNATURE_BATCH = 1024;

interface Tile {
  readonly id: number;
  /** Holds committed leaves plus those of the record being written. */
  readonly tree: MerkleTree;
  /** Committed leaves only, like everything below. */
  readonly receiptHashes: string[];
  readonly anchoredAt: number[];
  head: SignedHead | undefined;
}

interface PendingAnchor {
  readonly receipt: Receipt;
  readonly hash: string;
  resolve(proof: AnchorProof): void;
  reject(error: unknown): void;
}

interface NewLeaf {
  readonly tile: Tile;
  readonly receipt: Receipt;
  readonly hash: string;
  readonly leafIndex: number;
  readonly waiters: PendingAnchor[];
}

export interface TornTailRecovery {
  /** File length after truncation: every byte before it was verified. */
  readonly offset: number;
  readonly bytes: number;
  /** Where the removed bytes were preserved for inspection. */
  readonly saved_to: string;
}

export interface LedgerStatus {
  readonly path: string;
  readonly records: number;
  readonly tiles: number;
  readonly anchors: number;
  readonly last_head: SignedHead | undefined;
  readonly recovered: TornTailRecovery | undefined;
}

/**
 * The clockchain: one RFC 9162 Merkle tree per tile, all kept in one
 * append-only file of checksummed records, with every signed head linked to
 * the head signed before it.
 */
export class Ledger {
  readonly #path: string;
  readonly #handle: FileHandle;
  readonly #key: SigningKey;
  readonly #clock: () => number;
  readonly #tiles = new Map<number, Tile>();
  readonly #index = new Map<string, { tile: Tile; leafIndex: number }>();
  #records = 0;
  /** File length up to the end of the last durable record: where a failed append is cut back to. */
  #length = 0;
  #lastHead: SignedHead | undefined;
  #lastHeadHash = GENESIS_HEAD_HASH;
  /** `headHash` of every head held, by sequence, as 32 bytes each: what `headHashAt` answers from. */
  readonly #headHashes = new HashList();
  /** False if a head was ever published out of sequence or not linked to the one before (see `chainValid`). */
  #chainIntact = true;
  #recovered: TornTailRecovery | undefined;
  /** Head signatures from opening, not yet awaited. */
  #signatureChecks: { offset: number; head: SignedHead; valid: Promise<boolean> }[] = [];
  #queue: PendingAnchor[] = [];
  #draining: Promise<void> | undefined;
  #closing: Promise<void> | undefined;
  #failure: TemporalError | undefined;

  private constructor(path: string, handle: FileHandle, key: SigningKey, clock: () => number) {
    this.#path = path;
    this.#handle = handle;
    this.#key = key;
    this.#clock = clock;
  }

  /**
   * Opens (creating if needed) and fully verifies the ledger at `path`. Only
   * a torn final record is removed, and only after everything before it
   * verified; any other damage throws `LedgerCorruptError` and leaves the
   * file as it is.
   */
  static async open(path: string, key: SigningKey, clock: () => number): Promise<Ledger> {
    const handle = await open(path, "a+", 0o600);
    try {
      const { size } = await handle.stat();
      // No anchor can have been acknowledged from an empty ledger, so syncing its directory entry now covers
      // every later one, even if an earlier run created the file and crashed before syncing it.
      if (size === 0) await syncDirectory(dirname(path));
      const ledger = new Ledger(path, handle, key, clock);
      const scan = await readRecords(handle, size, (record) => ledger.#replay(record));
      await ledger.#checkSignatures();
      if (scan.validLength < size) {
        if (scan.tornTail === undefined) {
          throw new LedgerCorruptError("RECORD_CHECKSUM", path, scan.validLength, "a damaged record that cannot be a torn final write: it is not the last record in the file");
        }
        await ledger.#truncateTornTail(scan.validLength, scan.tornTail);
      }
      ledger.#length = scan.validLength;
      return ledger;
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /** Set once an append failed and could not be undone; every anchor is then refused with it. */
  get failure(): TemporalError | undefined {
    return this.#failure;
  }

  /** Resolves once the receipt is durably anchored (written and fsynced). */
  anchor(receipt: Receipt, hash: string): Promise<AnchorProof> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    if (this.#closing !== undefined) return Promise.reject(new TemporalError("AUTHORITY_CLOSED", `ledger ${this.#path} is closed`));
    const known = this.proof(hash);
    if (known !== undefined) return Promise.resolve(known);
    return new Promise((resolve, reject) => {
      this.#queue.push({ receipt, hash, resolve, reject });
      this.#draining ??= this.#drain();
    });
  }

  proof(hash: string): AnchorProof | undefined {
    const entry = this.#index.get(hash);
    return entry === undefined ? undefined : this.#proofFor(entry.tile, entry.leafIndex);
  }

  list(tileId: number): AnchorSummary[] {
    const tile = this.#tiles.get(tileId);
    if (tile === undefined) return [];
    return tile.receiptHashes.map((_, leafIndex) => summary(tile, leafIndex));
  }

  /** Anchors `offset` .. `offset + limit - 1` of a tile (callers validate both); only the page is built. */
  page(tileId: number, offset: number, limit: number): AnchorPage {
    const tile = this.#tiles.get(tileId);
    const total = tile?.receiptHashes.length ?? 0;
    const end = Math.min(total, offset + limit);
    const anchors: AnchorSummary[] = [];
    for (let leafIndex = offset; leafIndex < end; leafIndex++) anchors.push(summary(tile as Tile, leafIndex));
    return { tile_id: tileId, total, offset, anchors, next_offset: end < total ? end : null };
  }

  /**
   * RFC 9162 consistency proof between two sizes of a tile's committed tree,
   * `1 <= first <= second <= size`. Anything else, including a tile with no
   * anchors, is `INVALID_TREE_SIZE`.
   */
  consistencyProof(tileId: number, first: number, second: number): ConsistencyProof {
    const tile = this.#tiles.get(tileId);
    // Committed leaves only: the tree may also hold those of a record still being written.
    const size = tile?.receiptHashes.length ?? 0;
    if (tile === undefined || size === 0) {
      throw new TemporalRangeError("INVALID_TREE_SIZE", `tile ${tileId} has no anchors, so no tree sizes ${describeValue(first)} and ${describeValue(second)}`);
    }
    if (!(Number.isSafeInteger(second) && second >= 1 && second <= size)) {
      throw new TemporalRangeError("INVALID_TREE_SIZE", `second tree size ${describeValue(second)} is not an integer in 1..${size} (the size of tile ${tileId})`);
    }
    if (!(Number.isSafeInteger(first) && first >= 1 && first <= second)) {
      throw new TemporalRangeError("INVALID_TREE_SIZE", `first tree size ${describeValue(first)} is not an integer in 1..${second} (the second size)`);
    }
    return {
      tile_id: tileId,
      first,
      second,
      first_root: bytesToHex(tile.tree.root(first)),
      second_root: bytesToHex(tile.tree.root(second)),
      proof: tile.tree.consistencyProof(first, second).map(bytesToHex),
    };
  }

  /** Every tile with a signed head, by tile id, with its latest signed size and root. */
  tiles(): TileStatus[] {
    const tiles: TileStatus[] = [];
    for (const { id, head } of this.#tiles.values()) if (head !== undefined) tiles.push({ tile_id: id, tree_size: head.tree_size, root_hash: head.root_hash });
    return tiles.sort((a, b) => a.tile_id - b.tile_id);
  }

  /** `headHash` of the head held at `sequence`, or undefined when there is none. */
  headHashAt(sequence: number): string | undefined {
    return Number.isSafeInteger(sequence) && sequence >= 0 && sequence < this.#headHashes.length ? bytesToHex(this.#headHashes.get(sequence)) : undefined;
  }

  /**
   * True while every head held links, by sequence and `prev_head_hash`, to
   * the one before it back to genesis, and no append has failed beyond
   * repair. Opening verified every record and head signature (it throws
   * otherwise); heads added since were signed here and are checked for the
   * link as they are published. It says nothing about changes made to the
   * file by others after opening, nor about records cut off its end before
   * it was opened.
   */
  get chainValid(): boolean {
    return this.#chainIntact && this.#failure === undefined;
  }

  status(): LedgerStatus {
    return {
      path: this.#path,
      records: this.#records,
      tiles: [...this.#tiles.values()].filter((tile) => tile.head !== undefined).length,
      anchors: this.#index.size,
      last_head: this.#lastHead,
      recovered: this.#recovered,
    };
  }

  /** Refuses new anchors, waits for pending ones, then closes the file. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      await this.#draining;
      await this.#handle.close();
    })();
    return this.#closing;
  }

  async #drain(): Promise<void> {
    // One turn of the event loop lets a burst of callers share the first record.
    await new Promise<void>((resolve) => setImmediate(resolve));
    try {
      while (this.#queue.length > 0) await this.#commit(this.#queue.splice(0, MAX_BATCH));
    } finally {
      this.#draining = undefined;
    }
  }

  /** Group commit: every pending anchor goes into one record, one write and one fsync. */
  async #commit(batch: PendingAnchor[]): Promise<void> {
    const leaves = this.#stage(batch);
    if (leaves.length === 0) return;
    let heads: SignedHead[];
    let hashes: string[];
    let record: Buffer;
    try {
      ({ heads, hashes } = await this.#signHeads(leaves));
      const anchors = leaves.map((leaf) => ({ tile_id: leaf.tile.id, leaf_index: leaf.leafIndex, receipt: leaf.receipt }));
      record = frameRecord(encodeRecordBody({ anchors, heads }));
    } catch (error) {
      // A clock reading that cannot be signed (INVALID_TIME), or a failed signature: nothing was written, so only this batch fails.
      this.#reject(leaves, error);
      return;
    }
    try {
      await this.#write(record);
    } catch (error) {
      await this.#undoAppend(leaves, error);
      return;
    }
    this.#length += record.length;
    this.#publish(leaves, heads, hashes);
    for (const leaf of leaves) {
      const proof = this.#proofFor(leaf.tile, leaf.leafIndex);
      for (const waiter of leaf.waiters) waiter.resolve(proof);
    }
  }

  /** Adds the batch's new leaves to the trees; duplicates join an existing anchor instead. */
  #stage(batch: PendingAnchor[]): NewLeaf[] {
    const leaves = new Map<string, NewLeaf>();
    for (const pending of batch) {
      const known = this.proof(pending.hash);
      if (known !== undefined) {
        pending.resolve(known);
        continue;
      }
      const staged = leaves.get(pending.hash);
      if (staged !== undefined) {
        staged.waiters.push(pending);
        continue;
      }
      const tile = this.#tile(pending.receipt.tile_id);
      const leafIndex = tile.tree.append(leafHash(hexToBytes(pending.hash)));
      leaves.set(pending.hash, { tile, receipt: pending.receipt, hash: pending.hash, leafIndex, waiters: [pending] });
    }
    return [...leaves.values()];
  }

  /** Takes a batch's leaves back out of the trees and rejects its callers. */
  #reject(leaves: readonly NewLeaf[], error: unknown): void {
    for (const tile of new Set(leaves.map((leaf) => leaf.tile))) tile.tree.truncate(tile.receiptHashes.length);
    for (const leaf of leaves) for (const waiter of leaf.waiters) waiter.reject(error);
  }

  /**
   * A write or fsync failed, so the file may hold some or all of a batch
   * whose callers are told it failed; reopening must not show it anchored.
   * Cuts the file back to its last durable record. If even that fails, the
   * file's contents are unknown and the ledger refuses all further anchors.
   */
  async #undoAppend(leaves: readonly NewLeaf[], error: unknown): Promise<void> {
    try {
      await this.#handle.truncate(this.#length);
      await this.#handle.datasync();
    } catch (undoError) {
      this.#failure = new TemporalError(
        "LEDGER_IO_FAILED",
        `appending to ledger ${this.#path} failed, and so did cutting the failed batch off again (${String(undoError)}); the ledger accepts no more anchors: restart the process once the storage is healthy (opening the ledger re-verifies it)`,
        { cause: error },
      );
      this.#reject(leaves, this.#failure);
      for (const waiter of this.#queue.splice(0)) waiter.reject(this.#failure);
      return;
    }
    this.#reject(leaves, new TemporalError("LEDGER_IO_FAILED", `appending to ledger ${this.#path} failed; these anchors were not recorded and the file was cut back to its last durable record`, { cause: error }));
  }

  /** One new head per tile the leaves touch, chained from the last head, with their `headHash`es. */
  async #signHeads(leaves: NewLeaf[]): Promise<{ heads: SignedHead[]; hashes: string[] }> {
    const issuedUnixMs = this.#clock();
    const heads: SignedHead[] = [];
    const hashes: string[] = [];
    let prevHeadHash = this.#lastHeadHash;
    let sequence = this.#lastHead === undefined ? 0 : this.#lastHead.sequence + 1;
    for (const tile of new Set(leaves.map((leaf) => leaf.tile))) {
      const unsigned = {
        head_version: HEAD_VERSION,
        tile_id: tile.id,
        tree_size: tile.tree.size,
        root_hash: bytesToHex(tile.tree.root()),
        prev_head_hash: prevHeadHash,
        sequence: sequence++,
        issued_unix_ms: issuedUnixMs,
        key_id: this.#key.verifying.key_id,
      } as const;
      const head: SignedHead = { ...unsigned, signature: await this.#key.sign(signingPayload(unsigned)) };
      heads.push(head);
      prevHeadHash = headHash(head);
      hashes.push(prevHeadHash);
    }
    return { heads, hashes };
  }

  async #write(record: Buffer): Promise<void> {
    for (let written = 0; written < record.length; ) {
      written += (await this.#handle.write(record, written)).bytesWritten;
    }
    await this.#handle.datasync();
  }

  /** Makes a durable (or verified) record visible to readers; `hashes` are the heads' `headHash`es. */
  #publish(leaves: readonly { tile: Tile; hash: string; leafIndex: number }[], heads: readonly SignedHead[], hashes: readonly string[]): void {
    const anchoredAt = new Map(heads.map((head) => [head.tile_id, head.issued_unix_ms]));
    for (const { tile, hash, leafIndex } of leaves) {
      tile.receiptHashes.push(hash);
      tile.anchoredAt.push(anchoredAt.get(tile.id) as number);
      this.#index.set(hash, { tile, leafIndex });
    }
    heads.forEach((head, i) => {
      (this.#tiles.get(head.tile_id) as Tile).head = head;
      // Replay checked these links and the writer made them so: checking again costs two comparisons and makes chainValid a statement about the heads actually held.
      if (head.sequence !== this.#headHashes.length || head.prev_head_hash !== this.#lastHeadHash) this.#chainIntact = false;
      this.#lastHead = head;
      this.#lastHeadHash = hashes[i] as string;
      this.#headHashes.push(hexToBytes(this.#lastHeadHash));
    });
    this.#records++;
  }

  #proofFor(tile: Tile, leafIndex: number): AnchorProof {
    const head = tile.head as SignedHead;
    return {
      receipt_hash: tile.receiptHashes[leafIndex] as string,
      tile_id: tile.id,
      leaf_index: leafIndex,
      tree_size: head.tree_size,
      root_hash: head.root_hash,
      inclusion_proof: tile.tree.inclusionProof(leafIndex, head.tree_size).map(bytesToHex),
      signed_head: head,
    };
  }

  #tile(id: number): Tile {
    let tile = this.#tiles.get(id);
    if (tile === undefined) {
      tile = { id, tree: new MerkleTree(), receiptHashes: [], anchoredAt: [], head: undefined };
      this.#tiles.set(id, tile);
    }
    return tile;
  }

  /** Replays one record: rebuilds the trees, checking leaf order, roots and the head chain, and queues its head signatures for checking. */
  async #replay({ offset, body }: FramedRecord): Promise<void> {
    const corrupt = (reason: LedgerCorruptionReason, detail: string): LedgerCorruptError => new LedgerCorruptError(reason, this.#path, offset, detail);
    const parsed = parseRecordBody(body);
    if (parsed === undefined) throw corrupt("RECORD_FORMAT", "the record is not a well-formed anchors/heads object");
    if (parsed.anchors.length === 0) throw corrupt("RECORD_FORMAT", "the record anchors nothing, which the writer never commits");
    const leaves = this.#replayAnchors(parsed.anchors, corrupt);
    const hashes = this.#checkHeads(parsed.heads, leaves, corrupt);
    for (const head of parsed.heads) {
      // Checked concurrently on the thread pool; the checks never reject, so an early throw leaves nothing unhandled.
      const valid = this.#key.verifying.verify(head.signature, signingPayload(head)).catch(() => false);
      this.#signatureChecks.push({ offset, head, valid });
    }
    this.#publish(leaves, parsed.heads, hashes);
    if (this.#signatureChecks.length >= SIGNATURE_BATCH) await this.#checkSignatures();
  }

  async #checkSignatures(): Promise<void> {
    const checks = this.#signatureChecks.splice(0);
    const results = await Promise.all(checks.map((check) => check.valid));
    const bad = checks[results.indexOf(false)];
    if (bad !== undefined) {
      throw new LedgerCorruptError("HEAD_SIGNATURE", this.#path, bad.offset, `the signature of head ${bad.head.sequence} (tile ${bad.head.tile_id}) does not verify`);
    }
  }

  #replayAnchors(anchors: readonly StoredAnchor[], corrupt: (reason: LedgerCorruptionReason, detail: string) => Error): NewLeaf[] {
    const seen = new Set<string>();
    return anchors.map(({ tile_id, leaf_index, receipt }) => {
      let hash: string;
      try {
        hash = receiptHash(receipt);
      } catch {
        throw corrupt("RECORD_FORMAT", `the receipt at leaf ${leaf_index} of tile ${tile_id} is not canonical JSON data`);
      }
      if (this.#index.has(hash) || seen.has(hash)) throw corrupt("DUPLICATE_RECEIPT", `receipt ${hash} is anchored twice`);
      seen.add(hash);
      const tile = this.#tile(tile_id);
      if (leaf_index !== tile.tree.size) throw corrupt("LEAF_ORDER", `tile ${tile_id} expects leaf ${tile.tree.size}, the record has leaf ${leaf_index}`);
      tile.tree.append(leafHash(hexToBytes(hash)));
      return { tile, receipt, hash, leafIndex: leaf_index, waiters: [] };
    });
  }

  /** Checks a record's heads against the rebuilt trees and the chain; returns their `headHash`es. */
  #checkHeads(heads: readonly SignedHead[], leaves: NewLeaf[], corrupt: (reason: LedgerCorruptionReason, detail: string) => Error): string[] {
    const touched = new Set(leaves.map((leaf) => leaf.tile.id));
    if (heads.length !== touched.size || !heads.every((head) => touched.delete(head.tile_id))) {
      throw corrupt("RECORD_FORMAT", "the record does not carry exactly one head per tile it anchors into");
    }
    let prevHeadHash = this.#lastHeadHash;
    let sequence = this.#lastHead === undefined ? 0 : this.#lastHead.sequence + 1;
    const hashes: string[] = [];
    for (const head of heads) {
      if (head.key_id !== this.#key.verifying.key_id) throw corrupt("UNKNOWN_KEY", `head ${head.sequence} is signed by key ${head.key_id}, not ${this.#key.verifying.key_id}`);
      if (head.prev_head_hash !== prevHeadHash || head.sequence !== sequence) {
        throw corrupt("CHAIN_BROKEN", `head ${head.sequence} (tile ${head.tile_id}) does not link to the head before it`);
      }
      const tree = (this.#tiles.get(head.tile_id) as Tile).tree;
      if (head.tree_size !== tree.size || head.root_hash !== bytesToHex(tree.root())) {
        throw corrupt("ROOT_MISMATCH", `head ${head.sequence} states tile ${head.tile_id} has ${head.tree_size} leaves with root ${head.root_hash}, the records give ${tree.size} leaves with root ${bytesToHex(tree.root())}`);
      }
      prevHeadHash = headHash(head);
      hashes.push(prevHeadHash);
      sequence++;
    }
    return hashes;
  }

  /** Keeps the removed bytes beside the ledger, then cuts the file back to its last whole record. */
  async #truncateTornTail(validLength: number, tail: Buffer): Promise<void> {
    const savedTo = `${this.#path}.torn-${validLength}-${Date.now()}`;
    await writeFile(savedTo, tail, { mode: 0o600, flush: true });
    await syncDirectory(dirname(this.#path));
    await this.#handle.truncate(validLength);
    await this.#handle.datasync();
    this.#recovered = { offset: validLength, bytes: tail.length, saved_to: savedTo };
  }
}

function summary(tile: Tile, leafIndex: number): AnchorSummary {
  return {
    tile_id: tile.id,
    leaf_index: leafIndex,
    receipt_hash: tile.receiptHashes[leafIndex] as string,
    anchored_unix_ms: tile.anchoredAt[leafIndex] as number,
  };
}
