import { TemporalError } from "@temporal/agent-sdk";

/** Node's socket errors for a server that is down, restarting or not reachable. */
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN"]);

/**
 * SQLSTATEs of a server that cannot serve this node now: class 08 (connection exception), 57P01..57P03 (shut down
 * by the administrator, crashed, starting up), 53300 (too many connections), and what an operator must fix
 * before it can: class 28 (authentication refused), 3D000 (no such database). The message says which.
 */
const UNAVAILABLE_STATE = /^(08...|57P0[123]|53300|28...|3D000)$/;

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
  return new TemporalError("STORE_UNAVAILABLE", `PostgreSQL ${database} cannot be used now (${describeCause(error)}); nothing was applied, retry later`, { cause: error });
}

/** The error's code (`ECONNREFUSED`, a SQLSTATE) and message; never the URL's password (pg puts it in neither). */
export function describeCause(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return typeof code === "string" && !message.includes(code) ? `${code}: ${message}` : message;
}
