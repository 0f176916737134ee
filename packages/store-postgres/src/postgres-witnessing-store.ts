import { TemporalError, isWitnessingRecord, mergeWitnessingRecords, type SharedWitnessingStore, type WitnessingRecord, type WitnessingStore } from "@temporal/agent-sdk";
import type { Database } from "./database.js";
import { WITNESSING_ROUND_LOCK } from "./migrations.js";
import { isUnavailable } from "./store-errors.js";

/**
 * Witnessing's state in PostgreSQL, one row shared by every node, so that they agree on which anchors are `FINAL`
 * and on the witnesses' sizes. A save merges into the row under its lock (`mergeWitnessingRecords`: the cosigned
 * checkpoint of a tile only moves forward, a witness's size never goes back), in one transaction; rounds take turns
 * under an advisory lock, so a witness gets each checkpoint once, from the size the last round (any node's) left.
 */
export class PostgresWitnessingStore implements WitnessingStore, SharedWitnessingStore {
  readonly #db: Database;
  readonly shared: SharedWitnessingStore = this;

  constructor(db: Database) {
    this.#db = db;
  }

  async load(): Promise<WitnessingRecord | undefined> {
    await this.#db.migrated();
    const { rows } = await this.#db.query<{ record: unknown }>("SELECT record FROM witnessing_state WHERE id = 1");
    const record = rows[0]?.record;
    if (record === undefined) return undefined;
    if (!isWitnessingRecord(record)) throw new TemporalError("WITNESS_STATE_FAILED", 'the witnessing state in PostgreSQL (table witnessing_state) lacks "cosigned", "witnesses" or "forks"');
    return record;
  }

  async save(record: WitnessingRecord): Promise<void> {
    await this.#db.migrated();
    await this.#db.session(async (client) => {
      // The row exists before it is locked, so two first saves queue on its lock rather than both inserting.
      await client.query("BEGIN");
      await client.query(`INSERT INTO witnessing_state (id, record, node_id) VALUES (1, '{"cosigned":[],"witnesses":{},"forks":[]}', $1) ON CONFLICT (id) DO NOTHING`, [this.#db.nodeId]);
      const { rows } = await client.query<{ record: unknown }>("SELECT record FROM witnessing_state WHERE id = 1 FOR UPDATE");
      const stored = rows[0]?.record;
      const merged = mergeWitnessingRecords(isWitnessingRecord(stored) ? stored : undefined, record);
      await client.query("UPDATE witnessing_state SET record = $1, node_id = $2, saved_at = now() WHERE id = 1", [JSON.stringify(merged), this.#db.nodeId]);
      await client.query("COMMIT");
    });
  }

  /**
   * Runs `round` holding the session-level advisory lock `WITNESSING_ROUND_LOCK` on one connection (kept out of any
   * transaction: a round waits on witnesses for seconds); undefined when another node holds it. A node that dies
   * mid-round loses its connection, and PostgreSQL releases the lock with it.
   */
  async exclusively<T>(round: () => Promise<T>): Promise<T | undefined> {
    await this.#db.migrated();
    return this.#db.session(async (client) => {
      const { rows } = await client.query<{ locked: boolean }>(`SELECT pg_try_advisory_lock(${WITNESSING_ROUND_LOCK}) AS locked`);
      if (rows[0]?.locked !== true) return undefined;
      try {
        return await round();
      } finally {
        // A lost connection released the lock already; unlocking it would only fail again.
        await client.query(`SELECT pg_advisory_unlock(${WITNESSING_ROUND_LOCK})`).catch((error: unknown) => {
          if (!isUnavailable(error)) throw error;
        });
      }
    });
  }
}
