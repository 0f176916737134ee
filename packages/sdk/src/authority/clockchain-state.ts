import { bytesToHex, hexToBytes } from "../core/encoding.js";
import { TemporalRangeError, describeValue } from "../core/errors.js";
import { HashList } from "../core/hash-list.js";
import { MerkleTree, leafHash } from "../core/merkle.js";
import { ED25519_SIGNATURE_TYPE, noteKeyId } from "../core/note-key.js";
import { receiptHash } from "../core/receipt.js";
import { originSignature, signedCheckpointHash } from "../core/signed-checkpoint.js";
import { formatNote, parseNote } from "../core/signed-note.js";
import type { AnchorPage, ConsistencyProof, TileStatus } from "../core/service-types.js";
import { GENESIS_CHECKPOINT_HASH, checkpointHash, formatTileCheckpoint } from "../core/tile-checkpoint.js";
import { tileOrigin } from "../core/tile-origin.js";
import type { AnchorProof, AnchorSummary, Receipt, SignedCheckpoint } from "../core/types.js";
import { rawPublicKey, type VerifyingKey } from "../core/verifying-key.js";
import { ReceiptIndex } from "./receipt-index.js";
import type { HeadSigning, LogEntry } from "./seams.js";

export interface StoredAnchor {
  readonly tile_id: number;
  readonly leaf_index: number;
  readonly receipt: Receipt;
}

/** One group commit as a log keeps it: its anchors and one new signed checkpoint per tile they touch. */
export interface RecordBody {
  readonly anchors: readonly StoredAnchor[];
  readonly heads: readonly SignedCheckpoint[];
}

/** Why a stored record fails verification (`LedgerCorruptError.reason` of the file store). */
export type RecordFailure = "RECORD_FORMAT" | "LEAF_ORDER" | "DUPLICATE_RECEIPT" | "ROOT_MISMATCH" | "CHAIN_BROKEN" | "UNKNOWN_KEY";

/** Makes the error a store throws for a record that fails verification. */
export type RejectRecord = (reason: RecordFailure, detail: string) => Error;

/** A checkpoint signature being checked (on the thread pool); the check never rejects. */
export interface PendingSignature {
  readonly head: SignedCheckpoint;
  readonly valid: Promise<boolean>;
}

export interface Tile {
  readonly id: number;
  /** Holds committed leaves plus those of an append in progress. */
  readonly tree: MerkleTree;
  /** Committed leaves only, like everything below; 32 bytes each, as strings would cost several times that. */
  readonly receiptHashes: HashList;
  readonly anchoredAt: number[];
  head: SignedCheckpoint | undefined;
}

/** A leaf added to its tile's tree by an append or replay, not yet published. */
export interface StagedLeaf {
  readonly tile: Tile;
  readonly receipt: Receipt;
  readonly hash: string;
  readonly leafIndex: number;
}

/** A tile as `ClockchainState.image()` gives it: its latest head, tree levels and committed leaves. */
export interface TileImage {
  readonly id: number;
  readonly head: SignedCheckpoint;
  /** `MerkleTree.levels()` of the tile's tree at the head's size. */
  readonly levels: readonly Uint8Array[];
  /** 32 bytes per leaf. */
  readonly receiptHashes: Uint8Array;
  readonly anchoredAt: readonly number[];
}

/**
 * Everything a state holds, as plain data: what a store saves beside its
 * records so that it can restore the state without replaying them. Views
 * into the live state, valid until it next changes.
 */
export interface StateImage {
  readonly records: number;
  readonly chainIntact: boolean;
  /** `checkpointHash` of every head, by sequence, 32 bytes each. */
  readonly headHashes: Uint8Array;
  /** `ReceiptIndex.table()`: every receipt hash with its tile and leaf, sorted. */
  readonly receipts: Uint8Array;
  readonly tiles: readonly TileImage[];
}

export interface SignedHeads {
  readonly heads: readonly SignedCheckpoint[];
  /** `checkpointHash` of each head's body. */
  readonly hashes: readonly string[];
}

/**
 * What every log store holds in memory: the per-tile Merkle trees, the
 * receipt index and the chain of signed checkpoints (heads), with the rules for extending them
 * (staging and signing an append) and for verifying a stored record
 * (replay). Stores add where the records live.
 */
export class ClockchainState {
  readonly #tiles = new Map<number, Tile>();
  #index = new ReceiptIndex();
  #anchors = 0;
  #records = 0;
  #lastHead: SignedCheckpoint | undefined;
  #lastHeadHash = GENESIS_CHECKPOINT_HASH;
  /** `checkpointHash` of every head held, by sequence, as 32 bytes each: what `headHashAt` answers from. */
  #headHashes = new HashList();
  /** False if a head was ever published out of sequence or not linked to the one before (see `chainIntact`). */
  #chainIntact = true;

  get records(): number {
    return this.#records;
  }

  get anchors(): number {
    return this.#anchors;
  }

  get lastCheckpoint(): SignedCheckpoint | undefined {
    return this.#lastHead;
  }

  /** True while every head held links, by sequence and `prev_checkpoint_hash`, to the one before it back to genesis. */
  get chainIntact(): boolean {
    return this.#chainIntact;
  }

  /**
   * Adds the entries' new leaves to the trees, in order; an entry already
   * anchored, or repeated in the batch, adds nothing. Publish the leaves
   * once their record is durable, or take them back with `unstage`.
   */
  stage(entries: readonly LogEntry[]): StagedLeaf[] {
    const staged = new Set<string>();
    const leaves: StagedLeaf[] = [];
    for (const { receipt, hash } of entries) {
      if (this.#index.has(hash) || staged.has(hash)) continue;
      staged.add(hash);
      const tile = this.#tile(receipt.tile_id);
      const leafIndex = tile.tree.append(leafHash(hexToBytes(hash)));
      leaves.push({ tile, receipt, hash, leafIndex });
    }
    return leaves;
  }

  /** Takes staged leaves back out of the trees. */
  unstage(leaves: readonly StagedLeaf[]): void {
    for (const tile of new Set(leaves.map((leaf) => leaf.tile))) tile.tree.truncate(tile.receiptHashes.length);
  }

  /** One new tile checkpoint per tile the leaves touch, chained from the last one, signed with one clock reading. */
  async signHeads(leaves: readonly StagedLeaf[], signing: HeadSigning): Promise<SignedHeads> {
    const issuedUnixMs = signing.issuedUnixMs();
    const publicKey = rawPublicKey(signing.key.jwk);
    const heads: SignedCheckpoint[] = [];
    const hashes: string[] = [];
    let prevCheckpointHash = this.#lastHeadHash;
    let sequence = this.#nextSequence();
    for (const tile of new Set(leaves.map((leaf) => leaf.tile))) {
      const origin = tileOrigin(signing.authority_name, tile.id);
      const head = { origin, tree_size: tile.tree.size, root_hash: bytesToHex(tile.tree.root()), sequence: sequence++, prev_checkpoint_hash: prevCheckpointHash, issued_unix_ms: issuedUnixMs };
      const body = formatTileCheckpoint(head);
      const signature = hexToBytes(await signing.sign(body));
      const note = formatNote({ text: body, signatures: [{ name: origin, keyId: noteKeyId(origin, ED25519_SIGNATURE_TYPE, publicKey), signature }] });
      heads.push({ tile_id: tile.id, ...head, note });
      prevCheckpointHash = checkpointHash(body);
      hashes.push(prevCheckpointHash);
    }
    return { heads, hashes };
  }

  /** The record an append of `leaves` under `heads` stores. */
  static recordOf(leaves: readonly StagedLeaf[], heads: readonly SignedCheckpoint[]): RecordBody {
    return { anchors: leaves.map((leaf) => ({ tile_id: leaf.tile.id, leaf_index: leaf.leafIndex, receipt: leaf.receipt })), heads };
  }

  /** Makes a durable (or verified) record visible to readers. */
  publish(leaves: readonly StagedLeaf[], { heads, hashes }: SignedHeads): void {
    const anchoredAt = new Map(heads.map((head) => [head.tile_id, head.issued_unix_ms]));
    for (const { tile, hash, leafIndex } of leaves) {
      tile.receiptHashes.push(hexToBytes(hash));
      tile.anchoredAt.push(anchoredAt.get(tile.id) as number);
      this.#index.set(hash, { tileId: tile.id, leafIndex });
      this.#anchors++;
    }
    heads.forEach((head, i) => {
      (this.#tiles.get(head.tile_id) as Tile).head = head;
      // Replay checked these links and the writer made them so: checking again costs two comparisons and makes chainIntact a statement about the heads actually held.
      if (head.sequence !== this.#headHashes.length || head.prev_checkpoint_hash !== this.#lastHeadHash) this.#chainIntact = false;
      this.#lastHead = head;
      this.#lastHeadHash = hashes[i] as string;
      this.#headHashes.push(hexToBytes(this.#lastHeadHash));
    });
    this.#records++;
  }

  /**
   * Verifies a stored record against the state and `key` and publishes it:
   * each receipt's hash, leaf order, no receipt twice, exactly one head per
   * tile touched, each checkpoint's signature line (key name = origin, key
   * ID of `key`), chain link, size and root. Checkpoint signatures are only
   * started: the caller awaits the returned checks
   * (batched) before trusting anything built on them. Throws `reject(...)`;
   * the state is then unusable, and the store starts again from scratch.
   */
  replay(body: RecordBody, key: VerifyingKey, reject: RejectRecord): PendingSignature[] {
    if (body.anchors.length === 0) throw reject("RECORD_FORMAT", "the record anchors nothing, which the writer never commits");
    const leaves = this.#replayAnchors(body.anchors, reject);
    const { hashes, signatures } = this.#checkHeads(body.heads, leaves, key, reject);
    // Checked concurrently on the thread pool; the checks never reject, so an early throw leaves nothing unhandled.
    const checks = body.heads.map((head, i) => {
      const { signatureHex, message } = signatures[i] as { signatureHex: string; message: string };
      return { head, valid: key.verify(signatureHex, message).catch(() => false) };
    });
    this.publish(leaves, { heads: body.heads, hashes });
    return checks;
  }

  proof(hash: string): AnchorProof | undefined {
    const entry = this.#index.get(hash);
    if (entry === undefined) return undefined;
    const tile = this.#tiles.get(entry.tileId) as Tile;
    const { leafIndex } = entry;
    const head = tile.head as SignedCheckpoint;
    return {
      receipt_hash: hash,
      tile_id: tile.id,
      leaf_index: leafIndex,
      tree_size: head.tree_size,
      root_hash: head.root_hash,
      inclusion_proof: tile.tree.inclusionProof(leafIndex, head.tree_size).map(bytesToHex),
      checkpoint: head,
    };
  }

  list(tileId: number): AnchorSummary[] {
    const tile = this.#tiles.get(tileId);
    if (tile === undefined) return [];
    return Array.from({ length: tile.receiptHashes.length }, (_, leafIndex) => summary(tile, leafIndex));
  }

  page(tileId: number, offset: number, limit: number): AnchorPage {
    const tile = this.#tiles.get(tileId);
    const total = tile?.receiptHashes.length ?? 0;
    const end = Math.min(total, offset + limit);
    const anchors: AnchorSummary[] = [];
    for (let leafIndex = offset; leafIndex < end; leafIndex++) anchors.push(summary(tile as Tile, leafIndex));
    return { tile_id: tileId, total, offset, anchors, next_offset: end < total ? end : null };
  }

  consistencyProof(tileId: number, first: number, second: number): ConsistencyProof {
    const tile = this.#tiles.get(tileId);
    // Committed leaves only: the tree may also hold those of an append in progress.
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

  /** Every tile with a signed checkpoint, by tile id, with its latest signed size and root. */
  tiles(): TileStatus[] {
    const tiles: TileStatus[] = [];
    for (const { id, head } of this.#tiles.values()) if (head !== undefined) tiles.push({ tile_id: id, tree_size: head.tree_size, root_hash: head.root_hash });
    return tiles.sort((a, b) => a.tile_id - b.tile_id);
  }

  headHashAt(sequence: number): string | undefined {
    return Number.isSafeInteger(sequence) && sequence >= 0 && sequence < this.#headHashes.length ? bytesToHex(this.#headHashes.get(sequence)) : undefined;
  }

  /** The state as plain data, to save; see `restore`. */
  image(): StateImage {
    const tiles: TileImage[] = [];
    for (const tile of this.#tiles.values()) {
      if (tile.head === undefined) continue;
      tiles.push({ id: tile.id, head: tile.head, levels: tile.tree.levels(), receiptHashes: tile.receiptHashes.bytes(), anchoredAt: tile.anchoredAt });
    }
    return { records: this.#records, chainIntact: this.#chainIntact, headHashes: this.#headHashes.bytes(), receipts: this.#index.table(), tiles };
  }

  /**
   * The state an image was taken of, taking its buffers over. Checks what
   * binds the image to `key` without replaying: each tile's tree has its
   * head's size and root, each head is signed by `key` and is the head the
   * chain holds at its sequence, and the chain ends with the latest of them,
   * which is the last head of `lastRecord` (the last record the image covers).
   * Throws `reject("SNAPSHOT_MISMATCH", ...)` otherwise. The leaves below
   * the heads are taken on trust: they were verified when the image was taken.
   */
  static async restore(image: StateImage, lastRecord: RecordBody, key: VerifyingKey, reject: (detail: string) => Error): Promise<ClockchainState> {
    const state = new ClockchainState();
    const headHashes = HashList.adopt(image.headHashes);
    const publicKey = rawPublicKey(key.jwk);
    const signatures: { signatureHex: string; message: string }[] = [];
    let last: SignedCheckpoint | undefined;
    for (const { id, head, levels, receiptHashes, anchoredAt } of image.tiles) {
      const signature = head.tile_id === id ? originSignature(parseNote(head.note), head.origin, publicKey) : undefined;
      if (signature === undefined) throw reject(`the head of tile ${id} is not a checkpoint of that tile signed by key ${key.key_id}`);
      signatures.push(signature);
      if (receiptHashes.length !== head.tree_size * HashList.HASH_BYTES || anchoredAt.length !== head.tree_size) throw reject(`tile ${id} holds other than its head's ${head.tree_size} leaves`);
      let tree: MerkleTree;
      try {
        tree = MerkleTree.fromLevels(head.tree_size, levels);
      } catch (error) {
        throw reject(`tile ${id}: ${(error as Error).message}`);
      }
      if (head.tree_size === 0 || bytesToHex(tree.root()) !== head.root_hash) throw reject(`the tree of tile ${id} does not have its head's root`);
      if (!(head.sequence < headHashes.length && bytesToHex(headHashes.get(head.sequence)) === signedCheckpointHash(head))) throw reject(`the head of tile ${id} is not the chain's head ${head.sequence}`);
      state.#tiles.set(id, { id, tree, receiptHashes: HashList.adopt(receiptHashes), anchoredAt: [...anchoredAt], head });
      state.#anchors += head.tree_size;
      if (last === undefined || head.sequence > last.sequence) last = head;
    }
    const recordHead = lastRecord.heads.at(-1);
    if (last === undefined || last.sequence !== headHashes.length - 1) throw reject("the chain does not end with the latest tile head");
    if (recordHead === undefined || recordHead.note !== last.note) throw reject("the chain does not end with the last head of the record it says it ends with");
    const valid = await Promise.all(signatures.map(({ signatureHex, message }) => key.verify(signatureHex, message).catch(() => false)));
    if (valid.includes(false)) throw reject(`the signature of the head of tile ${image.tiles[valid.indexOf(false)]?.id} does not verify`);
    state.#headHashes = headHashes;
    try {
      state.#index = new ReceiptIndex(image.receipts);
    } catch (error) {
      throw reject((error as Error).message);
    }
    if (state.#index.size !== state.#anchors) throw reject(`the receipt index holds ${state.#index.size} receipts, the tiles ${state.#anchors}`);
    state.#records = image.records;
    state.#chainIntact = image.chainIntact;
    state.#lastHead = last;
    state.#lastHeadHash = signedCheckpointHash(last);
    return state;
  }

  #nextSequence(): number {
    return this.#lastHead === undefined ? 0 : this.#lastHead.sequence + 1;
  }

  #tile(id: number): Tile {
    let tile = this.#tiles.get(id);
    if (tile === undefined) {
      tile = { id, tree: new MerkleTree(), receiptHashes: new HashList(), anchoredAt: [], head: undefined };
      this.#tiles.set(id, tile);
    }
    return tile;
  }

  #replayAnchors(anchors: readonly StoredAnchor[], reject: RejectRecord): StagedLeaf[] {
    const seen = new Set<string>();
    return anchors.map(({ tile_id, leaf_index, receipt }) => {
      let hash: string;
      try {
        hash = receiptHash(receipt);
      } catch {
        throw reject("RECORD_FORMAT", `the receipt at leaf ${leaf_index} of tile ${tile_id} is not canonical JSON data`);
      }
      if (this.#index.has(hash) || seen.has(hash)) throw reject("DUPLICATE_RECEIPT", `receipt ${hash} is anchored twice`);
      seen.add(hash);
      const tile = this.#tile(tile_id);
      if (leaf_index !== tile.tree.size) throw reject("LEAF_ORDER", `tile ${tile_id} expects leaf ${tile.tree.size}, the record has leaf ${leaf_index}`);
      tile.tree.append(leafHash(hexToBytes(hash)));
      return { tile, receipt, hash, leafIndex: leaf_index };
    });
  }

  /** Checks a record's checkpoints against the rebuilt trees and the chain; returns their `checkpointHash`es and the signatures to verify. */
  #checkHeads(
    heads: readonly SignedCheckpoint[],
    leaves: readonly StagedLeaf[],
    key: VerifyingKey,
    reject: RejectRecord,
  ): { hashes: string[]; signatures: { signatureHex: string; message: string }[] } {
    const touched = new Set(leaves.map((leaf) => leaf.tile.id));
    if (heads.length !== touched.size || !heads.every((head) => touched.delete(head.tile_id))) {
      throw reject("RECORD_FORMAT", "the record does not carry exactly one head per tile it anchors into");
    }
    let prevHeadHash = this.#lastHeadHash;
    let sequence = this.#nextSequence();
    const publicKey = rawPublicKey(key.jwk);
    const hashes: string[] = [];
    const signatures: { signatureHex: string; message: string }[] = [];
    for (const head of heads) {
      const note = parseNote(head.note);
      const signature = originSignature(note, head.origin, publicKey);
      if (signature === undefined) throw reject("UNKNOWN_KEY", `head ${head.sequence} (tile ${head.tile_id}) carries no signature by key ${key.key_id} under its origin ${head.origin}`);
      signatures.push(signature);
      if (head.prev_checkpoint_hash !== prevHeadHash || head.sequence !== sequence) {
        throw reject("CHAIN_BROKEN", `head ${head.sequence} (tile ${head.tile_id}) does not link to the head before it`);
      }
      const tree = (this.#tiles.get(head.tile_id) as Tile).tree;
      if (head.tree_size !== tree.size || head.root_hash !== bytesToHex(tree.root())) {
        throw reject("ROOT_MISMATCH", `head ${head.sequence} states tile ${head.tile_id} has ${head.tree_size} leaves with root ${head.root_hash}, the records give ${tree.size} leaves with root ${bytesToHex(tree.root())}`);
      }
      prevHeadHash = checkpointHash(note.text);
      hashes.push(prevHeadHash);
      sequence++;
    }
    return { hashes, signatures };
  }
}

function summary(tile: Tile, leafIndex: number): AnchorSummary {
  return {
    tile_id: tile.id,
    leaf_index: leafIndex,
    receipt_hash: bytesToHex(tile.receiptHashes.get(leafIndex)),
    anchored_unix_ms: tile.anchoredAt[leafIndex] as number,
  };
}
