import { TsaeRequestError, type FieldIssue } from "./errors.js";
import { HASH_RULE, RecordShape, integerIn, matching, type FieldRule } from "./fields.js";
import type { PhaseContext, TsaeRequest } from "./types.js";
import { MAX_ABS_DAY_INDEX, TICKS_PER_DAY, ZONE_COUNT } from "./units.js";

const SCOPE = /^[a-z0-9_][a-z0-9_-]*\.[a-z0-9_][a-z0-9_-]*\.v(?:0|[1-9][0-9]*)$/;
const MAX_SCOPE_LENGTH = 128;
// tile_id consistency can only be judged when these fields are individually sound.
const TILE_FIELDS = new Set(["day_index", "swt_zone", "tile_id", "(record)"]);

const SCOPE_FORMAT = matching(SCOPE, "<domain>.<purpose>.v<n> (domain and purpose [a-z0-9_][a-z0-9_-]*)");

export const REQUEST_RULES: Readonly<Record<keyof TsaeRequest, FieldRule>> = {
  scope: (value) => (typeof value === "string" && value.length > MAX_SCOPE_LENGTH ? `is longer than ${MAX_SCOPE_LENGTH} characters` : SCOPE_FORMAT(value)),
  day_index: integerIn(0, MAX_ABS_DAY_INDEX - 1),
  phi_action_ticks: integerIn(0, TICKS_PER_DAY - 1),
  swt_zone: integerIn(0, ZONE_COUNT - 1),
  tile_id: integerIn(0, MAX_ABS_DAY_INDEX * ZONE_COUNT - 1),
  action_hash_hex: HASH_RULE,
};

const REQUEST_SHAPE = new RecordShape(REQUEST_RULES);

/** Every problem with a TSAE request (or with a record that extends one, given its shape). */
export function requestIssues(value: unknown, shape: RecordShape = REQUEST_SHAPE): FieldIssue[] {
  const issues = shape.issues(value);
  if (issues.some((issue) => TILE_FIELDS.has(issue.field))) return issues;
  const request = value as TsaeRequest;
  const expected = request.day_index * ZONE_COUNT + request.swt_zone;
  if (request.tile_id !== expected) {
    issues.push({ field: "tile_id", value: request.tile_id, reason: `is not day_index * 12 + swt_zone = ${expected}` });
  }
  return issues;
}

/** Throws a `TsaeRequestError` naming every bad field. */
export function assertTsaeRequest(value: unknown): asserts value is TsaeRequest {
  const issues = requestIssues(value);
  if (issues.length > 0) throw new TsaeRequestError(issues);
}

export interface TsaeAction {
  readonly scope: string;
  /** SHA-256 hex of the action payload, e.g. `sha256Hex(canonicalJson(payload))`. */
  readonly action_hash_hex: string;
}

/** The request for an action taken at the instant and zone of `ctx`. */
export function createTsaeRequest(ctx: PhaseContext, action: TsaeAction): TsaeRequest {
  const request: TsaeRequest = {
    scope: action.scope,
    day_index: ctx.day_index,
    phi_action_ticks: ctx.phi_ticks,
    swt_zone: ctx.swt_zone,
    tile_id: ctx.tile_id,
    action_hash_hex: action.action_hash_hex,
  };
  assertTsaeRequest(request);
  return request;
}
