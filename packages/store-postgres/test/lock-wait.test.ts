import { receiptHash } from "@temporal/agent-sdk";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { LOG_LOCK } from "../src/postgres-log-store.js";
import { request, sharedKey, startNode, useTestPostgres } from "./nodes.js";

const { server, emptyDatabase } = useTestPostgres(2);

/** Another session holding the log's lock, as a node in the middle of an append (or a frozen one) does. */
async function holdLogLock(url: string): Promise<{ waiting(): Promise<number>; release(): Promise<void> }> {
  const holder = new pg.Client({ connectionString: url });
  await holder.connect();
  await holder.query(`SELECT pg_advisory_lock(${LOG_LOCK})`);
  return {
    async waiting() {
      const { rows } = await holder.query<{ n: string }>("SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted");
      return Number(rows[0]?.n);
    },
    async release() {
      await holder.end();
    },
  };
}

async function until(done: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`not done within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("PostgresStore: waiting for the log's lock", () => {
  it("lets the anchors that arrive while an append waits for the lock join it: one record, one commit", { timeout: 30_000 }, async () => {
    const url = emptyDatabase();
    const node = startNode(url, await sharedKey(), "node-a");
    try {
      await node.authority.ready();
      const receipts = await Promise.all([0, 1, 2, 3, 4, 5, 6, 7].map((n) => node.authority.issueReceipt(request(n))));
      const lock = await holdLogLock(url);
      const first = node.authority.anchor(receipts[0]!);
      await until(async () => (await lock.waiting()) === 1);
      const later = receipts.slice(1).map((receipt) => node.authority.anchor(receipt));
      // A turn for the later anchors to reach the queue before the lock is given up.
      await new Promise((resolve) => setTimeout(resolve, 50));
      await lock.release();
      const proofs = await Promise.all([first, ...later]);

      expect(proofs.map((proof) => proof.receipt_hash)).toEqual(receipts.map((receipt) => receiptHash(receipt)));
      expect(await node.store.log.status()).toMatchObject({ records: 1, anchors: 8, chain_valid: true });
    } finally {
      await node.close();
    }
  });

  it("fails a call the database does not answer in time with STORE_UNAVAILABLE naming no host, logs the outage once, and recovers", { timeout: 30_000 }, async () => {
    const url = emptyDatabase();
    const key = await sharedKey();
    const logged: string[] = [];
    // The server cancels the wait (statement timeout); or, with that off, the client stops waiting (query timeout).
    const cancelled = startNode(url, key, "node-a", Date.now, { pool: { statementTimeoutMs: 1_000 }, log: (line) => logged.push(line) });
    const abandoned = startNode(url, key, "node-b", Date.now, { pool: { statementTimeoutMs: 0, queryTimeoutMs: 1_000 } });
    try {
      // One after the other: the migrations' lock is not what this test waits for.
      await abandoned.authority.ready();
      await cancelled.authority.ready();
      const [one, two, three] = await Promise.all([1, 2, 3].map((n) => cancelled.authority.issueReceipt(request(n))));
      const lock = await holdLogLock(url);
      const started = Date.now();
      const [statement, query] = await Promise.all([cancelled.authority.anchor(one!).catch((error: unknown) => error), abandoned.authority.anchor(two!).catch((error: unknown) => error)]);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(statement).toMatchObject({ code: "STORE_UNAVAILABLE", message: expect.stringContaining("statement timeout") });
      expect(query).toMatchObject({ code: "STORE_UNAVAILABLE", message: expect.stringContaining("no answer in time") });
      for (const error of [statement, query]) expect((error as Error).message).not.toMatch(/127\.0\.0\.1|postgres:|\d{4,5}\//);
      expect(logged).toEqual([expect.stringMatching(new RegExp(`^PostgreSQL postgres://postgres@127\\.0\\.0\\.1:${server().port}/\\w+ cannot be used: `))]);

      await lock.release();
      const proofs = await Promise.all([cancelled.authority.anchor(one!), abandoned.authority.anchor(two!), abandoned.authority.anchor(three!)]);
      expect(proofs).toHaveLength(3);
      expect(logged).toHaveLength(2);
      expect(logged[1]).toMatch(/ answers again$/);
      expect(await cancelled.store.log.status()).toMatchObject({ anchors: 3, chain_valid: true });
    } finally {
      await Promise.all([cancelled.close(), abandoned.close()]);
    }
  });
});
