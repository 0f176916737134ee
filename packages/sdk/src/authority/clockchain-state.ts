import { bytesToHex, hexToBytes } from "../core/encoding.js";
import { TemporalRangeError, describeValue } from "../core/errors.js";
import { HashList, type ItemSeq } from "../core/hash-list.js";
import { MerkleTree, leafHash, verifyMerklePath } from "../core/merkle.js";
import { ED25519_SIGNATURE_TYPE, noteKeyId } from "../core/note-key.js";
import { receiptHash } from "../core/receipt.js";
import { signedCheckpointHash } from "../core/signed-checkpoint.js";
import { formatNote, parseNote, type Note } from "../core/signed-note.js";
import type { AnchorPage, ConsistencyProof, TileStatus } from "../core/service-types.js";
import { GENESIS_CHECKPOINT_HASH, checkpointHash, formatTileCheckpoint } from "../core/tile-checkpoint.js";
import { tileOrigin } from "../core/tile-origin.js";
import type { AnchorProof, AnchorSummary, Receipt, SignedCheckpoint } from "../core/types.js";
import { rawPublicKey, type VerifyingKey } from "../core/verifying-key.js";
import { DerivedStateDamaged } from "./derived-state-damaged.js";
import type { HeadSignature, LogKeys } from "./log-keys.js";
import { ReceiptIndex, type SortedRun } from "./receipt-index.js";
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
/** `KEY_RETIRED`: a checkpoint signed by a key the log had moved past (a later key signed before it): a rotation is one way, so a leaked retired key cannot extend the log. */
export type RecordFailure = "RECORD_FORMAT" | "LEAF_ORDER" | "DUPLICATE_RECEIPT" | "ROOT_MISMATCH" | "CHAIN_BROKEN" | "KEY_RETIRED";

/** Makes the error a store throws for a record that fails verification. */
export type RejectRecord = (reason: RecordFailure, detail: string) => Error;

/** A checkpoint signature being checked (on the thread pool); the check never rejects. */
export interface PendingSignature {
  readonly head: SignedCheckpoint;
  /** The key whose signature line the head carries. */
  readonly key: VerifyingKey;
  readonly valid: Promise<boolean>;
}

export interface Tile {
  readonly id: number;
  /** Holds committed leaves plus those of an append in progress. */
  readonly tree: MerkleTree;
  /** Committed leaves only, like everything below; 32 bytes each, as strings would cost several times that. */
  readonly receiptHashes: ItemSeq;
  /** When each leaf was anchored: its head's `issued_unix_ms`, a float64 (little-endian) each. */
  readonly anchoredAt: ItemSeq;
  /** Leaves read from stored state rather than replayed or appended here: their proofs are checked against the signed root before they are served. */
  readonly storedLeaves: number;
  head: SignedCheckpoint | undefined;
}

/** A leaf added to its tile's tree by an append or replay, not yet published. */
export interface StagedLeaf {
  readonly tile: Tile;
  readonly receipt: Receipt;
  readonly hash: string;
  readonly leafIndex: number;
}

/** A tile as a store keeps it beside its records: its latest head, its tree's levels and its committed leaves (see `ClockchainState.parts()`). */
export interface StoredTile {
  readonly id: number;
  readonly head: SignedCheckpoint;
  /** `MerkleTree.levels()` of the tile's tree at the head's size. */
  readonly levels: readonly ItemSeq[];
  /** 32 bytes per leaf. */
  readonly receiptHashes: ItemSeq;
  /** 8 bytes per leaf (float64, little-endian). */
  readonly anchoredAt: ItemSeq;
}

/** Everything a store keeps beside its records so that it can open the state without replaying them; read on demand. */
export interface StoredState {
  readonly records: number;
  readonly chainIntact: boolean;
  /** `checkpointHash` of every head, by sequence, 32 bytes each. */
  readonly headHashes: ItemSeq;
  /** Every receipt hash with its tile and leaf, as sorted runs (see `ReceiptIndex`). */
  readonly runs: readonly SortedRun[];
  readonly tiles: readonly StoredTile[];
  /** Key ids of the keys the log has moved past (see `ClockchainState.retiredKeys`). */
  readonly retiredKeys: readonly string[];
}

/** The live state's parts, to save what it added since it was stored: views, valid until it next changes. */
export interface StateParts {
  readonly records: number;
  readonly chainIntact: boolean;
  readonly headHashes: ItemSeq;
  readonly index: ReceiptIndex;
  /** Tiles with a signed checkpoint. */
  readonly tiles: readonly StoredTile[];
  readonly retiredKeys: readonly string[];
}

export const TIME_BYTES = 8;

export interface SignedHeads {
  readonly heads: readonly SignedCheckpoint[];
  /** `checkpointHash` of each head's body. */
  readonly hashes: readonly string[];
  /** The key id of the key that signed each head. */
  readonly keyIds: readonly string[];
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
  #headHashes: ItemSeq = new HashList();
  /** False if a head was ever published out of sequence or not linked to the one before (see `chainIntact`). */
  #chainIntact = true;
  /** The key id of the key that signed the last head. */
  #lastKeyId: string | undefined;
  /** Key ids of keys that signed heads before another key did: the log moved past them for good. */
  #retiredKeys = new Set<string>();

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

  /** Key ids of the keys the log has moved past: each signed heads, then a later key did. No head they sign is accepted any more. */
  get retiredKeys(): readonly string[] {
    return [...this.#retiredKeys];
  }

  /**
   * `LOG_KEY_RETIRED` when the log has moved past `keys.current`: a node started with a key it rotated away from
   * would fork the log's key history (A, B, A), which replay refuses. Stores call it once the log is read.
   */
  assertSignsNext(keys: LogKeys): void {
    if (this.#retiredKeys.has(keys.current.key_id)) throw keys.retiredKeyError(this.#lastKeyId);
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

  /**
   * One new tile checkpoint per tile the leaves touch, chained from the last one, signed with one clock reading.
   * The chain links hash the bodies only, so the bodies are built in order and signed concurrently: a store
   * that holds a lock across the append (a shared database) holds it for one signature's time, not one per tile.
   */
  async signHeads(leaves: readonly StagedLeaf[], signing: HeadSigning): Promise<SignedHeads> {
    const issuedUnixMs = signing.issuedUnixMs();
    const publicKey = rawPublicKey(signing.key.jwk);
    const unsigned: { tileId: number; head: Omit<SignedCheckpoint, "tile_id" | "note">; body: string }[] = [];
    const hashes: string[] = [];
    let prevCheckpointHash = this.#lastHeadHash;
    let sequence = this.#nextSequence();
    for (const tile of new Set(leaves.map((leaf) => leaf.tile))) {
      const head = {
        origin: tileOrigin(signing.authority_name, tile.id),
        tree_size: tile.tree.size,
        root_hash: bytesToHex(tile.tree.root()),
        sequence: sequence++,
        prev_checkpoint_hash: prevCheckpointHash,
        issued_unix_ms: issuedUnixMs,
      };
      const body = formatTileCheckpoint(head);
      unsigned.push({ tileId: tile.id, head, body });
      prevCheckpointHash = checkpointHash(body);
      hashes.push(prevCheckpointHash);
    }
    const signatures = await Promise.all(unsigned.map(({ body }) => signing.sign(body)));
    const heads = unsigned.map(({ tileId, head, body }, i): SignedCheckpoint => {
      const { origin } = head;
      const signature = hexToBytes(signatures[i] as string);
      const note = formatNote({ text: body, signatures: [{ name: origin, keyId: noteKeyId(origin, ED25519_SIGNATURE_TYPE, publicKey), signature }] });
      return { tile_id: tileId, ...head, note };
    });
    return { heads, hashes, keyIds: heads.map(() => signing.key.key_id) };
  }

  /** The record an append of `leaves` under `heads` stores. */
  static recordOf(leaves: readonly StagedLeaf[], heads: readonly SignedCheckpoint[]): RecordBody {
    return { anchors: leaves.map((leaf) => ({ tile_id: leaf.tile.id, leaf_index: leaf.leafIndex, receipt: leaf.receipt })), heads };
  }

  /** Makes a durable (or verified) record visible to readers. */
  publish(leaves: readonly StagedLeaf[], { heads, hashes, keyIds }: SignedHeads): void {
    const anchoredAt = new Map(heads.map((head) => [head.tile_id, head.issued_unix_ms]));
    for (const { tile, hash, leafIndex } of leaves) {
      tile.receiptHashes.push(hexToBytes(hash));
      tile.anchoredAt.push(timeBytes(anchoredAt.get(tile.id) as number));
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
      const keyId = keyIds[i] as string;
      if (this.#lastKeyId !== undefined && this.#lastKeyId !== keyId) this.#retiredKeys.add(this.#lastKeyId);
      this.#lastKeyId = keyId;
    });
    this.#records++;
  }

  /**
   * Verifies a stored record against the state and `keys` and publishes it:
   * each receipt's hash, leaf order, no receipt twice, exactly one head per
   * tile touched, each checkpoint's signature line (key name = origin, key
   * ID of one of `keys`), chain link, size and root. Checkpoint signatures are only
   * started: the caller awaits the returned checks
   * (batched) before trusting anything built on them. Throws `reject(...)`;
   * the state is then unusable, and the store starts again from scratch.
   * A head signed by none of `keys` throws `LOG_KEY_UNKNOWN`, and a later
   * key signing after `keys.current` throws `LOG_KEY_RETIRED`, before the
   * state changes: the node holds the wrong keys, the log is not damaged.
   * A head signed by a key the log had moved past is `KEY_RETIRED`.
   */
  replay(body: RecordBody, keys: LogKeys, reject: RejectRecord): PendingSignature[] {
    if (body.anchors.length === 0) throw reject("RECORD_FORMAT", "the record anchors nothing, which the writer never commits");
    let likelyKeyId = this.#lastKeyId;
    const signatures = body.heads.map((head) => {
      const signature = signatureOf(head, keys, likelyKeyId);
      likelyKeyId = signature.key.key_id;
      return signature;
    });
    this.#checkKeyOrder(body.heads, signatures, keys, reject);
    const leaves = this.#replayAnchors(body.anchors, reject);
    const hashes = this.#checkHeads(body.heads, signatures, leaves, reject);
    // Checked concurrently on the thread pool; the checks never reject, so an early throw leaves nothing unhandled.
    // Every line by the key the order was checked with is tried (a foreign line may carry its key ID too).
    const checks = body.heads.map((head, i) => {
      const { key } = signatures[i] as HeadSignature;
      return { head, key, valid: keys.verifiedSignatureOf(parseNote(head.note), head.origin, key).then((verified) => verified !== undefined) };
    });
    this.publish(leaves, { heads: body.heads, hashes, keyIds: signatures.map((signature) => signature.key.key_id) });
    return checks;
  }

  proof(hash: string): AnchorProof | undefined {
    const entry = this.#index.get(hash);
    if (entry === undefined) return undefined;
    const tile = this.#tiles.get(entry.tileId) as Tile;
    const { leafIndex } = entry;
    const head = tile.head as SignedCheckpoint;
    const path = tile.tree.inclusionProof(leafIndex, head.tree_size);
    // Stored state is read, not rebuilt: what it gives is checked against the signed root before it is served.
    if (leafIndex < tile.storedLeaves && !verifyMerklePath(leafIndex, head.tree_size, leafHash(hexToBytes(hash)), path, hexToBytes(head.root_hash))) {
      throw new DerivedStateDamaged(`the stored proof of receipt ${hash} (tile ${tile.id}, leaf ${leafIndex}) does not verify against the tile's signed root`);
    }
    return {
      receipt_hash: hash,
      tile_id: tile.id,
      leaf_index: leafIndex,
      tree_size: head.tree_size,
      root_hash: head.root_hash,
      inclusion_proof: path.map(bytesToHex),
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

  /** The state's parts, to save; see `over`. */
  parts(): StateParts {
    const tiles: StoredTile[] = [];
    for (const tile of this.#tiles.values()) {
      if (tile.head !== undefined) tiles.push({ id: tile.id, head: tile.head, levels: tile.tree.levels(), receiptHashes: tile.receiptHashes, anchoredAt: tile.anchoredAt });
    }
    return { records: this.#records, chainIntact: this.#chainIntact, headHashes: this.#headHashes, index: this.#index, tiles, retiredKeys: this.retiredKeys };
  }

  /**
   * The state stored beside the records, read on demand rather than loaded.
   * Checks what binds it to `keys` without replaying, reading O(log n)
   * hashes per tile: each tile's levels give its head's size and root, each
   * head is signed by one of `keys` and is the head the chain holds at its
   * sequence, and the chain ends with the latest of them, which is the last
   * head of `lastRecord` (the last record the stored state covers), whose
   * key is not one the stored state says the log moved past. Throws
   * `reject(detail)` otherwise (`LOG_KEY_RETIRED` as `assertSignsNext`). The leaves below the heads are taken as
   * stored (each block checksummed, each proof served checked against the
   * signed root): they were verified when they were stored.
   */
  static async over(stored: StoredState, lastRecord: RecordBody, keys: LogKeys, reject: (detail: string) => Error): Promise<ClockchainState> {
    const state = new ClockchainState();
    const notes: Note[] = [];
    let last: SignedCheckpoint | undefined;
    let runEntries = 0;
    for (const run of stored.runs) runEntries += run.length;
    try {
      for (const { id, head, levels, receiptHashes, anchoredAt } of stored.tiles) {
        const note = parseNote(head.note);
        if (head.tile_id !== id || keys.signatureOf(note, head.origin) === undefined) throw reject(`the head of tile ${id} is not a checkpoint of that tile signed by one of the log's keys`);
        notes.push(note);
        if (receiptHashes.length !== head.tree_size || anchoredAt.length !== head.tree_size) throw reject(`tile ${id} holds other than its head's ${head.tree_size} leaves`);
        let tree: MerkleTree;
        try {
          tree = MerkleTree.over(head.tree_size, levels);
        } catch (error) {
          throw reject(`tile ${id}: ${(error as Error).message}`);
        }
        if (head.tree_size === 0 || bytesToHex(tree.root()) !== head.root_hash) throw reject(`the tree of tile ${id} does not have its head's root`);
        const chained = head.sequence < stored.headHashes.length ? bytesToHex(stored.headHashes.get(head.sequence)) : undefined;
        if (chained !== signedCheckpointHash(head)) throw reject(`the head of tile ${id} is not the chain's head ${head.sequence}`);
        state.#tiles.set(id, { id, tree, receiptHashes, anchoredAt, storedLeaves: head.tree_size, head });
        state.#anchors += head.tree_size;
        if (last === undefined || head.sequence > last.sequence) last = head;
      }
    } catch (error) {
      if (error instanceof DerivedStateDamaged) throw reject(error.message);
      throw error;
    }
    const recordHead = lastRecord.heads.at(-1);
    if (last === undefined || last.sequence !== stored.headHashes.length - 1) throw reject("the chain does not end with the latest tile head");
    if (recordHead === undefined || recordHead.note !== last.note) throw reject("the chain does not end with the last head of the record it says it ends with");
    if (runEntries !== state.#anchors) throw reject(`the receipt index holds ${runEntries} receipts, the tiles ${state.#anchors}`);
    // Every candidate line is tried (key IDs may collide); the key that signed is the one whose line verifies.
    const signatures = await Promise.all(stored.tiles.map(({ head }, i) => keys.verifiedSignatureOf(notes[i] as Note, head.origin)));
    if (signatures.includes(undefined)) throw reject(`the signature of the head of tile ${stored.tiles[signatures.indexOf(undefined)]?.id} does not verify`);
    const lastKeyId = (signatures[stored.tiles.findIndex((tile) => tile.head === last)] as HeadSignature).key.key_id;
    if (stored.retiredKeys.includes(lastKeyId)) throw reject(`the last head is signed by key ${lastKeyId}, which the stored state says the log moved past`);
    state.#headHashes = stored.headHashes;
    state.#index = new ReceiptIndex(stored.runs);
    state.#records = stored.records;
    state.#chainIntact = stored.chainIntact;
    state.#lastHead = last;
    state.#lastHeadHash = signedCheckpointHash(last);
    state.#lastKeyId = lastKeyId;
    state.#retiredKeys = new Set(stored.retiredKeys);
    state.assertSignsNext(keys);
    return state;
  }

  #nextSequence(): number {
    return this.#lastHead === undefined ? 0 : this.#lastHead.sequence + 1;
  }

  #tile(id: number): Tile {
    let tile = this.#tiles.get(id);
    if (tile === undefined) {
      tile = { id, tree: new MerkleTree(), receiptHashes: new HashList(), anchoredAt: new HashList(TIME_BYTES), storedLeaves: 0, head: undefined };
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

  /**
   * Refuses a record whose heads return to a key the log moved past (`KEY_RETIRED`), and a record by which the
   * log moves past `keys.current` (`LOG_KEY_RETIRED`: this node's key is the stale one, the log is not damaged).
   */
  #checkKeyOrder(heads: readonly SignedCheckpoint[], signatures: readonly HeadSignature[], keys: LogKeys, reject: RejectRecord): void {
    let lastKeyId = this.#lastKeyId;
    const retired = new Set(this.#retiredKeys);
    for (const [i, { key }] of signatures.entries()) {
      if (lastKeyId === undefined || key.key_id === lastKeyId) {
        lastKeyId = key.key_id;
        continue;
      }
      const head = heads[i] as SignedCheckpoint;
      if (retired.has(key.key_id)) {
        throw reject("KEY_RETIRED", `head ${head.sequence} (tile ${head.tile_id}) is signed by key ${key.key_id}, which the log had moved past (a later key signed before it)`);
      }
      if (lastKeyId === keys.current.key_id) throw keys.retiredKeyError(key.key_id);
      retired.add(lastKeyId);
      lastKeyId = key.key_id;
    }
  }

  /** Checks a record's checkpoints, whose signature lines are `signatures`, against the rebuilt trees and the chain; returns their `checkpointHash`es. */
  #checkHeads(heads: readonly SignedCheckpoint[], signatures: readonly HeadSignature[], leaves: readonly StagedLeaf[], reject: RejectRecord): string[] {
    const touched = new Set(leaves.map((leaf) => leaf.tile.id));
    if (heads.length !== touched.size || !heads.every((head) => touched.delete(head.tile_id))) {
      throw reject("RECORD_FORMAT", "the record does not carry exactly one head per tile it anchors into");
    }
    let prevHeadHash = this.#lastHeadHash;
    let sequence = this.#nextSequence();
    const hashes: string[] = [];
    for (const [i, head] of heads.entries()) {
      if (head.prev_checkpoint_hash !== prevHeadHash || head.sequence !== sequence) {
        throw reject("CHAIN_BROKEN", `head ${head.sequence} (tile ${head.tile_id}) does not link to the head before it`);
      }
      const tree = (this.#tiles.get(head.tile_id) as Tile).tree;
      if (head.tree_size !== tree.size || head.root_hash !== bytesToHex(tree.root())) {
        throw reject(
          "ROOT_MISMATCH",
          `head ${head.sequence} states tile ${head.tile_id} has ${head.tree_size} leaves with root ${head.root_hash}, the records give ${tree.size} leaves with root ${bytesToHex(tree.root())}`,
        );
      }
      // The signed message is the checkpoint body.
      prevHeadHash = checkpointHash((signatures[i] as HeadSignature).message);
      hashes.push(prevHeadHash);
      sequence++;
    }
    return hashes;
  }
}

/** The signature line of the head by one of `keys` (see `LogKeys.signatureOf`); `LOG_KEY_UNKNOWN` when it has none. */
function signatureOf(head: SignedCheckpoint, keys: LogKeys, likelyKeyId: string | undefined): HeadSignature {
  const note = parseNote(head.note);
  const signature = keys.signatureOf(note, head.origin, likelyKeyId);
  if (signature === undefined) throw keys.unknownKeyError(head, note);
  return signature;
}

function summary(tile: Tile, leafIndex: number): AnchorSummary {
  return {
    tile_id: tile.id,
    leaf_index: leafIndex,
    receipt_hash: bytesToHex(tile.receiptHashes.get(leafIndex)),
    anchored_unix_ms: timeOf(tile.anchoredAt.get(leafIndex)),
  };
}

function timeBytes(unixMs: number): Uint8Array {
  const bytes = new Uint8Array(TIME_BYTES);
  new DataView(bytes.buffer).setFloat64(0, unixMs, true);
  return bytes;
}

function timeOf(bytes: Uint8Array): number {
  return new DataView(bytes.buffer, bytes.byteOffset, TIME_BYTES).getFloat64(0, true);
}
