/**
 * The wire shapes of witnessing (docs/witness.md): what an anchor proof
 * carries about finality, and the BFT state `GET clockchain/status`
 * reports. Plain data, shared by the authority, the service and the client.
 */

import type { SignedCheckpoint } from "./types.js";

/** `PROVISIONAL` until a checkpoint of the anchor's tile that covers its leaf has a quorum of valid cosignatures, then `FINAL`. */
export type Finality = "PROVISIONAL" | "FINAL";

/** One valid cosignature/v1 on a checkpoint. */
export interface WitnessCosignature {
  /** The witness's key name. */
  readonly witness: string;
  /** Its timestamp, POSIX seconds. */
  readonly timestamp: number;
}

/** A tile checkpoint with witnesses' cosignatures: `note` is the log's signed note followed by their signature lines (a C2SP signed note). */
export interface CosignedCheckpoint extends SignedCheckpoint {
  /** The valid cosignatures, by timestamp then witness name. */
  readonly cosignatures: readonly WitnessCosignature[];
}

/**
 * What makes an anchor proof `FINAL`: a cosigned checkpoint covering its leaf,
 * and the RFC 9162 consistency proof between the proof's tree (`tree_size`)
 * and that checkpoint's tree, smaller size first (empty when they are equal).
 */
export interface Witnessed {
  readonly checkpoint: CosignedCheckpoint;
  readonly consistency_proof: readonly string[];
  /** The quorum the proof was made final for. */
  readonly quorum: number;
  /** The `quorum`-th smallest cosignature timestamp, POSIX seconds: no fewer than `quorum` witnesses had seen the anchor by then. */
  readonly witnessed_unix_s: number;
}

/** A witness that holds a checkpoint contradicting one the log signed: kept (and persisted) as evidence. */
export interface ForkEvidence {
  readonly tile_id: number;
  readonly witness: string;
  /** The log's signed checkpoint the witness refused. */
  readonly note: string;
  /** The size the witness answered (409 `text/x.tlog.size`): it cosigned a different root for this size. */
  readonly witness_size: number;
  /** The witness's words. */
  readonly message: string;
  readonly detected_unix_ms: number;
}

/** The last failure of a submission to one witness. */
export interface WitnessError {
  readonly tile_id: number;
  /** The HTTP status the witness answered, or null when it did not answer. */
  readonly status: number | null;
  readonly message: string;
  readonly unix_ms: number;
}

export interface WitnessTileState {
  readonly tile_id: number;
  /** The size of the latest checkpoint of this tile the witness cosigned for us (as far as we know). */
  readonly cosigned_size: number;
  /** That cosignature's timestamp, POSIX seconds. */
  readonly cosigned_unix_s: number;
}

export interface WitnessState {
  readonly name: string;
  readonly url: string;
  readonly vkey: string;
  readonly tiles: readonly WitnessTileState[];
  /** The failure of the last submission, or null when it succeeded. */
  readonly last_error: WitnessError | null;
}

export interface WitnessedTileState {
  readonly tile_id: number;
  /** The size of the tile's latest signed checkpoint. */
  readonly tree_size: number;
  /** The size of its latest checkpoint with a quorum of cosignatures, 0 when none. */
  readonly final_size: number;
  /** True when the latest checkpoint itself has a quorum. */
  readonly quorum_met: boolean;
  /** The quorum-th smallest cosignature timestamp of the final checkpoint, or null. */
  readonly witnessed_unix_s: number | null;
  /** The final checkpoint itself with its cosignatures (what the log publishes), or null. */
  readonly cosigned: CosignedCheckpoint | null;
}

/**
 * `HEALTHY`: every witness answers and none is behind the final checkpoints.
 * `DEGRADED`: some witness fails or is behind, but at least `quorum` answer.
 * `STALLED`: fewer than `quorum` witnesses answer: nothing new becomes final.
 * `FORKED`: a witness holds a different checkpoint for a size the log signed.
 */
export type WitnessingHealth = "HEALTHY" | "DEGRADED" | "STALLED" | "FORKED";

/** `clockchain/status`'s `witnessing` field: the BFT state. */
export interface WitnessingStatus {
  readonly quorum: number;
  readonly health: WitnessingHealth;
  readonly witnesses: readonly WitnessState[];
  readonly tiles: readonly WitnessedTileState[];
  readonly forks: readonly ForkEvidence[];
  /** Why the last save of this state (cosigned checkpoints, sizes, evidence) or the last round failed, or null. */
  readonly store_error: string | null;
  /** Entries of the saved state (witnessing.json) not taken back on open, and why: a damaged or edited file. */
  readonly restore_dropped: readonly string[];
}
