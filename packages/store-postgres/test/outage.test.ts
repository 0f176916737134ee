import { MemorySigner, verifyAnchorProof, type AnchorProof } from "@temporal/agent-sdk";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { request, sharedKey, startNode, useTestPostgres, type TestNode } from "./nodes.js";

const { server, emptyDatabase } = useTestPostgres(1);

/** Anchors receipts numbered from `from` on the node until `until` says stop; keeps every proof acknowledged, counts failures by code. */
async function load(node: TestNode, from: number, until: () => boolean, acknowledged: AnchorProof[], failures: Map<string, number>): Promise<void> {
  for (let n = from; !until(); n += 4) {
    try {
      const receipts = await Promise.all([0, 1, 2, 3].map((i) => node.authority.issueReceipt(request(n + i))));
      acknowledged.push(...(await Promise.all(receipts.map((receipt) => node.authority.anchor(receipt)))));
    } catch (error) {
      const code = (error as { code?: string }).code ?? String(error);
      failures.set(code, (failures.get(code) ?? 0) + 1);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

/** Resolves once `done()` holds, polling; bounded so a broken store fails the test rather than hanging it. */
async function eventually(done: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`not done within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("PostgresStore: the database goes away", () => {
  it("runs on a real server with fsync on (the durability under test)", async () => {
    const client = new pg.Client({ connectionString: server().url });
    await client.connect();
    try {
      expect((await client.query<{ fsync: string }>("SHOW fsync")).rows).toEqual([{ fsync: "on" }]);
    } finally {
      await client.end();
    }
  });

  it("fails calls with STORE_UNAVAILABLE while PostgreSQL is down, recovers by itself, and loses nothing acknowledged", { timeout: 60_000 }, async () => {
    const url = emptyDatabase();
    const key = await sharedKey();
    const publicKey = (await new MemorySigner({ privateKey: key }).load()).verifying;
    const logged: string[] = [];
    const nodes = [startNode(url, key, "node-a", Date.now, { log: (line) => logged.push(line) }), startNode(url, key, "node-b")];
    const [a, b] = nodes as [TestNode, TestNode];
    try {
      const acknowledged: AnchorProof[] = [];
      const failures = new Map<string, number>();
      let stop = false;
      const running = nodes.map((node, i) => load(node, i * 100_000, () => stop, acknowledged, failures));

      // A crash under load: the server dies with its backends, so commits in flight are cut off.
      await eventually(() => acknowledged.length >= 40);
      await server().kill();
      const before = acknowledged.length;
      expect(before).toBeGreaterThan(0);
      // A node starting while the database is down: its authority's first use fails, and is tried again by the next.
      const late = startNode(url, key, "node-c");
      nodes.push(late);
      await expect(late.authority.ready()).rejects.toMatchObject({ code: "STORE_UNAVAILABLE" });
      const receipt = await a.authority.issueReceipt(request(999_999));
      // What a client sees (the service's 503) names no host; the operator's log says which database and why, once.
      const refused = (await a.authority.anchor(receipt).catch((error: unknown) => error)) as Error;
      expect(refused).toMatchObject({ code: "STORE_UNAVAILABLE" });
      expect(refused.message).not.toMatch(/127\.0\.0\.1|postgres:\/\//);
      expect(logged).toEqual([expect.stringMatching(new RegExp(`^PostgreSQL postgres://postgres@127\\.0\\.0\\.1:${server().port}/\\w+ cannot be used: `))]);
      await expect(b.authority.getAnchorProof(acknowledged[0]!.receipt_hash)).rejects.toMatchObject({ code: "STORE_UNAVAILABLE" });
      await expect(b.authority.issueChallenge()).rejects.toMatchObject({ code: "STORE_UNAVAILABLE" });
      expect(await a.store.health()).toMatchObject({ kind: "postgres", reachable: false, migrations: "unknown", detail: expect.not.stringMatching(/127\.0\.0\.1|postgres:\/\//) });
      expect(a.store.log.failure).toBeUndefined();
      expect(a.authority.failed).toBe(false);

      // Back (crash recovery from the WAL), then a clean restart under load.
      await server().start();
      await late.authority.ready();
      await eventually(() => acknowledged.length >= before + 40);
      await server().restart();
      const restarted = acknowledged.length;
      await eventually(() => acknowledged.length >= restarted + 40);
      stop = true;
      await Promise.all(running);
      expect(acknowledged.length).toBeGreaterThan(before);
      expect([...failures.keys()].every((code) => code === "STORE_UNAVAILABLE")).toBe(true);

      // Nothing acknowledged was lost, on either node, and the log has no gap.
      expect(await a.store.health()).toMatchObject({ reachable: true, migrations: "applied" });
      expect(logged.at(-1)).toMatch(/ answers again$/);
      const proof = await a.authority.anchor(receipt);
      expect(await late.authority.anchor(receipt)).toMatchObject({ tile_id: proof.tile_id, leaf_index: proof.leaf_index });
      for (const proof of acknowledged) {
        const fromB = await b.authority.getAnchorProof(proof.receipt_hash);
        expect(fromB).toMatchObject({ tile_id: proof.tile_id, leaf_index: proof.leaf_index });
        expect(await verifyAnchorProof(fromB!, publicKey)).toBe(true);
      }
      const status = await b.authority.clockchainStatus();
      expect(status.chain_valid).toBe(true);
      expect(await a.authority.clockchainStatus()).toEqual(status);
      expect(await late.authority.clockchainStatus()).toEqual(status);
    } finally {
      await Promise.all(nodes.map((node) => node.close()));
    }
  });
});
