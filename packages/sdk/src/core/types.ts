/**
 * Wire types shared by the SDK and the HTTP service. Field names keep the
 * spec's snake_case so one JSON shape serves both.
 */

import type { TileCheckpoint } from "./tile-checkpoint.js";
import type { Finality, Witnessed } from "./witnessing-types.js";

export type KernelVersion = "4.6.2";

/** The phase context returned by `now()`: one instant, seen from one SWT zone. */
export interface PhaseContext {
  readonly kernel_version: KernelVersion;
  /** Milliseconds since the Unix epoch (one tick = one millisecond). */
  readonly unix_ms: number;
  /** ISO 8601 UTC rendering of `unix_ms`. */
  readonly utc: string;
  /** Whole UTC days since the Unix epoch. */
  readonly day_index: number;
  /** Milliseconds since UTC midnight, 0 <= phi_ticks < 86,400,000. */
  readonly phi_ticks: number;
  /** SWT zone 0..11. */
  readonly swt_zone: number;
  /** day_index * 12 + swt_zone. */
  readonly tile_id: number;
  /** Phase local to the zone, degrees in [0, 360). */
  readonly phase_deg: number;
  /** Phase at UTC (zone 0), degrees in [0, 360). */
  readonly utc_phase_deg: number;
  readonly source: "local" | "remote";
}

/** `[start_deg, end_deg]`, both in [0, 360], inclusive; start > end wraps through 0. */
export type Window = readonly [start_deg: number, end_deg: number];

export interface TimeStamp {
  readonly day_index: number;
  readonly phi_ticks: number;
}

/** Signed duration between two stamps. */
export interface Duration {
  readonly ticks: number;
  readonly ms: number;
  readonly seconds: number;
  /** For example `P1DT2H3M4.005S`, `-PT0.5S`, `PT0S`. */
  readonly iso8601: string;
}

/** An SWT zone as a number `0..11` or a code `"Z0".."Z11"`. */
export type ZoneInput = number | `Z${number}`;

/** Audit receipt request (spec section 2). */
export interface TsaeRequest {
  readonly scope: string;
  readonly day_index: number;
  readonly phi_action_ticks: number;
  readonly swt_zone: number;
  readonly tile_id: number;
  readonly action_hash_hex: string;
}

/** A signed audit receipt: the request plus issuance fields and an Ed25519 signature. */
export interface Receipt extends TsaeRequest {
  readonly receipt_version: 1;
  readonly issued_unix_ms: number;
  readonly key_id: string;
  /**
   * The nonce of the challenge the receipt was issued against (64 lowercase
   * hex), present only then: it shows the receipt was made after that
   * challenge was issued. Signed like every other field.
   */
  readonly challenge_nonce?: string;
  /** Ed25519 signature (128 lowercase hex) over the canonical JSON of every other field. */
  readonly signature: string;
}

/**
 * A signed tile head: a C2SP tlog-checkpoint (origin `<authority name>/tile/<tile id>`,
 * tree size, root, and the `temporal-chain`/`temporal-issued` lines linking it to the
 * head signed before it) in a C2SP signed note. `note` is what is signed and verified;
 * the other fields are its parsed body, for readers (docs/checkpoints.md).
 */
export interface SignedCheckpoint extends TileCheckpoint {
  readonly tile_id: number;
  /** The signed note: the checkpoint body, a blank line, then `— <origin> <base64(key ID || signature)>` lines. */
  readonly note: string;
}

/** Proof that a receipt is a leaf of a tile's Merkle tree, under a signed checkpoint. */
export interface AnchorProof {
  /** SHA-256 hex of the receipt's canonical JSON; the leaf data is these 32 bytes. */
  readonly receipt_hash: string;
  readonly tile_id: number;
  readonly leaf_index: number;
  readonly tree_size: number;
  readonly root_hash: string;
  /** RFC 9162 inclusion path, hex hashes from the leaf upwards. */
  readonly inclusion_proof: readonly string[];
  /** The tile's signed checkpoint stating `tree_size` and `root_hash`. */
  readonly checkpoint: SignedCheckpoint;
  /** Present when the authority has witnesses: `FINAL` once a checkpoint covering the leaf has a quorum of cosignatures. */
  readonly finality?: Finality;
  /** When `FINAL`: the cosigned checkpoint and the consistency step from `tree_size` to it (docs/witness.md). */
  readonly witnessed?: Witnessed;
}

/** `anchor`'s options: wait until the anchor is `FINAL`. */
export interface AnchorOptions {
  /**
   * Cosignatures the checkpoint covering the anchor needs, 1..the witnesses
   * configured; default the authority's quorum when `timeoutMs` is given.
   * Above the witnesses configured: `QUORUM_UNREACHABLE`.
   */
  readonly quorum?: number;
  /** How long to wait for finality, ms; then `FINALITY_TIMEOUT` carrying the provisional proof. Default 30 000 when `quorum` is given. */
  readonly timeoutMs?: number;
}

export interface AnchorSummary {
  readonly tile_id: number;
  readonly leaf_index: number;
  readonly receipt_hash: string;
  readonly anchored_unix_ms: number;
}

/** An Ed25519 public key as a JSON Web Key; `kid` is the key id used in receipts and heads. */
export interface PublicKeyJwk {
  readonly kty: "OKP";
  readonly crv: "Ed25519";
  readonly x: string;
  readonly kid: string;
}

export interface AuthorityNowOptions {
  readonly zone?: ZoneInput;
}

/**
 * What compiled missions talk to: the embedded local authority today, an
 * HTTP client of the service later.
 */
export interface Authority {
  readonly kind: "local" | "remote";
  /**
   * Resolves once the authority can issue and anchor receipts (a local home
   * open, writable and verified; a service that answers and accepts the API
   * key for anchoring); rejects with the coded error that says what to fix.
   * Missions call it before their first task.
   */
  ready(): Promise<void>;
  now(options?: AuthorityNowOptions): Promise<PhaseContext>;
  issueReceipt(request: TsaeRequest): Promise<Receipt>;
  /**
   * Throws `QUORUM_UNREACHABLE` when `anchor` could not wait for `quorum`
   * cosignatures (more than the witnesses configured). Optional: an
   * authority without it is asked at `anchor`.
   */
  assertQuorum?(quorum: number): void;
  /** Anchors the receipt; with `options`, waits until the anchor is `FINAL` (docs/witness.md). */
  anchor(receipt: Receipt, options?: AnchorOptions): Promise<AnchorProof>;
  getAnchorProof(receiptHash: string): Promise<AnchorProof | undefined>;
  listAnchors(tileId: number): Promise<AnchorSummary[]>;
  /** Key id -> public key of every key whose signatures this authority issues. */
  publicKeys(): Promise<Record<string, PublicKeyJwk>>;
  close(): Promise<void>;
}
