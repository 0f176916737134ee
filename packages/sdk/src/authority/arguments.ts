import { challengeIssues } from "../core/challenge.js";
import { isHash } from "../core/encoding.js";
import { TemporalError, TemporalRangeError, describeIssues, describeValue } from "../core/errors.js";
import type { Challenge, TsaeIssueRequest } from "../core/service-types.js";
import type { TsaeRequest } from "../core/types.js";

export const DEFAULT_CHALLENGE_TTL_MS = 60_000;
const MIN_CHALLENGE_TTL_MS = 1_000;
const MAX_CHALLENGE_TTL_MS = 3_600_000;
export const DEFAULT_PAGE_LIMIT = 100;
const MAX_PAGE_LIMIT = 1_000;

/**
 * A plain copy of an object argument, reading each property once, so that
 * getters or concurrent changes cannot make what is validated differ from
 * what is signed or written. Anything else is returned for validation to reject.
 */
export function plainCopy<T>(value: T): T {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? { ...value } : value;
}

export function assertTileId(tileId: number): void {
  if (!Number.isSafeInteger(tileId) || tileId < 0) {
    throw new TemporalRangeError("INVALID_TILE", `a tile id is a non-negative integer, got ${describeValue(tileId)}`);
  }
}

export function assertReceiptHash(hash: string): void {
  if (!isHash(hash)) throw new TemporalRangeError("INVALID_HASH", `a receipt hash is 64 lowercase hex digits, got ${describeValue(hash)}`);
}

export function assertPage(offset: number, limit: number): void {
  if (!(Number.isSafeInteger(offset) && offset >= 0)) throw new TemporalRangeError("INVALID_PAGE", `offset ${describeValue(offset)} is not an integer >= 0`);
  if (!(Number.isInteger(limit) && limit >= 1 && limit <= MAX_PAGE_LIMIT)) {
    throw new TemporalRangeError("INVALID_PAGE", `limit ${describeValue(limit)} is not an integer in 1..${MAX_PAGE_LIMIT}`);
  }
}

export function assertChallengeTtl(ttlMs: number): void {
  if (!(Number.isInteger(ttlMs) && ttlMs >= MIN_CHALLENGE_TTL_MS && ttlMs <= MAX_CHALLENGE_TTL_MS)) {
    throw new TemporalRangeError("INVALID_TTL", `challenge ttlMs ${describeValue(ttlMs)} is not an integer in ${MIN_CHALLENGE_TTL_MS}..${MAX_CHALLENGE_TTL_MS}`);
  }
}

/**
 * Separates a challenge carried in the request (the service's
 * `TsaeIssueRequest`) from the request fields, so it is not rejected as an
 * unknown field, and settles which challenge applies. Non-objects pass
 * through for validation to reject.
 */
export function splitChallenge(request: TsaeRequest | TsaeIssueRequest, given: unknown): { request: TsaeRequest; challenge: unknown } {
  let fields: unknown = request;
  let carried: unknown;
  if (typeof request === "object" && request !== null && !Array.isArray(request) && Object.hasOwn(request, "challenge")) {
    ({ challenge: carried, ...fields } = request as TsaeIssueRequest);
  }
  if (carried !== undefined && given !== undefined && carried !== given) {
    throw new TemporalError("CHALLENGE_INVALID", "a challenge was given both in the request and in the options; give it once");
  }
  // Copied like the request, so what is checked is what gets used.
  return { request: fields as TsaeRequest, challenge: plainCopy(given ?? carried) };
}

export function assertChallengeShape(challenge: unknown): asserts challenge is Challenge {
  const issues = challengeIssues(challenge);
  if (issues.length > 0) throw new TemporalError("CHALLENGE_INVALID", `malformed challenge: ${describeIssues(issues)}`);
}
