import {
  ClockchainState,
  LogKeys,
  SerialQueue,
  TemporalError,
  type AnchorPage,
  type AnchorProof,
  type AnchorSummary,
  type ConsistencyProof,
  type HeadSigning,
  type LogEntry,
  type LogStatus,
  type LogStore,
  type RecordBody,
  type SignedCheckpoint,
  type SignedHeads,
  type StagedLeaf,
  type VerifyingKey,
} from "@temporal/agent-sdk";
import type pg from "pg";
import type { Database } from "./database.js";
import { storeError } from "./store-errors.js";

/** Held (per transaction) by every append, on every node: one writer at a time extends the log. */
const LOG_LOCK = 0x7465_6d71;
/** Records read per query when catching up, bounding the memory a long catch-up (a node's first open) needs. */
const CATCH_UP_PAGE = 500;

/**
 * The clockchain in PostgreSQL, shared by every node on the database. The log is a sequence of records (one
 * group commit each: its anchors and one signed head per tile it touches), numbered 0, 1, 2, ... Each node keeps
 * the SDK's `ClockchainState` in memory and, before every use, catches it up with the records other nodes
 * committed since, verifying each as the file store verifies its ledger. An append holds a transaction-level
 * advisory lock while it catches up, extends the state and inserts the next record, so every append extends
 * the latest log whoever wrote it: one sequence of leaves per tile, no fork, no gap. The primary keys (record
 * number, tile leaf, head sequence) and the unique receipt hash make the database refuse a fork even so.
 */
export class PostgresLogStore implements LogStore {
  readonly kind = "postgres";
  /** Why the log was found corrupt or signed by keys this node lacks (a failed append is rolled back by the database, so nothing is left to undo). */
  get failure(): TemporalError | undefined {
    return this.#corrupt;
  }
  readonly #db: Database;
  /** Appends and catch-ups change the state: one at a time. */
  readonly #exclusive = new SerialQueue();
  #opened: { keys: LogKeys; state: ClockchainState } | undefined;
  /** Why the log was found corrupt: every call rejects with it until `open()` verifies the log again. */
  #corrupt: TemporalError | undefined;
  /** A catch-up queued and not yet started, which every read arriving meanwhile joins. */
  #refresh: Promise<ClockchainState> | undefined;
  #closed = false;

  constructor(db: Database) {
    this.#db = db;
  }

  /** Migrates the schema if needed, then reads and verifies the whole log against `key` and the retired `previousKeys`. */
  async open(key: VerifyingKey, previousKeys: readonly VerifyingKey[] = []): Promise<void> {
    this.#assertOpen();
    await this.#db.migrated();
    const keys = new LogKeys(key, previousKeys);
    await this.#exclusive.run(async () => {
      if (this.#opened?.keys.equals(keys)) return;
      const state = new ClockchainState();
      await this.#catchUp(this.#db.pool, state, keys);
      this.#opened = { keys, state };
      this.#corrupt = undefined;
    });
  }

  /** Refused once `close()` was called; an append called before it is completed by it. */
  async append(entries: readonly LogEntry[], signing: HeadSigning): Promise<AnchorProof[]> {
    this.#assertOpen();
    return this.#exclusive.run(async () => {
      const { keys, state } = this.#current();
      let leaves: StagedLeaf[] = [];
      let signed: SignedHeads | undefined;
      try {
        await this.#db.transaction(
          async (client) => {
            await this.#catchUp(client, state, keys);
            leaves = state.stage(entries);
            if (leaves.length === 0) return;
            signed = await state.signHeads(leaves, signing);
            await insertRecord(client, state.records, leaves, signed.heads, this.#db.nodeId);
          },
          { advisoryLock: LOG_LOCK },
        );
      } catch (error) {
        // Rolled back (or, if the COMMIT was lost with the connection, possibly committed: the next catch-up reads it back).
        state.unstage(leaves);
        throw error;
      }
      // Published only once committed: readers never see leaves a rollback could take back.
      if (signed !== undefined) state.publish(leaves, signed);
      return entries.map((entry) => state.proof(entry.hash) as AnchorProof);
    });
  }

  async proof(receiptHash: string): Promise<AnchorProof | undefined> {
    return (await this.#fresh()).proof(receiptHash);
  }

  async list(tileId: number): Promise<AnchorSummary[]> {
    return (await this.#fresh()).list(tileId);
  }

  async page(tileId: number, offset: number, limit: number): Promise<AnchorPage> {
    return (await this.#fresh()).page(tileId, offset, limit);
  }

  async consistencyProof(tileId: number, first: number, second: number): Promise<ConsistencyProof> {
    return (await this.#fresh()).consistencyProof(tileId, first, second);
  }

  async headHashAt(sequence: number): Promise<string | undefined> {
    return (await this.#fresh()).headHashAt(sequence);
  }

  async status(): Promise<LogStatus> {
    const state = await this.#fresh();
    return { records: state.records, tiles: state.tiles(), anchors: state.anchors, last_checkpoint: state.lastCheckpoint, chain_valid: state.chainIntact, recovered: undefined };
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#exclusive.idle();
  }

  /**
   * The state caught up with every record committed before this call, so that any node answers for what any
   * node acknowledged. Reads arriving while a catch-up waits to start share it; one already running may have
   * missed their records, so they queue the next.
   */
  #fresh(): Promise<ClockchainState> {
    this.#assertOpen();
    return (this.#refresh ??= this.#exclusive.run(async () => {
      this.#refresh = undefined;
      const { keys, state } = this.#current();
      await this.#catchUp(this.#db.pool, state, keys);
      return state;
    }));
  }

  /**
   * Replays the records the state lacks, verifying each (leaf order, chain links, roots, head signatures by
   * one of `keys`). A record that fails leaves the store unusable: it is closed to further use until reopened.
   */
  async #catchUp(db: pg.Pool | pg.PoolClient, state: ClockchainState, keys: LogKeys): Promise<void> {
    for (;;) {
      const from = state.records;
      let rows: { seq: string; body: string }[];
      try {
        ({ rows } = await db.query<{ seq: string; body: string }>("SELECT seq, body FROM log_records WHERE seq >= $1 ORDER BY seq LIMIT $2", [from, CATCH_UP_PAGE]));
      } catch (error) {
        throw storeError(error, this.#db.name);
      }
      try {
        const checks = rows.flatMap((row, i) => {
          if (Number(row.seq) !== from + i) throw corrupt(this.#db.name, from + i, `record ${from + i} is missing (the next one is ${row.seq})`);
          return state.replay(JSON.parse(row.body) as RecordBody, keys, (reason, detail) => corrupt(this.#db.name, Number(row.seq), `${reason}: ${detail}`));
        });
        const valid = await Promise.all(checks.map((check) => check.valid));
        const forged = valid.indexOf(false);
        if (forged >= 0) throw corrupt(this.#db.name, -1, `the signature of head ${checks[forged]?.head.sequence} does not verify with key ${checks[forged]?.key.key_id}`);
      } catch (error) {
        // Part of a record may be in the state: it must be read again from the start.
        this.#opened = undefined;
        this.#corrupt = error instanceof TemporalError ? error : corrupt(this.#db.name, from, String(error));
        throw this.#corrupt;
      }
      if (rows.length < CATCH_UP_PAGE) return;
    }
  }

  /** The opened state; whether the store is closed was checked when the call was made. */
  #current(): { keys: LogKeys; state: ClockchainState } {
    if (this.#corrupt !== undefined) throw this.#corrupt;
    if (this.#opened === undefined) throw new TemporalError("AUTHORITY_CLOSED", `the PostgreSQL log ${this.#db.name} is not open: call open() first`);
    return this.#opened;
  }

  #assertOpen(): void {
    if (this.#closed) throw new TemporalError("AUTHORITY_CLOSED", `the PostgreSQL log ${this.#db.name} is closed`);
  }
}

function corrupt(database: string, seq: number, detail: string): TemporalError {
  const where = seq >= 0 ? ` at record ${seq}` : "";
  return new TemporalError("LEDGER_CORRUPT", `the clockchain in PostgreSQL ${database} fails verification${where}: ${detail}; it has not been modified`);
}

/** The record and its leaves and heads, in one statement (one round trip inside the append's transaction). */
async function insertRecord(client: pg.PoolClient, seq: number, leaves: readonly StagedLeaf[], heads: readonly SignedCheckpoint[], nodeId: string): Promise<void> {
  await client.query(
    `WITH record AS (INSERT INTO log_records (seq, body, node_id) VALUES ($1, $2, $3)),
          leaves AS (INSERT INTO log_leaves (tile_id, leaf_index, receipt_hash, record_seq)
                     SELECT tile_id, leaf_index, receipt_hash, $1 FROM unnest($4::bigint[], $5::bigint[], $6::text[]) AS leaf (tile_id, leaf_index, receipt_hash))
     INSERT INTO log_checkpoints (sequence, tile_id, tree_size, root_hash, note, record_seq)
     SELECT sequence, tile_id, tree_size, root_hash, note, $1 FROM unnest($7::bigint[], $8::bigint[], $9::bigint[], $10::text[], $11::text[]) AS head (sequence, tile_id, tree_size, root_hash, note)`,
    [
      seq,
      JSON.stringify(ClockchainState.recordOf(leaves, heads)),
      nodeId,
      leaves.map((leaf) => leaf.tile.id),
      leaves.map((leaf) => leaf.leafIndex),
      leaves.map((leaf) => leaf.hash),
      heads.map((head) => head.sequence),
      heads.map((head) => head.tile_id),
      heads.map((head) => head.tree_size),
      heads.map((head) => head.root_hash),
      heads.map((head) => head.note),
    ],
  );
}
