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
  type PendingSignature,
  type RecordBody,
  type SignedCheckpoint,
  type SignedHeads,
  type StagedLeaf,
  type VerifyingKey,
} from "@temporal/agent-sdk";
import type pg from "pg";
import type { Database } from "./database.js";
import { sqlInteger, sqlText } from "./sql-literals.js";

/** Held (per transaction) by every append, on every node: one writer at a time extends the log. */
export const LOG_LOCK = 0x7465_6d71;
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

  /**
   * Refused once `close()` was called; an append called before it is completed by it. In two round trips: the
   * transaction, the lock and the catch-up in the first; the record and the COMMIT in the second. The anchors
   * that reach this node while it waits for the lock (another node is appending) join the batch (`joining`).
   */
  async append(entries: readonly LogEntry[], signing: HeadSigning, joining?: () => readonly LogEntry[]): Promise<AnchorProof[]> {
    this.#assertOpen();
    return this.#exclusive.run(async () => {
      const { keys, state } = this.#current();
      let batch = entries;
      let leaves: StagedLeaf[] = [];
      let signed: SignedHeads | undefined;
      try {
        await this.#db.session(async (client) => {
          // The lock is held until COMMIT or ROLLBACK (or the connection's end); the catch-up runs once it is held.
          const [, , firstPage] = (await client.query(`BEGIN; SELECT pg_advisory_xact_lock(${LOG_LOCK}); ${catchUpQuery(state.records)}`)) as unknown as pg.QueryResult<RecordRow>[];
          const { signatures } = await this.#replay(client, state, keys, firstPage?.rows);
          if (joining !== undefined) batch = [...entries, ...joining()];
          leaves = state.stage(batch);
          if (leaves.length === 0) {
            await signatures;
            await client.query("ROLLBACK");
            return;
          }
          // The other nodes' heads are verified while this node signs its own: the lock is held for one of the two.
          [signed] = await Promise.all([state.signHeads(leaves, signing), signatures]);
          await client.query(`${insertRecord(state.records, leaves, signed.heads, this.#db.nodeId)}; COMMIT`);
        });
      } catch (error) {
        // Rolled back (or, if the COMMIT was lost with the connection, possibly committed: the next catch-up reads it back).
        state.unstage(leaves);
        throw error;
      }
      // Published only once committed: readers never see leaves a rollback could take back.
      if (signed !== undefined) state.publish(leaves, signed);
      return batch.map((entry) => state.proof(entry.hash) as AnchorProof);
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

  /** Replays the records the state lacks and waits for their checks (see `#replay`). */
  async #catchUp(db: pg.Pool | pg.PoolClient, state: ClockchainState, keys: LogKeys): Promise<void> {
    const { signatures } = await this.#replay(db, state, keys);
    await signatures;
  }

  /**
   * Replays the records the state lacks, from `firstPage` (the first page of them, when the caller read it
   * already) on, checking each (leaf order, chain links, roots) as it goes. Resolves once they are in the state,
   * with `signatures`: the check of the last page's head signatures by one of `keys`, still running, so that an append
   * signs its own heads meanwhile. Nothing may be written on top of the records before it resolves. A record that
   * fails leaves the store unusable: it is closed to further use until reopened.
   */
  async #replay(db: pg.Pool | pg.PoolClient, state: ClockchainState, keys: LogKeys, firstPage?: readonly RecordRow[]): Promise<{ readonly signatures: Promise<void> }> {
    let page = firstPage;
    for (;;) {
      const from = state.records;
      let rows: readonly RecordRow[];
      try {
        rows = page ?? (await db.query<RecordRow>(catchUpQuery(from))).rows;
      } catch (error) {
        throw this.#db.failure(error);
      }
      page = undefined;
      const checks: PendingSignature[] = [];
      try {
        for (const [i, row] of rows.entries()) {
          if (Number(row.seq) !== from + i) throw corrupt(from + i, `record ${from + i} is missing (the next one is ${row.seq})`);
          checks.push(...state.replay(JSON.parse(row.body) as RecordBody, keys, (reason, detail) => corrupt(Number(row.seq), `${reason}: ${detail}`)));
        }
      } catch (error) {
        // The records before this one are judged first, in order: a forged head among them is the log's fault and is
        // reported as such, rather than a later head's key this node lacks (LOG_KEY_UNKNOWN after another node rotated).
        await this.#verified(checks);
        throw this.#corrupted(error, from);
      }
      const signatures = this.#verified(checks);
      // Marked handled: a caller that fails before awaiting it must not turn a forged head into an unhandled rejection.
      signatures.catch(() => {});
      if (rows.length < CATCH_UP_PAGE) return { signatures };
      await signatures;
    }
  }

  /** Resolves once every head signature verified; otherwise the store is unusable and it rejects with why. */
  async #verified(checks: readonly PendingSignature[]): Promise<void> {
    const valid = await Promise.all(checks.map((check) => check.valid));
    const forged = valid.indexOf(false);
    if (forged >= 0) throw this.#corrupted(corrupt(-1, `the signature of head ${checks[forged]?.head.sequence} does not verify with key ${checks[forged]?.key.key_id}`), -1);
  }

  /** Closes the store to further use until `open()` verifies the log again (part of a record may be in the state); returns the error to throw. */
  #corrupted(error: unknown, from: number): TemporalError {
    this.#opened = undefined;
    this.#corrupt = error instanceof TemporalError ? error : corrupt(from, String(error));
    return this.#corrupt;
  }

  /** The opened state; whether the store is closed was checked when the call was made. */
  #current(): { keys: LogKeys; state: ClockchainState } {
    if (this.#corrupt !== undefined) throw this.#corrupt;
    if (this.#opened === undefined) throw new TemporalError("AUTHORITY_CLOSED", "the PostgreSQL log is not open: call open() first");
    return this.#opened;
  }

  #assertOpen(): void {
    if (this.#closed) throw new TemporalError("AUTHORITY_CLOSED", "the PostgreSQL log is closed");
  }
}

function corrupt(seq: number, detail: string): TemporalError {
  const where = seq >= 0 ? ` at record ${seq}` : "";
  return new TemporalError("LEDGER_CORRUPT", `the clockchain in the PostgreSQL database fails verification${where}: ${detail}; it has not been modified`);
}

/** A row of `log_records` as read back (pg returns bigint as a string). */
interface RecordRow {
  readonly seq: string;
  readonly body: string;
}

/** The page of records from `from` on, with no parameters, so that it can share a round trip with other statements. */
function catchUpQuery(from: number): string {
  return `SELECT seq, body FROM log_records WHERE seq >= ${sqlInteger(from)} ORDER BY seq LIMIT ${CATCH_UP_PAGE}`;
}

/** The record and its leaves and heads, with no parameters, so that they share the COMMIT's round trip. */
function insertRecord(seq: number, leaves: readonly StagedLeaf[], heads: readonly SignedCheckpoint[], nodeId: string): string {
  const record = `(${sqlInteger(seq)}, ${sqlText(JSON.stringify(ClockchainState.recordOf(leaves, heads)))}, ${sqlText(nodeId)})`;
  const leafRows = leaves.map((leaf) => `(${sqlInteger(leaf.tile.id)}, ${sqlInteger(leaf.leafIndex)}, ${sqlText(leaf.hash)}, ${sqlInteger(seq)})`);
  const headRows = heads.map(
    (head) => `(${sqlInteger(head.sequence)}, ${sqlInteger(head.tile_id)}, ${sqlInteger(head.tree_size)}, ${sqlText(head.root_hash)}, ${sqlText(head.note)}, ${sqlInteger(seq)})`,
  );
  return [
    `INSERT INTO log_records (seq, body, node_id) VALUES ${record}`,
    `INSERT INTO log_leaves (tile_id, leaf_index, receipt_hash, record_seq) VALUES ${leafRows.join(", ")}`,
    `INSERT INTO log_checkpoints (sequence, tile_id, tree_size, root_hash, note, record_seq) VALUES ${headRows.join(", ")}`,
  ].join("; ");
}
