import { TemporalError } from "@temporal/agent-sdk";
import pg from "pg";
import { MIGRATION_LOCK, migrate } from "./migrations.js";
import { describeCause, isUnavailable, storeError } from "./store-errors.js";

/**
 * The pool the two stores share, with what every call needs: transactions that never leave a broken connection
 * in the pool, errors mapped to `STORE_UNAVAILABLE` while the server is out of reach (each outage told to the
 * operator's log once, with the database's name and the cause), the migrations run once.
 */
export class Database {
  readonly pool: pg.Pool;
  /** The URL with its password redacted: only the operator's log carries it, never a message a client may see. */
  readonly name: string;
  readonly nodeId: string;
  readonly #report: (message: string) => void;
  #migrated: Promise<void> | undefined;
  #closed = false;
  /** Set once the database answered: until then a failure fails the start, which reports it itself. */
  #answered = false;
  /** Whether the database was last found out of reach, so that an outage is logged once, and its end. */
  #unavailable = false;

  constructor(pool: pg.Pool, name: string, nodeId: string, report: (message: string) => void) {
    this.pool = pool;
    this.name = name;
    this.nodeId = nodeId;
    this.#report = report;
    // An idle client whose server went away emits "error"; the pool then drops it. Unheard, the event would end the process.
    pool.on("error", () => {});
  }

  /**
   * The schema up to date, once per store; a failed attempt (server down) is retried by the next call. In one
   * transaction holding the advisory lock `MIGRATION_LOCK` (nodes starting together take turns), without a
   * statement timeout: a migration over a large table, and the others' wait for it, may take longer than a request.
   */
  migrated(): Promise<void> {
    this.assertOpen();
    return (this.#migrated ??= this.session(async (client) => {
      await client.query(`BEGIN; SET LOCAL statement_timeout = 0; SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
      await migrate(client);
      await client.query("COMMIT");
    }).catch((error: unknown) => {
      this.#migrated = undefined;
      throw error;
    }));
  }

  /** One statement on any pooled connection (pg discards a connection that failed). */
  async query<Row extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<Row>> {
    this.assertOpen();
    try {
      const result = await this.pool.query<Row>(text, values);
      this.answered();
      return result;
    } catch (error) {
      throw this.failure(error);
    }
  }

  /**
   * Runs `task` on one connection; the task begins and commits its transaction itself (so that it can send those
   * statements in the same round trip as others: `BEGIN; SELECT pg_advisory_xact_lock(...)`, `...; COMMIT`). Any failure rolls back; a connection that failed (or whose
   * rollback did) is destroyed rather than returned to the pool. When the COMMIT itself is lost with the
   * connection, whether it took effect is unknown: callers must read the database again before relying on what
   * they wrote (the log store does: it catches up before every use).
   */
  async session<T>(task: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    this.assertOpen();
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw this.failure(error);
    }
    // A checked-out client gets no listener from the pool: a server crash between two queries would emit an unheard "error".
    const ignore = (): void => {};
    client.on("error", ignore);
    let broken: Error | undefined;
    try {
      const result = await task(client);
      this.answered();
      return result;
    } catch (error) {
      broken = isUnavailable(error) ? (error as Error) : await rollback(client);
      throw this.failure(error);
    } finally {
      client.removeListener("error", ignore);
      client.release(broken);
    }
  }

  /** The error to throw for `error` (see `storeError`); an outage's first failure is logged, naming the database and the cause. */
  failure(error: unknown): unknown {
    const mapped = storeError(error);
    if (mapped !== error && this.#answered && !this.#unavailable) {
      this.#unavailable = true;
      this.#report(`PostgreSQL ${this.name} cannot be used: ${describeCause(error)}`);
    }
    return mapped;
  }

  /** Notes that the database answered; logs the end of an outage. */
  answered(): void {
    this.#answered = true;
    if (!this.#unavailable) return;
    this.#unavailable = false;
    this.#report(`PostgreSQL ${this.name} answers again`);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.pool.end();
  }

  assertOpen(): void {
    if (this.#closed) throw new TemporalError("AUTHORITY_CLOSED", "the PostgreSQL store is closed");
  }
}

/** Rolls back (a no-op outside a transaction); resolves with the error when that failed (the connection is then not fit for reuse). */
async function rollback(client: pg.PoolClient): Promise<Error | undefined> {
  try {
    await client.query("ROLLBACK");
    return undefined;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}
