/**
 * Every error the SDK throws carries a stable `code` so callers can branch on
 * it without parsing messages; messages name the offending value.
 */

import type { Window } from "./types.js";

export type ErrorCode =
  | "INVALID_WINDOW"
  | "INVALID_CONTEXT"
  | "INVALID_ZONE"
  | "INVALID_UTC_OFFSET"
  | "INVALID_TIME_ZONE"
  | "INVALID_TIME"
  // the answer would lie past the end of ECMAScript's Date range (+-8.64e15 ms)
  | "BEYOND_DATE_RANGE"
  | "INVALID_STAMP"
  | "DURATION_OUT_OF_RANGE"
  | "INVALID_HARMONICS"
  | "INVALID_JSON_VALUE"
  | "INVALID_PUBLIC_KEY"
  | "INVALID_HASH"
  | "INVALID_TILE"
  | "WEBCRYPTO_UNAVAILABLE"
  | "MERKLE_TREE_FULL"
  | "INVALID_LEAF_INDEX"
  | "PHASE_OUTSIDE_WINDOW"
  | "TSAE_REQUEST_INVALID"
  | "RECEIPT_REJECTED"
  | "LEDGER_CORRUPT"
  | "LEDGER_IO_FAILED"
  | "LEDGER_LINKED"
  | "LEDGER_MIGRATION_REQUIRED"
  | "HOME_NOT_WRITABLE"
  | "HOME_LOCKED"
  | "KEY_MISSING"
  | "KEY_INVALID"
  // a clockchain with a checkpoint none of the authority's keys (signing and previous) signed, and a rotation that would change the log's origin
  | "LOG_KEY_UNKNOWN"
  // the clockchain moved past the authority's signing key (a later key signed after it): rotation is one way
  | "LOG_KEY_RETIRED"
  | "AUTHORITY_NAME_CHANGED"
  | "AUTHORITY_CLOSED"
  // a database-backed store (e.g. @temporal/store-postgres): unreachable for now (transient, retry later), or its schema is newer than this code
  | "STORE_UNAVAILABLE"
  | "STORE_SCHEMA_NEWER"
  // makeDirectory (src/node): a folder could not be created, and why
  | "DIRECTORY_NOT_CREATED"
  // the HTTP client (src/remote)
  | "INVALID_BASE_URL"
  | "INVALID_CLIENT_OPTIONS"
  | "INVALID_ARGUMENT"
  // clockchain queries and challenges (LocalAuthority)
  | "INVALID_TREE_SIZE"
  | "INVALID_PAGE"
  | "INVALID_TTL"
  | "CHALLENGE_INVALID"
  | "CHALLENGE_EXPIRED"
  | "CHALLENGE_UNKNOWN"
  // service computations: the quality gate, carbon forecasts and scheduling
  | "INVALID_QUALITY_INPUT"
  | "INVALID_FORECAST"
  | "FORECAST_NOT_CURRENT"
  | "FORECAST_TOO_SHORT"
  | "INVALID_CARBON_REQUEST"
  | "INVALID_SCHEDULE_REQUEST"
  // C2SP signed notes and checkpoints
  | "INVALID_NOTE"
  | "INVALID_NOTE_KEY"
  | "NOTE_NOT_VERIFIED"
  | "INVALID_CHECKPOINT"
  | "INVALID_ORIGIN"
  // the service config file (packages/server)
  | "INVALID_SERVICE_CONFIG"
  // the witness (packages/witness): its config, key and state; cosignatures; the add-checkpoint client
  | "INVALID_WITNESS_CONFIG"
  | "INVALID_WITNESS_KEY"
  | "WITNESS_STATE_FAILED"
  | "LISTEN_FAILED"
  | "INVALID_COSIGNATURE"
  | "INVALID_SUBMISSION"
  | "WITNESS_UNREACHABLE"
  | "INVALID_WITNESS_REPLY"
  // the log's witnessing (src/authority/witnessing.ts): its options, a quorum above the witnesses, a wait that ran out
  | "INVALID_WITNESSING"
  | "QUORUM_UNREACHABLE"
  | "FINALITY_TIMEOUT"
  // the mission runtime (src/mission)
  | "INVALID_MISSION_OPTIONS"
  | "INVALID_MEASURE"
  | "MISSING_TASKS"
  | "TASK_FAILED"
  | "ANCHOR_FAILED"
  | "AUTHORITY_UNAVAILABLE"
  | "ABORTED"
  // a ZTT signer asked to sign outside its window (src/ztt)
  | "ZTT_WINDOW_CLOSED"
  // an ephemeral key an authority will not certify (not a canonical Ed25519 point, or of small order)
  | "ZTT_KEY_INVALID"
  // a remote authority certified another opening than the signer's clock is in: the two clocks disagree
  | "ZTT_CLOCK_SKEW";

export class TemporalError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
    this.name = "TemporalError";
  }
}

/** A `RangeError` (so `instanceof RangeError` holds) with a stable code. */
export class TemporalRangeError extends RangeError {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string) {
    super(message);
    this.code = code;
    this.name = "TemporalRangeError";
  }
}

/** A `TypeError` (so `instanceof TypeError` holds) with a stable code. */
export class TemporalTypeError extends TypeError {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string) {
    super(message);
    this.code = code;
    this.name = "TemporalTypeError";
  }
}

/** Renders any value for an error message without throwing. */
export function describeValue(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number") return Object.is(value, -0) ? "-0" : String(value);
  if (typeof value === "bigint") return `${value}n`;
  if (value === null || typeof value !== "object") return String(value);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? "Invalid Date" : value.toISOString();
  try {
    const json = JSON.stringify(value);
    return json.length > 120 ? `${json.slice(0, 117)}...` : json;
  } catch {
    return Object.prototype.toString.call(value);
  }
}

/** Thrown by `enforce` when the phase lies outside the window. */
export class PhaseWindowError extends TemporalError {
  declare readonly code: "PHASE_OUTSIDE_WINDOW";
  readonly phase_deg: number;
  readonly window: Window;
  /** When the window next opens, in Unix milliseconds. */
  readonly next_open_unix_ms: number;
  constructor(phaseDeg: number, window: Window, nextOpenUnixMs: number) {
    super("PHASE_OUTSIDE_WINDOW", `phase ${phaseDeg} deg is outside window [${window[0]}, ${window[1]}]; it next opens at ${new Date(nextOpenUnixMs).toISOString()}`);
    this.name = "PhaseWindowError";
    this.phase_deg = phaseDeg;
    this.window = window;
    this.next_open_unix_ms = nextOpenUnixMs;
  }
}

export interface FieldIssue {
  readonly field: string;
  readonly value: unknown;
  readonly reason: string;
}

/** The reason of a FieldIssue for a required field that is absent. */
export const MISSING_FIELD = "is missing";

/** Thrown for a malformed TSAE request; `issues` lists every bad field. */
export class TsaeRequestError extends TemporalError {
  declare readonly code: "TSAE_REQUEST_INVALID";
  readonly issues: readonly FieldIssue[];
  constructor(issues: readonly FieldIssue[]) {
    super("TSAE_REQUEST_INVALID", `invalid TSAE request: ${describeIssues(issues)}`);
    this.name = "TsaeRequestError";
    this.issues = issues;
  }
  /** Names of the bad fields, in the order they were found. */
  get fields(): string[] {
    return this.issues.map((issue) => issue.field);
  }
}

/** Each issue as `field value reason`; a missing field has no value to show (`nonce is missing`, not `nonce undefined is missing`). */
export function describeIssues(issues: readonly FieldIssue[]): string {
  return issues.map((i) => (i.reason === MISSING_FIELD ? `${i.field} ${i.reason}` : `${i.field} ${describeValue(i.value)} ${i.reason}`)).join("; ");
}
