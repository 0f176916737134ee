import { TemporalError } from "@temporal/agent-sdk";

/** Node's socket errors for a server that is down, restarting or not reachable. */
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN"]);

/**
 * SQLSTATEs of a server that cannot serve this node for a while: class 08 (connection exception), 57P01..57P03 (shut
 * down by the administrator, crashed, starting up), 57014 (a statement cancelled: `statement_timeout`), 53300 (too
 * many connections). With MISCONFIGURED_STATE, the SQLSTATEs of a database this node cannot use now.
 */
const OUTAGE_STATE = /^(08...|57P0[123]|57014|53300)$/;

/**
 * SQLSTATEs that waiting does not mend, since an operator must change the store URL or the server first: class 28
 * (authentication refused), 3D000 (no such database), 42704 and 22023 (a startup parameter of the URL's `options`
 * the server does not know or refuses: the store's own statements set none).
 */
const MISCONFIGURED_STATE = /^(28...|3D000|42704|22023)$/;

/** What pg itself throws when a connection is lost or an answer does not come in time (no code of their own). */
const LOST_CONNECTION = /Connection terminated|timeout exceeded when trying to connect|not queryable|Client was closed|Query read timeout/;

/**
 * What pg throws, with no code, when the URL asks for SSL (`sslmode`, which pg reads as `verify-full` unless it is
 * `disable`) and the server offers none: like a refused password, the node cannot use the database until an
 * operator changes the URL or the server.
 */
const SSL_REFUSED = /The server does not support SSL connections/;

/**
 * A Unix-domain socket (`?host=/var/run/postgresql`) whose file is absent: no server runs there now (stopped, or
 * restarting: the server removes its socket while it is down). A TCP port with no server answers ECONNREFUSED instead.
 */
function isMissingSocket(error: unknown): boolean {
  const { code, syscall } = (error ?? {}) as { code?: unknown; syscall?: unknown };
  return code === "ENOENT" && syscall === "connect";
}

/** The SQLSTATEs above in words; a client sees these, never the database's address. */
const STATE_REASONS: readonly (readonly [RegExp, string])[] = [
  [/^08/, "connection failure"],
  [/^57P0[123]$/, "the server is shutting down or starting up"],
  [/^57014$/, "no answer within the statement timeout"],
  [/^53300$/, "too many connections"],
  [/^28/, "authentication refused"],
  [/^3D000$/, "no such database"],
];

/** True when the error says the database is out of reach for now rather than that the request was wrong. */
export function isUnavailable(error: unknown): boolean {
  if (error instanceof TemporalError) return error.code === "STORE_UNAVAILABLE";
  if (!(error instanceof Error)) return false;
  if (isMissingSocket(error)) return true;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && (SOCKET_CODES.has(code) || OUTAGE_STATE.test(code) || MISCONFIGURED_STATE.test(code))) return true;
  if (error instanceof AggregateError) return error.errors.some(isUnavailable);
  return LOST_CONNECTION.test(error.message) || SSL_REFUSED.test(error.message);
}

/** True when the database refuses this node until its settings change (see MISCONFIGURED_STATE), rather than for a while. */
function isMisconfigured(error: unknown): boolean {
  if (error instanceof AggregateError) return isMisconfigured(error.errors.find(isUnavailable));
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" ? MISCONFIGURED_STATE.test(code) : SSL_REFUSED.test(error.message);
}

/**
 * `STORE_UNAVAILABLE` for an error that says so, any other error as it is. Its message reaches clients (the
 * service's 503), so it names no host: the cause (`describeCause`) is for the operator's log. A refusal that only
 * an operator can end (a wrong password, no such database) says so, where an outage says to retry later.
 */
export function storeError(error: unknown): unknown {
  if (error instanceof TemporalError || !isUnavailable(error)) return error;
  const reason = reasonOf(error);
  const message = isMisconfigured(error)
    ? `the database refuses this node (${reason}); nothing was applied, and it will go on refusing until an operator changes the store URL or the database server`
    : `the database cannot be used now (${reason}); nothing was applied, retry later`;
  return new TemporalError("STORE_UNAVAILABLE", message, { cause: error });
}

/** Why the database is out of reach, in words with no address in them: a socket error's code, a SQLSTATE's meaning, or what pg saw. */
export function reasonOf(error: unknown): string {
  if (error instanceof AggregateError) return reasonOf(error.errors.find(isUnavailable));
  if (isMissingSocket(error)) return "ENOENT: no server socket";
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === "string") return SOCKET_CODES.has(code) ? code : (STATE_REASONS.find(([state]) => state.test(code))?.[1] ?? serverWords(error, code));
  const message = error instanceof Error ? error.message : "";
  if (SSL_REFUSED.test(message)) return "the server does not support SSL: see sslmode in the store URL";
  return /timeout|no answer/i.test(message) ? "no answer in time" : "connection lost";
}

/**
 * A code without words above. The server's own message for its errors (pg's, with a `severity`: it names a parameter
 * or a role, never an address) with the SQLSTATE; for anything else the code alone, since Node's messages (a TLS
 * name mismatch, a refused connect) name the host or the socket, and these words reach clients.
 */
function serverWords(error: unknown, code: string): string {
  if (!/^[0-9A-Z]{5}$/.test(code)) return code;
  const fromServer = error instanceof Error && "severity" in error && error.message !== "";
  return fromServer ? `${error.message}, SQLSTATE ${code}` : `SQLSTATE ${code}`;
}

/** The error's code (`ECONNREFUSED`, a SQLSTATE) and message, for the operator's log; never the URL's password (pg puts it in neither). */
export function describeCause(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return typeof code === "string" && !message.includes(code) ? `${code}: ${message}` : message;
}
