import { open, readFile, writeFile, type FileHandle } from "node:fs/promises";
import { dirname } from "node:path";
import { bytesToHex, hexToBytes } from "../core/encoding.js";
import { TemporalError } from "../core/errors.js";
import { MerkleTree, leafHash } from "../core/merkle.js";
import { receiptHash } from "../core/receipt.js";
import { GENESIS_HEAD_HASH, HEAD_VERSION, headHash } from "../core/signed-head.js";
import { signingPayload } from "../core/signed-record.js";
import type { AnchorProof, AnchorSummary, Receipt, SignedHead } from "../core/types.js";
import { LedgerCorruptError, type LedgerCorruptionReason } from "./errors.js";
import { isErrno, syncDirectory } from "./home.js";
import { encodeRecordBody, parseRecordBody, type StoredAnchor } from "./record-body.js";
import { frameRecord, scanRecords, type FramedRecord } from "./record-frame.js";
import type { SigningKey } from "./signing-key.js";

/** Most anchors one group commit may carry, bounding record size and latency. */
const MAX_BATCH = 1024;

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
  #lastHead: SignedHead | undefined;
  #lastHeadHash = GENESIS_HEAD_HASH;
  #recovered: TornTailRecovery | undefined;
  #queue: PendingAnchor[] = [];
  #draining: Promise<void> | undefined;
  #failure: Error | undefined;

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
    const file = await readExisting(path);
    const handle = await open(path, "a", 0o600);
    try {
      if (file === undefined) await syncDirectory(dirname(path));
      const ledger = new Ledger(path, handle, key, clock);
      const content = file ?? Buffer.alloc(0);
      const scan = scanRecords(content);
      if (scan.validLength < content.length && !scan.tornTail) {
        throw new LedgerCorruptError("RECORD_CHECKSUM", path, scan.validLength, "a damaged record is followed by intact records");
      }
      await ledger.#replay(scan.records);
      if (scan.validLength < content.length) await ledger.#truncateTornTail(content, scan.validLength);
      return ledger;
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /** Resolves once the receipt is durably anchored (written and fsynced). */
  anchor(receipt: Receipt, hash: string): Promise<AnchorProof> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
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
    return tile.receiptHashes.map((receipt_hash, leaf_index) => ({
      tile_id: tileId,
      leaf_index,
      receipt_hash,
      anchored_unix_ms: tile.anchoredAt[leaf_index] as number,
    }));
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

  /** Refuses new anchors, waits for pending ones, then closes the file. */
  async close(): Promise<void> {
    this.#failure ??= new TemporalError("AUTHORITY_CLOSED", `ledger ${this.#path} is closed`);
    await this.#draining;
    await this.#handle.close();
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
    try {
      heads = await this.#signHeads(leaves);
      const anchors = leaves.map((leaf) => ({ tile_id: leaf.tile.id, leaf_index: leaf.leafIndex, receipt: leaf.receipt }));
      await this.#write(frameRecord(encodeRecordBody({ anchors, heads })));
    } catch (error) {
      // After a failed write or fsync the file's state is unknown; only reopening (which re-verifies) is safe.
      this.#failure = new TemporalError("LEDGER_IO_FAILED", `appending to ledger ${this.#path} failed; reopen the authority to recover`, { cause: error });
      for (const waiter of [...leaves.flatMap((leaf) => leaf.waiters), ...this.#queue.splice(0)]) waiter.reject(this.#failure);
      return;
    }
    this.#publish(leaves, heads);
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

  async #signHeads(leaves: NewLeaf[]): Promise<SignedHead[]> {
    const issuedUnixMs = this.#clock();
    const heads: SignedHead[] = [];
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
    }
    return heads;
  }

  async #write(record: Buffer): Promise<void> {
    for (let written = 0; written < record.length; ) {
      written += (await this.#handle.write(record, written)).bytesWritten;
    }
    await this.#handle.datasync();
  }

  /** Makes a durable (or verified) record visible to readers. */
  #publish(leaves: readonly { tile: Tile; hash: string; leafIndex: number }[], heads: readonly SignedHead[]): void {
    const anchoredAt = new Map(heads.map((head) => [head.tile_id, head.issued_unix_ms]));
    for (const { tile, hash, leafIndex } of leaves) {
      tile.receiptHashes.push(hash);
      tile.anchoredAt.push(anchoredAt.get(tile.id) as number);
      this.#index.set(hash, { tile, leafIndex });
    }
    for (const head of heads) (this.#tiles.get(head.tile_id) as Tile).head = head;
    this.#lastHead = heads[heads.length - 1];
    this.#lastHeadHash = headHash(this.#lastHead as SignedHead);
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

  /** Rebuilds the trees from the records, checking leaf order, roots, the head chain and every head signature. */
  async #replay(records: readonly FramedRecord[]): Promise<void> {
    // Signatures are checked concurrently on the thread pool; the checks never reject, so an early throw leaves nothing unhandled.
    const signatureChecks: { offset: number; head: SignedHead; valid: Promise<boolean> }[] = [];
    for (const { offset, body } of records) {
      const corrupt = (reason: LedgerCorruptionReason, detail: string): LedgerCorruptError =>
        new LedgerCorruptError(reason, this.#path, offset, detail);
      const parsed = parseRecordBody(body);
      if (parsed === undefined) throw corrupt("RECORD_FORMAT", "the record is not a well-formed anchors/heads object");
      const leaves = this.#replayAnchors(parsed.anchors, corrupt);
      this.#checkHeads(parsed.heads, leaves, corrupt);
      for (const head of parsed.heads) {
        const valid = this.#key.verifying.verify(head.signature, signingPayload(head)).catch(() => false);
        signatureChecks.push({ offset, head, valid });
      }
      this.#publish(leaves, parsed.heads);
    }
    const results = await Promise.all(signatureChecks.map((check) => check.valid));
    const bad = signatureChecks[results.indexOf(false)];
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

  #checkHeads(heads: readonly SignedHead[], leaves: NewLeaf[], corrupt: (reason: LedgerCorruptionReason, detail: string) => Error): void {
    const touched = new Set(leaves.map((leaf) => leaf.tile.id));
    if (heads.length !== touched.size || !heads.every((head) => touched.delete(head.tile_id))) {
      throw corrupt("RECORD_FORMAT", "the record does not carry exactly one head per tile it anchors into");
    }
    let prevHeadHash = this.#lastHeadHash;
    let sequence = this.#lastHead === undefined ? 0 : this.#lastHead.sequence + 1;
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
      sequence++;
    }
  }

  /** Keeps the removed bytes beside the ledger, then cuts the file back to its last whole record. */
  async #truncateTornTail(content: Buffer, validLength: number): Promise<void> {
    const savedTo = `${this.#path}.torn-${validLength}-${Date.now()}`;
    await writeFile(savedTo, content.subarray(validLength), { mode: 0o600, flush: true });
    await syncDirectory(dirname(this.#path));
    await this.#handle.truncate(validLength);
    await this.#handle.datasync();
    this.#recovered = { offset: validLength, bytes: content.length - validLength, saved_to: savedTo };
  }
}

async function readExisting(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path);
  } catch (error) {
    if (isErrno(error, "ENOENT")) return undefined;
    throw error;
  }
}
