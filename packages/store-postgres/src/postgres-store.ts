import { accessSync, constants } from "node:fs";
import { hostname } from "node:os";
import { TemporalTypeError, type ChallengeStore, type LogStore, type WitnessingStore } from "@temporal/agent-sdk";
import { describeIoError } from "@temporal/agent-sdk/node";
import pg from "pg";
import { Database } from "./database.js";
import { LATEST_VERSION, appliedVersion } from "./migrations.js";
import { PostgresChallengeStore } from "./postgres-challenge-store.js";
import { PostgresLogStore } from "./postgres-log-store.js";
import { PostgresWitnessingStore } from "./postgres-witnessing-store.js";
import { redactUrl } from "./redact-url.js";
import { parsePostgresUrl } from "./postgres-url.js";
import { reasonOf } from "./store-errors.js";

export interface PostgresStoreOptions {
  /** `postgres://user[:password]@host[:port]/database[?sslmode=...]`; the password never appears in a message. */
  readonly url: string;
  /** Names this node in the records it commits and in `pg_stat_activity`; default `<hostname>-<pid>`. */
  readonly nodeId?: string;
  readonly pool?: {
    /** Most connections this node opens; default 10. */
    readonly max?: number;
    /** How long a call waits for a connection before it fails with `STORE_UNAVAILABLE`; default 5000 ms. */
    readonly connectionTimeoutMs?: number;
    /**
     * The server cancels a statement that runs longer, the wait for the log's lock included, and a node that stays
     * this long inside a transaction loses its connection (so a frozen node cannot hold the log's lock); the call
     * fails with `STORE_UNAVAILABLE`. Default 5000 ms.
     */
    readonly statementTimeoutMs?: number;
    /**
     * A call whose answer has not come this long after it was sent (a hung server, a network dropping packets)
     * fails with `STORE_UNAVAILABLE` and its connection is dropped. Default 10000 ms: longer than the statement
     * timeout, so that a slow statement is cancelled by the server first.
     */
    readonly queryTimeoutMs?: number;
  };
  /**
   * Where the store tells the operator, in one line each, that the database became unreachable (naming it, by its
   * redacted URL, and the cause) and that it answers again. Errors and health details, which clients may see, name
   * neither. Default: nowhere.
   */
  readonly log?: (message: string) => void;
}

/** What `/readyz` and `clockchain/status` report about the store. */
export interface StoreHealth {
  readonly kind: "postgres";
  readonly reachable: boolean;
  /** "applied" when the schema is this code's, "pending" before the first open migrated it, "unknown" when unreachable (or newer than this code). */
  readonly migrations: "applied" | "pending" | "unknown";
  /** Round trip of the check, when the database answered. */
  readonly latency_ms?: number;
  /** Why it is not healthy, without the database's address (a probe's answer is public; the log has the details). */
  readonly detail?: string;
}

/** The service's seams over one PostgreSQL database, plus what operations need. */
export interface PostgresStore {
  readonly log: LogStore;
  readonly challenges: ChallengeStore;
  /** Witnessing's state, shared by every node (a `shared` store: rounds take turns, saves merge). */
  readonly witnessing: WitnessingStore;
  readonly nodeId: string;
  health(): Promise<StoreHealth>;
  /** Waits for appends in flight, then ends the pool. Idempotent. */
  close(): Promise<void>;
}

/** A health check that takes longer than this reports the database unreachable rather than holding `/readyz`. */
const HEALTH_TIMEOUT_MS = 2_000;

/**
 * The store for a database. Nothing is connected yet: the schema is migrated (safely when several nodes start
 * at once) by the first `log.open()` or challenge call. Throws `INVALID_ARGUMENT` for a URL that is not a
 * `postgres:` or `postgresql:` URL, or whose timeout parameters (`?statement_timeout=...`) are not whole milliseconds.
 */
export function openPostgresStore(options: PostgresStoreOptions): PostgresStore {
  const name = checkedName(options.url);
  const nodeId = options.nodeId ?? `${hostname()}-${process.pid}`;
  const statementTimeoutMs = options.pool?.statementTimeoutMs ?? 5_000;
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.pool?.max ?? 10,
    connectionTimeoutMillis: options.pool?.connectionTimeoutMs ?? 5_000,
    application_name: `temporal-service ${nodeId}`.slice(0, 63),
    // TCP keepalive: a connection whose peer vanished without a reset (a partition, a dead host) is found broken and dropped.
    keepAlive: true,
    // Probing after 10 s of silence rather than the system's default (often two hours), so a partition is found in about a minute.
    keepAliveInitialDelayMillis: 10_000,
    // Without these a hung database would hang requests forever. The URL's own parameters of the same names win (pg reads them last).
    statement_timeout: statementTimeoutMs,
    idle_in_transaction_session_timeout: statementTimeoutMs,
    query_timeout: options.pool?.queryTimeoutMs ?? 10_000,
  });
  const db = new Database(pool, name, nodeId, options.log ?? (() => {}));
  const log = new PostgresLogStore(db);
  let closing: Promise<void> | undefined;
  return {
    log,
    challenges: new PostgresChallengeStore(db),
    witnessing: new PostgresWitnessingStore(db),
    nodeId,
    health: () => health(db),
    close: () =>
      (closing ??= (async () => {
        await log.close();
        await db.close();
      })()),
  };
}

/**
 * The URL's parameters that pg reads as milliseconds (README: they win over the options), each with its least value.
 * pg takes their leading digits (`parseInt`), so `15s` or `1e3` would silently be 15 ms or 1 ms, and `abc` a query
 * timeout that expires at once. The server's three take 0 for no limit; `query_timeout` is pg's own timer, which
 * takes the text "0" for a timeout of 0 ms, so it is at least 1.
 */
const MILLISECOND_PARAMETERS: readonly (readonly [string, number])[] = [
  ["statement_timeout", 0],
  ["lock_timeout", 0],
  ["idle_in_transaction_session_timeout", 0],
  ["query_timeout", 1],
];
/** The URL parameters that name files pg reads (libpq's names, which pg takes too). */
const SSL_FILE_PARAMETERS = ["sslrootcert", "sslcert", "sslkey"];
/** PostgreSQL's largest timeout (a 32-bit signed integer of milliseconds). */
const MAX_MILLISECONDS = 2_147_483_647;

/** The redacted URL, once the URL is a PostgreSQL URL whose timeout parameters are whole numbers of milliseconds. */
function checkedName(url: string): string {
  const name = redactUrl(url);
  const parsed = parsePostgresUrl(url);
  if (parsed?.protocol !== "postgres:" && parsed?.protocol !== "postgresql:") {
    throw new TemporalTypeError("INVALID_ARGUMENT", `the store URL ${name} is not a PostgreSQL URL: give postgres://user@host:5432/database`);
  }
  // pg reads these files when it connects, and fails every connection with a bare ENOENT when one is missing.
  for (const parameter of SSL_FILE_PARAMETERS) {
    for (const file of parsed.searchParams.getAll(parameter)) {
      try {
        accessSync(file, constants.R_OK);
      } catch (error) {
        throw new TemporalTypeError("INVALID_ARGUMENT", `the store URL ${name} has ${parameter}=${file}, which cannot be read: ${describeIoError(error)}`);
      }
    }
  }
  for (const [parameter, least] of MILLISECOND_PARAMETERS) {
    // Every value: pg takes the last of a repeated parameter.
    for (const value of parsed.searchParams.getAll(parameter)) {
      if (/^\d+$/.test(value) && Number(value) >= least && Number(value) <= MAX_MILLISECONDS) continue;
      throw new TemporalTypeError(
        "INVALID_ARGUMENT",
        `the store URL ${name} has ${parameter}=${value}: give a whole number of milliseconds from ${least} to ${MAX_MILLISECONDS}, e.g. ${parameter}=15000${least === 0 ? " (0 for no limit)" : ""}`,
      );
    }
  }
  return name;
}

async function health(db: Database): Promise<StoreHealth> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${HEALTH_TIMEOUT_MS} ms`)), HEALTH_TIMEOUT_MS)));
  try {
    const version = await Promise.race([appliedVersion(db.pool), timeout]);
    db.answered();
    const latency_ms = Math.round((performance.now() - started) * 10) / 10;
    if (version > LATEST_VERSION)
      return { kind: "postgres", reachable: true, migrations: "unknown", latency_ms, detail: `schema version ${version} is newer than this node's ${LATEST_VERSION}` };
    return { kind: "postgres", reachable: true, migrations: version === LATEST_VERSION ? "applied" : "pending", latency_ms };
  } catch (error) {
    const latency_ms = Math.round((performance.now() - started) * 10) / 10;
    // 42P01: schema_migrations does not exist yet, so the database answered but was never migrated.
    if ((error as { code?: unknown }).code === "42P01") return { kind: "postgres", reachable: true, migrations: "pending", latency_ms };
    // For its log line: an outage found by a probe is told to the operator like one found by a request.
    db.failure(error);
    return { kind: "postgres", reachable: false, migrations: "unknown", detail: `the database cannot be reached (${reasonOf(error)})` };
  } finally {
    clearTimeout(timer);
  }
}
