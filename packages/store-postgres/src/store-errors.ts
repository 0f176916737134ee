import { TemporalError } from "@temporal/agent-sdk";

/** Node's socket errors for a server that is down, restarting or not reachable. */
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN"]);

/**
 * SQLSTATEs of a server that cannot serve now: class 08 (connection exception), 57P01..57P03 (shut down by the
 * administrator, crashed, starting up), 53300 (too many connections).
 */
const UNAVAILABLE_STATE = /^(08...|57P0[123]|53300)$/;

/** What pg itself throws when a connection is lost or cannot be made in time (no code of their own). */
const LOST_CONNECTION = /Connection terminated|timeout exceeded when trying to connect|not queryable|Client was closed|Connection terminated due to connection timeout/;

/** True when the error says the database is out of reach for now rather than that the request was wrong. */
export function isUnavailable(error: unknown): boolean {
  if (error instanceof TemporalError) return error.code === "STORE_UNAVAILABLE";
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && (SOCKET_CODES.has(code) || UNAVAILABLE_STATE.test(code))) return true;
  if (error instanceof AggregateError) return error.errors.some(isUnavailable);
  return LOST_CONNECTION.test(error.message);
}

/** `STORE_UNAVAILABLE` for an error that says so; any other error as it is. The message names the database by its redacted URL. */
export function storeError(error: unknown, database: string): unknown {
  if (error instanceof TemporalError || !isUnavailable(error)) return error;
  return new TemporalError("STORE_UNAVAILABLE", `PostgreSQL ${database} cannot be reached now (${describeCause(error)}); nothing was applied, retry later`, { cause: error });
}

/** The error's code (`ECONNREFUSED`, a SQLSTATE) or else its message: short, and never the URL's password (pg does not put it in either). */
export function describeCause(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === "string") return code;
  return error instanceof Error ? error.message : String(error);
}
