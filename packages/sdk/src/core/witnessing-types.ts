/**
 * The wire shapes of witnessing (docs/witness.md): what an anchor proof
 * carries about finality, and the BFT state `GET clockchain/status`
 * reports. Plain data, shared by the authority, the service and the client.
 */

import type { SignedCheckpoint } from "./types.js";
import type { ConsistencyProof } from "./service-types.js";

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
  /**
   * The log's signed checkpoint the witness refused; for a saved cosigned checkpoint the log contradicts, the log's
   * latest of the tile (size M, at least `witness_size`), which `consistency_proof` ties to the log's root at `witness_size`.
   */
  readonly note: string;
  /**
   * The other side, when the log holds it: a checkpoint of size `witness_size` signed by the log's key with another
   * root, with the witness's cosignature line, so a third party sees the log's key sign two trees of one size. Null
   * when the witness only answered 409 (tlog-witness v1.0.0 returns no checkpoint; the witness keeps it in its
   * evidence folder).
   */
  readonly witness_note: string | null;
  /**
   * With `witness_note`: the log's RFC 9162 consistency proof from its tree of size `witness_size` (`first_root`, not
   * `witness_note`'s root) to `note`'s (`second_root`, size M; no hashes when M is `witness_size`), so a third party
   * checks that the log's key signed two trees of that size from these fields alone. Null otherwise (and in evidence
   * saved before it existed).
   */
  readonly consistency_proof: Omit<ConsistencyProof, "tile_id"> | null;
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

/** `UNKNOWN` until the witness first replies to a submission, then `ANSWERING` or `FAILING` after each. */
export type WitnessReachability = "UNKNOWN" | "ANSWERING" | "FAILING";

export interface WitnessState {
  readonly name: string;
  readonly url: string;
  readonly vkey: string;
  readonly tiles: readonly WitnessTileState[];
  /** The failure of the last submission, or null when it succeeded (or none was made yet: see `state`). */
  readonly last_error: WitnessError | null;
  readonly state: WitnessReachability;
  /** Rounds in a row whose submission to this witness failed: the exponent of the backoff. */
  readonly consecutive_failures: number;
  /** When a failing witness is asked again (Unix ms), or null when it is not backing off or that time has come (it is asked in the next round). */
  readonly next_attempt_unix_ms: number | null;
  /** Fork evidence about this witness beyond the kept limit: counted, not kept. */
  readonly forks_not_kept: number;
}

export interface WitnessedTileState {
  readonly tile_id: number;
  /** The size of the tile's latest signed checkpoint. */
  readonly tree_size: number;
  /** The size of its latest checkpoint with a quorum of cosignatures, 0 when none. */
  readonly final_size: number;
  /** True when the latest checkpoint itself has a quorum. */
  readonly quorum_met: boolean;
  /** The quorum-th smallest cosignature timestamp of the final checkpoint; null without one (never from fewer than quorum cosignatures). */
  readonly witnessed_unix_s: number | null;
  /** The final checkpoint itself with its cosignatures (what the log publishes), or null. */
  readonly cosigned: CosignedCheckpoint | null;
  /** Valid cosignatures held of the latest checkpoint. */
  readonly cosignatures: number;
  /** This tile's own health, `WitnessingHealth` for its latest checkpoint alone. */
  readonly health: WitnessingHealth;
}

/**
 * `HEALTHY`: no witness fails, none is behind the final checkpoints, and none that has not replied yet has a checkpoint waiting for it.
 * `DEGRADED`: some witness fails, is behind or has not answered yet, but no more than `n - quorum` fail.
 * `STALLED`: more than `n - quorum` witnesses fail: nothing new becomes final.
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
  /** Why the last save of this state (cosigned checkpoints, sizes, evidence), or with a shared store its last read, failed; null once one succeeds. */
  readonly store_error: string | null;
  /** Why the last round failed (the log gave no consistency proof, the shared store's turn failed; not a witness's failure) null once a later round failed nowhere; or why finding the tiles' latest checkpoints after open failed (kept). */
  readonly round_error: string | null;
  /** Entries of the saved state (witnessing.json) not taken back on open, and why: a damaged or edited file. */
  readonly restore_dropped: readonly string[];
}
