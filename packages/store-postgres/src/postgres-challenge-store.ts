import type { ChallengeStore } from "@temporal/agent-sdk";
import type { Database } from "./database.js";

/** Expired challenges deleted by each `add`: more than one, so purging outpaces issuing; bounded, so an add stays cheap. */
const PURGE_PER_ADD = 100;

/**
 * Outstanding challenges in PostgreSQL, shared by every node: a challenge issued by one node can be used once
 * at any node. `take` is a single `DELETE ... RETURNING`, so two nodes taking the same nonce at once cannot
 * both succeed.
 */
export class PostgresChallengeStore implements ChallengeStore {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  async add(nonce: string, expiresUnixMs: number, nowUnixMs: number): Promise<void> {
    await this.#db.migrated();
    // SKIP LOCKED: two nodes purging at once delete different rows rather than wait for each other.
    await this.#db.query(
      `WITH purged AS (
         DELETE FROM challenges WHERE nonce IN (SELECT nonce FROM challenges WHERE expires_unix_ms <= $3 ORDER BY expires_unix_ms LIMIT ${PURGE_PER_ADD} FOR UPDATE SKIP LOCKED)
       )
       INSERT INTO challenges (nonce, expires_unix_ms) VALUES ($1, $2) ON CONFLICT (nonce) DO NOTHING`,
      [nonce, expiresUnixMs, nowUnixMs],
    );
  }

  /** Deletes the nonce whether it is still valid or expired (an expired one is of no further use); true only when it was valid. */
  async take(nonce: string, nowUnixMs: number): Promise<boolean> {
    await this.#db.migrated();
    const { rows } = await this.#db.query<{ valid: boolean }>("DELETE FROM challenges WHERE nonce = $1 RETURNING expires_unix_ms > $2 AS valid", [nonce, nowUnixMs]);
    return rows[0]?.valid === true;
  }

  /** The pool is the store's: `PostgresStore.close()` ends it. */
  async close(): Promise<void> {}
}
