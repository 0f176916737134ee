import { TemporalError } from "@temporal/agent-sdk";
import type pg from "pg";

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/**
 * The schema, as numbered steps applied in order, each once. Never edit a released step: add the next one.
 * The log's records are the source of truth (each one group commit, as the file ledger keeps them); leaves and
 * checkpoints are indexed beside them so that the database itself refuses a fork (two leaves at one index of a
 * tile, two heads at one sequence) or a receipt anchored twice, whatever a writer does.
 * Steps run without the statement timeout, but each statement within the client's query timeout (10 s unless the
 * store's options or URL say otherwise): a step that takes longer needs its release notes to say to raise it.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "clockchain and challenges",
    sql: `
      CREATE TABLE log_records (
        seq bigint PRIMARY KEY CHECK (seq >= 0),
        body text NOT NULL,
        node_id text NOT NULL,
        committed_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE log_leaves (
        tile_id bigint NOT NULL,
        leaf_index bigint NOT NULL,
        receipt_hash text NOT NULL UNIQUE,
        record_seq bigint NOT NULL REFERENCES log_records (seq),
        PRIMARY KEY (tile_id, leaf_index)
      );
      CREATE TABLE log_checkpoints (
        sequence bigint PRIMARY KEY,
        tile_id bigint NOT NULL,
        tree_size bigint NOT NULL,
        root_hash text NOT NULL,
        note text NOT NULL,
        record_seq bigint NOT NULL REFERENCES log_records (seq),
        UNIQUE (tile_id, tree_size)
      );
      CREATE TABLE challenges (
        nonce text PRIMARY KEY,
        expires_unix_ms bigint NOT NULL
      );
      CREATE INDEX challenges_expiry ON challenges (expires_unix_ms);
    `,
  },
  {
    version: 2,
    name: "witnessing state",
    // One row: witnessing's record (docs/witness.md), merged by each node's save under the row's lock.
    sql: `
      CREATE TABLE witnessing_state (
        id smallint PRIMARY KEY CHECK (id = 1),
        record jsonb NOT NULL,
        node_id text NOT NULL,
        saved_at timestamptz NOT NULL DEFAULT now()
      );
    `,
  },
];

export const LATEST_VERSION = MIGRATIONS.at(-1)?.version ?? 0;

/** Any constant shared by every node: the key of the transaction-level advisory lock the migrations run under. */
export const MIGRATION_LOCK = 0x7465_6d70;

/** The session-level advisory lock a node holds while it submits checkpoints to the witnesses: one node's round at a time. */
export const WITNESSING_ROUND_LOCK = 0x7465_6d71;

/**
 * Applies the missing migrations inside the caller's transaction, which must hold the advisory lock `MIGRATION_LOCK`
 * so that nodes starting together on an empty database take turns: the first applies them, the others then find
 * them applied.
 * `STORE_SCHEMA_NEWER` when the database was migrated by newer code.
 */
export async function migrate(client: pg.ClientBase): Promise<void> {
  await client.query("CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())");
  const applied = await appliedVersion(client);
  if (applied > LATEST_VERSION) {
    throw new TemporalError(
      "STORE_SCHEMA_NEWER",
      `the PostgreSQL database has schema version ${applied}, newer than the ${LATEST_VERSION} this node knows: upgrade this node to the version the others run`,
    );
  }
  for (const migration of MIGRATIONS.filter(({ version }) => version > applied)) {
    await client.query(migration.sql);
    await client.query("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", [migration.version, migration.name]);
  }
}

/** The highest migration applied; 0 for an empty database. Throws (`42P01`) when `schema_migrations` does not exist. */
export async function appliedVersion(client: pg.ClientBase | pg.Pool): Promise<number> {
  const { rows } = await client.query<{ version: number | null }>("SELECT max(version) AS version FROM schema_migrations");
  return rows[0]?.version ?? 0;
}
