/**
 * The three parts an authority is composed of. Each has an in-memory
 * implementation (platform-free, in this folder) and a file implementation
 * (Node, in `src/node`); a service can bring its own, such as PostgreSQL.
 */

import type { TemporalError } from "../core/errors.js";
import type { AnchorPage, ConsistencyProof, TileStatus } from "../core/service-types.js";
import type { AnchorProof, AnchorSummary, Receipt, SignedCheckpoint } from "../core/types.js";
import type { VerifyingKey } from "../core/verifying-key.js";

/** An Ed25519 key that can sign: what a `Signer` loads. */
export interface SigningKey {
  readonly verifying: VerifyingKey;
  /** Ed25519 signature of the UTF-8 message, as 128 lowercase hex digits. */
  sign(message: string): Promise<string>;
}

/** Holds the authority's key, which signs receipts, checkpoints and challenges. */
export interface Signer {
  /**
   * The key, loaded (or created, where this signer may create one) on the
   * first call; later calls return the same key. Rejects with a coded error
   * (`KEY_MISSING`, `KEY_INVALID`, ...) saying what to fix.
   */
  load(): Promise<SigningKey>;
}

/** What a log store needs to sign the checkpoints of one append: it builds them, the authority's key signs them. */
export interface HeadSigning {
  /** The public half of the signing key: the note signature line's key ID is derived from it. */
  readonly key: VerifyingKey;
  /** Checkpoint origins are `<authority name>/tile/<tile id>` (docs/checkpoints.md). */
  readonly authority_name: string;
  /**
   * `issued_unix_ms` of the checkpoints of one append, read once per append. Throws
   * (`INVALID_TIME`) for a clock reading a checkpoint cannot carry; the append then
   * writes nothing and rejects.
   */
  issuedUnixMs(): number;
  /** Ed25519 signature (hex) of the message's UTF-8: a checkpoint body. */
  sign(message: string): Promise<string>;
}

/** One receipt to anchor, with its `receiptHash`. */
export interface LogEntry {
  readonly receipt: Receipt;
  readonly hash: string;
}

/** A torn final record removed when the store was opened or caught up. */
export interface LogRecovery {
  /** Length of the log after the removal: every byte before it was verified. */
  readonly offset: number;
  readonly bytes: number;
  /** Where the removed bytes were kept for inspection. */
  readonly saved_to: string;
}

export interface LogStatus {
  /** Group commits (records) held. */
  readonly records: number;
  /** Tiles with a signed checkpoint, by tile id. */
  readonly tiles: readonly TileStatus[];
  readonly anchors: number;
  readonly last_checkpoint: SignedCheckpoint | undefined;
  /** See `ClockchainStatus.chain_valid`. */
  readonly chain_valid: boolean;
  readonly recovered: LogRecovery | undefined;
}

/**
 * The clockchain's storage: one append-only RFC 9162 Merkle tree per tile,
 * one signed head per tile an append touches, every head chained to the head
 * before it. Implementations keep the tree state in `ClockchainState`.
 */
export interface LogStore {
  /** What `clockchainStatus().store.kind` reports, e.g. "memory" or "file". */
  readonly kind: string;
  /**
   * Set while every call rejects with it: an append failed and could not be undone, or (a shared store) the log
   * was found corrupt or signed by keys this node lacks. Readiness reports it.
   */
  readonly failure: TemporalError | undefined;
  /**
   * Opens the store and verifies what it holds against `key`, the key new
   * heads are signed by, and `previousKeys`, retired keys that signed earlier
   * heads (a key rotation keeps one log): every head must be signed by one of
   * them (`LogKeys`), else `LOG_KEY_UNKNOWN`. Called once before any other
   * call (again after a rejection). Rejects with a coded error saying what to fix.
   */
  open(key: VerifyingKey, previousKeys?: readonly VerifyingKey[]): Promise<void>;
  /**
   * Anchors the entries as one group commit, signing one new head per tile
   * they touch with `signing`; resolves, once the commit is durable, with one
   * proof per entry in order. An entry already anchored (here or by another
   * writer of the same log) resolves with its existing proof and adds nothing.
   * A store that waits before it writes (for a lock shared with other writers)
   * may call `joining` once it stops waiting, and again: each call hands over
   * the entries that arrived meanwhile, which join this commit; their proofs
   * follow those of `entries`, in the order handed over.
   */
  append(entries: readonly LogEntry[], signing: HeadSigning, joining?: () => readonly LogEntry[]): Promise<AnchorProof[]>;
  proof(receiptHash: string): Promise<AnchorProof | undefined>;
  list(tileId: number): Promise<AnchorSummary[]>;
  /** Anchors `offset .. offset + limit - 1` of a tile; callers validate both. */
  page(tileId: number, offset: number, limit: number): Promise<AnchorPage>;
  /** `INVALID_TREE_SIZE` unless `1 <= first <= second <=` the tile's size. */
  consistencyProof(tileId: number, first: number, second: number): Promise<ConsistencyProof>;
  /** `checkpointHash` of the body of the checkpoint held at `sequence`, or undefined when there is none. */
  headHashAt(sequence: number): Promise<string | undefined>;
  status(): Promise<LogStatus>;
  /** Waits for appends in progress, then releases the store. Idempotent. */
  close(): Promise<void>;
}

/** The nonces of challenges issued and not yet used. */
export interface ChallengeStore {
  /** Remembers a nonce valid until `expiresUnixMs` (exclusive); `nowUnixMs` lets the store forget expired ones. */
  add(nonce: string, expiresUnixMs: number, nowUnixMs: number): Promise<void>;
  /**
   * Uses the nonce up: true for exactly one caller (across every user of the
   * store) while it is outstanding and unexpired at `nowUnixMs`, false otherwise.
   */
  take(nonce: string, nowUnixMs: number): Promise<boolean>;
  close(): Promise<void>;
}
