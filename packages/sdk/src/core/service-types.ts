/**
 * Wire types of the Temporal Permission Service (`@temporal/server`), shared
 * by the service and the SDK's HTTP client so both speak one JSON shape.
 * Field names keep the spec's snake_case. `docs/service.md` has an example
 * of each.
 */

import type { WitnessingStatus } from "./witnessing-types.js";
import type { AnchorProof, AnchorSummary, KernelVersion, PhaseContext, PublicKeyJwk, Receipt, SignedCheckpoint, TimeStamp, TsaeRequest, Window, ZoneInput } from "./types.js";

/** Access tiers, lowest first (spec section 5). The client mapping's "Paid" is `managed`. */
export type Tier = "public" | "developer" | "managed" | "quantum" | "enterprise";

/** `GET core/state`: the smallest state a sync node needs. */
export interface CoreState {
  readonly kernel_version: KernelVersion;
  readonly unix_ms: number;
  readonly day_index: number;
  readonly phi_ticks: number;
  /** UTC phase, degrees in [0, 360). */
  readonly phase_deg: number;
}

/** `GET twatch/now`: the context, NTP-style timestamps and a prompt paragraph. */
export interface TwatchNow {
  readonly ctx: PhaseContext;
  readonly sync: {
    /** The client's send time, echoed from `?t0=`; null when not sent. */
    readonly t0_unix_ms: number | null;
    /** When the service received the request. */
    readonly receive_unix_ms: number;
    /** When the service produced the reply. */
    readonly transmit_unix_ms: number;
  };
  /** One paragraph describing the temporal context, for an AI prompt. */
  readonly prompt: string;
}

/** `POST twatch/diff` body. */
export interface DiffRequest {
  readonly start: TimeStamp;
  readonly end: TimeStamp;
}

/** `POST allow` body. */
export interface AllowRequest {
  readonly window: Window;
  readonly zone?: ZoneInput;
  /** Decide for this instant (Unix ms, within the Date range) instead of now: a what-if check. */
  readonly at_unix_ms?: number;
}

/** `POST allow` reply. */
export interface AllowResult {
  readonly allow: boolean;
  readonly verdict: "ALLOW" | "DENY";
  /** Zone-local phase, degrees in [0, 360). */
  readonly phase_deg: number;
  /** The least Unix millisecond >= `ctx.unix_ms` at which the window is open (`ctx.unix_ms` when it is open now). */
  readonly next_open_unix_ms: number;
  readonly ctx: PhaseContext;
}

/** `GET ai/tpe-vector` reply. */
export interface TpeVectorResult {
  readonly vector: number[];
  readonly harmonics: number;
  /** Vector layout: for each cycle in order, `[sin(k*theta), cos(k*theta)]` for k = 1..harmonics. */
  readonly layout: {
    readonly cycles: readonly ["daily", "weekly", "yearly"];
    readonly per_cycle: number;
    readonly order: "sin_cos_by_harmonic";
  };
  readonly ctx: PhaseContext;
}

/** `GET challenge`: a single-use freshness anchor signed by the service. */
export interface Challenge {
  readonly challenge_version: 1;
  /** 64 lowercase hex digits (32 random bytes). */
  readonly nonce: string;
  readonly issued_unix_ms: number;
  readonly expires_unix_ms: number;
  readonly key_id: string;
  /** Ed25519 signature (128 lowercase hex) over the canonical JSON of every other field. */
  readonly signature: string;
}

/** `POST security/tsae` body: a TSAE request, optionally carrying a challenge from `GET challenge`. */
export interface TsaeIssueRequest extends TsaeRequest {
  readonly challenge?: Challenge;
}

/** `GET quantum/decision` reply: the HS-Bloch quality gate. */
export interface QualityDecision {
  /** Current quality score in [0, 1]. */
  readonly score: number;
  readonly threshold: number;
  readonly verdict: "ALLOW" | "DENY";
  /** When the score was last updated (the source file's time, the service start for a static value, or when the simulator estimated it). */
  readonly updated_unix_ms: number;
  readonly source: "static" | "file" | "simulator";
}

/** A span of time with its average grid carbon intensity. */
export interface CarbonWindow {
  readonly start_unix_ms: number;
  readonly end_unix_ms: number;
  /** gCO2eq/kWh, the average over the span. */
  readonly intensity: number;
}

/** `GET quantum/carbon` reply. */
export interface CarbonRecommendation {
  readonly unit: "gCO2eq/kWh";
  readonly location: string | null;
  /** Intensity now, gCO2eq/kWh. */
  readonly current: number;
  /** The lowest-intensity window of the requested duration that starts within the horizon. */
  readonly best_window: CarbonWindow;
  readonly horizon_hours: number;
  readonly duration_minutes: number;
  readonly source: "static" | "file";
}

/** One task to place with `POST quantum/schedule`. */
export interface ScheduleTask {
  readonly name: string;
  readonly duration_ms: number;
  /** The whole run must lie inside this zone-local phase window. */
  readonly window: Window;
  /** Optional ceiling on the run's average carbon intensity, gCO2eq/kWh. */
  readonly carbon_max?: number;
}

/** `POST quantum/schedule` body. */
export interface ScheduleRequest {
  readonly tasks: readonly ScheduleTask[];
  readonly zone?: ZoneInput;
  /** How far ahead to look, hours (default 24, at most 168). */
  readonly horizon_hours?: number;
}

export interface ScheduledTask {
  readonly name: string;
  readonly status: "SCHEDULED" | "UNSCHEDULABLE";
  /** Present when scheduled. */
  readonly start_unix_ms?: number;
  readonly end_unix_ms?: number;
  /** Zone-local phase at the start. */
  readonly start_phase_deg?: number;
  /** Average intensity over the run when a forecast covers it. */
  readonly carbon_intensity?: number;
  /** Why a task could not be placed. */
  readonly reason?: "WINDOW_TOO_SHORT" | "NO_START_IN_HORIZON" | "CARBON_ABOVE_MAX";
}

/** `POST quantum/schedule` reply. */
export interface ScheduleResult {
  readonly from_unix_ms: number;
  readonly horizon_hours: number;
  readonly tasks: readonly ScheduledTask[];
}

/** `POST quantum/verify` body. */
export interface VerifyRequest {
  readonly receipt: Receipt;
  readonly proof: AnchorProof;
  /** The action payload (such as an `orchestrate()` result): checked against the receipt's `action_hash_hex`. */
  readonly result?: unknown;
}

/** `POST quantum/verify` reply: which checks hold. */
export interface VerifyResult {
  /** The receipt is well formed and signed by a key of this service. */
  readonly signature: boolean;
  /** The receipt's hash is the proof's leaf and the path leads to the proof's root. */
  readonly inclusion: boolean;
  /** The proof's checkpoint is signed by a key of this service under the tile's origin, covers that root, and is the checkpoint this service's clockchain holds at that sequence. */
  readonly chain: boolean;
  /** Only when the request gave `result`: its canonical JSON's SHA-256 is the receipt's `action_hash_hex`. */
  readonly result?: boolean;
  readonly valid: boolean;
}

/** `POST clockchain/anchor` body. */
export interface AnchorRequest {
  readonly receipt: Receipt;
}

/** `GET clockchain/proof?tile_id&first&second`: RFC 9162 consistency proof between two sizes of a tile's tree. */
export interface ConsistencyProof {
  readonly tile_id: number;
  readonly first: number;
  readonly second: number;
  readonly first_root: string;
  readonly second_root: string;
  /** RFC 9162 section 2.1.4 proof, hex hashes. */
  readonly proof: readonly string[];
}

/** `GET clockchain/anchors?tile_id&offset&limit` reply. */
export interface AnchorPage {
  readonly tile_id: number;
  readonly total: number;
  readonly offset: number;
  readonly anchors: readonly AnchorSummary[];
  /** Offset of the next page, null on the last. */
  readonly next_offset: number | null;
}

export interface TileStatus {
  readonly tile_id: number;
  readonly tree_size: number;
  readonly root_hash: string;
}

/** Where a clockchain is kept, in `GET clockchain/status`; never a path or a password. */
export interface StoreStatus {
  /** `"file"` (a home), `"postgres"`, or `"memory"`. */
  readonly kind: string;
  /** Records the log holds (appends, each one or more anchors). */
  readonly records: number;
  /** The service node that answered (`temporal-service --node-id`); absent outside the service. */
  readonly node_id?: string;
  /** Whether the node reached its store when asked; absent outside the service. */
  readonly reachable?: boolean;
}

/** `GET clockchain/status` reply. */
export interface ClockchainStatus {
  readonly kernel_version: KernelVersion;
  /** True when every record and signed checkpoint verified when the ledger was opened. */
  readonly chain_valid: boolean;
  readonly tiles: readonly TileStatus[];
  readonly anchors: number;
  readonly last_checkpoint: SignedCheckpoint | null;
  readonly store: StoreStatus;
  /** A torn tail removed when the store was opened, if any. */
  readonly recovered: { readonly offset: number; readonly bytes: number } | null;
  /** The witnesses' BFT state; absent when the authority has no witnesses (docs/witness.md). */
  readonly witnessing?: WitnessingStatus;
}

/** `GET keys` reply: the service's public keys by key id. */
export interface KeySet {
  readonly keys: Record<string, PublicKeyJwk>;
  /**
   * The same keys as C2SP signed-note verifier keys under the authority
   * name (`<name>+<key ID>+<key>`); `tileVerifierKey(vkey, tileId)` gives
   * the key of one tile's checkpoints.
   */
  readonly note_verifier_keys: Record<string, string>;
}

/** The body of every error reply. */
export interface ApiErrorBody {
  readonly error: {
    readonly code: string;
    readonly message: string;
    readonly details?: readonly { readonly field: string; readonly problem: string }[];
  };
}
