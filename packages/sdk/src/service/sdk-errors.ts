import { TemporalError, TemporalRangeError, TemporalTypeError, TsaeRequestError } from "../core/index.js";
import { HttpError } from "./http-error.js";

/** SDK codes that mean the store cannot serve now, whatever the request: the client may retry later. */
const UNAVAILABLE = new Set([
  "LEDGER_CORRUPT",
  "LEDGER_IO_FAILED",
  "LEDGER_LINKED",
  "HOME_NOT_WRITABLE",
  "HOME_LOCKED",
  "KEY_MISSING",
  "KEY_INVALID",
  "LOG_KEY_UNKNOWN",
  "LOG_KEY_RETIRED",
  "AUTHORITY_NAME_CHANGED",
  "AUTHORITY_CLOSED",
  "MERKLE_TREE_FULL",
  // The operator's forecast does not cover now or the horizon: nothing the client sent is wrong.
  "FORECAST_NOT_CURRENT",
  "FORECAST_TOO_SHORT",
]);

/**
 * A store that cannot be reached (`STORE_UNAVAILABLE`: a database down or
 * restarting) heals by itself, so the reply says when to try again, in
 * seconds: about how long a restarting PostgreSQL takes to accept again.
 */
export const STORE_RETRY_AFTER_SECONDS = 2;

/** The reply for an error the SDK threw, or undefined when it is not one of the SDK's (a bug: answered 500). */
export function httpErrorFromSdk(error: unknown): HttpError | undefined {
  if (error instanceof TsaeRequestError) {
    return new HttpError(400, error.code, error.message, {
      details: error.issues.map((issue) => ({ field: `body.${issue.field}`, problem: issue.reason })),
    });
  }
  if (error instanceof TemporalError && (error.code as string) === "STORE_UNAVAILABLE") {
    return new HttpError(503, error.code, error.message, { headers: { "retry-after": String(STORE_RETRY_AFTER_SECONDS) } });
  }
  if (error instanceof TemporalError || error instanceof TemporalRangeError || error instanceof TemporalTypeError) {
    return new HttpError(UNAVAILABLE.has(error.code) ? 503 : 400, error.code, error.message);
  }
  return undefined;
}
