import {
  GENESIS_CHECKPOINT_HASH,
  MemorySigner,
  contextAt,
  createTsaeRequest,
  receiptHash,
  sha256Hex,
  signedCheckpointHash,
  verifyAnchorProof,
  verifyConsistencyProof,
  type AnchorProof,
  type HeadSigning,
  type SigningKey,
} from "@temporal/agent-sdk";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openPostgresStore } from "../src/index.js";
import { T0, request, forgeHeadSignature, sharedKey, sql, startNode, useTestPostgres } from "./nodes.js";

const { server, emptyDatabase } = useTestPostgres(8);

describe("PostgresStore: several nodes, one log", () => {
  it("keeps one gapless sequence per tile while two nodes append concurrently; every proof verifies with the public key alone", { timeout: 30_000 }, async () => {
    const url = emptyDatabase();
    const key = await sharedKey();
    const nodes = [startNode(url, key, "node-a"), startNode(url, key, "node-b")];
    try {
      const publicKey = (await new MemorySigner({ privateKey: key }).load()).verifying;
      // 2 x 200 receipts, each node anchoring its own in bursts of 20 (the AnchorQueue batches each burst).
      const anchored = await Promise.all(
        nodes.map(async ({ authority }, node) => {
          const proofs: AnchorProof[] = [];
          for (let burst = 0; burst < 10; burst++) {
            const receipts = await Promise.all(Array.from({ length: 20 }, (_, i) => authority.issueReceipt(request(node * 1000 + burst * 20 + i))));
            proofs.push(...(await Promise.all(receipts.map((receipt) => authority.anchor(receipt)))));
          }
          return proofs;
        }),
      );
      const proofs = anchored.flat();
      expect(proofs).toHaveLength(400);
      expect(new Set(proofs.map((proof) => proof.receipt_hash)).size).toBe(400);
      for (const proof of proofs) expect(await verifyAnchorProof(proof, publicKey)).toBe(true);

      // Each tile: leaves 0..n-1 exactly once, in the database and as each node reads it.
      const leaves = await sql<{ tile_id: string; n: string; max: string }>(url, "SELECT tile_id, count(*) AS n, max(leaf_index) AS max FROM log_leaves GROUP BY tile_id");
      expect(leaves.reduce((sum, row) => sum + Number(row.n), 0)).toBe(400);
      for (const row of leaves) expect(Number(row.max)).toBe(Number(row.n) - 1);
      const [a, b] = nodes.map((node) => node.authority);
      const statusA = await a!.clockchainStatus();
      expect(await b!.clockchainStatus()).toEqual(statusA);
      const heads = await sql<{ sequence: string }>(url, "SELECT sequence FROM log_checkpoints ORDER BY sequence");
      expect(heads.map((head) => Number(head.sequence))).toEqual(heads.map((_, i) => i));

      // Node B answers for what node A acknowledged, and every proof is verified against B's chain.
      for (const proof of anchored[0]!.slice(0, 50))
        expect(await b!.getAnchorProof(proof.receipt_hash)).toMatchObject({ receipt_hash: proof.receipt_hash, tile_id: proof.tile_id, leaf_index: proof.leaf_index });

      // Consistency between every checkpoint a client saw of a tile and the tile's latest size.
      const tile = proofs[0]!.tile_id;
      const sizes = [...new Set(proofs.filter((proof) => proof.tile_id === tile).map((proof) => proof.tree_size))];
      const latest = (await a!.listAnchors(tile)).length;
      for (const size of sizes) {
        const consistency = await b!.getConsistencyProof(tile, size, latest);
        expect(verifyConsistencyProof(consistency)).toBe(true);
        const seen = proofs.find((proof) => proof.tile_id === tile && proof.tree_size === size);
        expect(consistency.first_root).toBe(seen?.root_hash);
      }
    } finally {
      await Promise.all(nodes.map((node) => node.close()));
    }
  });

  it("resolves a receipt anchored by another node with its existing proof, adding nothing", async () => {
    const url = emptyDatabase();
    const key = await sharedKey();
    const [a, b] = [startNode(url, key, "node-a"), startNode(url, key, "node-b")];
    try {
      const receipt = await a.authority.issueReceipt(request(1));
      const first = await a.authority.anchor(receipt);
      const again = await b.authority.anchor(receipt);
      expect(again.leaf_index).toBe(first.leaf_index);
      expect(again.receipt_hash).toBe(first.receipt_hash);
      expect((await b.authority.verifyAnchored(receipt, first)).valid).toBe(true);
      expect((await b.authority.clockchainStatus()).anchors).toBe(1);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it("uses a challenge issued by one node once at another, then refuses it everywhere", async () => {
    const url = emptyDatabase();
    const key = await sharedKey();
    const now = { t: T0 };
    const [a, b] = [startNode(url, key, "node-a", () => now.t), startNode(url, key, "node-b", () => now.t)];
    try {
      const challenge = await a.authority.issueChallenge({ ttlMs: 5_000 });
      const receipt = await b.authority.issueReceipt(request(2), { challenge });
      expect(receipt.challenge_nonce).toBe(challenge.nonce);
      await expect(b.authority.issueReceipt(request(3), { challenge })).rejects.toMatchObject({ code: "CHALLENGE_UNKNOWN" });
      await expect(a.authority.issueReceipt(request(3), { challenge })).rejects.toMatchObject({ code: "CHALLENGE_UNKNOWN" });

      // Expired: refused (by the authority's clock) and, at the store, false and deleted.
      const late = await a.authority.issueChallenge({ ttlMs: 1_000 });
      now.t += 1_000;
      await expect(b.authority.issueReceipt(request(4), { challenge: late })).rejects.toMatchObject({ code: "CHALLENGE_EXPIRED" });
      expect(await b.store.challenges.take(late.nonce, now.t)).toBe(false);
      expect(await sql(url, `SELECT * FROM challenges WHERE nonce = '${late.nonce}'`)).toEqual([]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it("takes each nonce once across stores, and purges expired ones as new ones are added", async () => {
    const url = emptyDatabase();
    const stores = [openPostgresStore({ url }), openPostgresStore({ url })];
    try {
      const [a, b] = stores.map((store) => store.challenges);
      const nonce = (n: number) => sha256Hex(`nonce ${n}`);
      await a!.add(nonce(1), T0 + 1_000, T0);
      const takes = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 === 0 ? a! : b!).take(nonce(1), T0 + 10)));
      expect(takes.filter(Boolean)).toHaveLength(1);
      expect(await b!.take(nonce(1), T0 + 20)).toBe(false);
      for (let n = 0; n < 150; n++) await a!.add(nonce(100 + n), T0 + 100, T0);
      await b!.add(nonce(999), T0 + 10_000, T0 + 200);
      await b!.add(nonce(998), T0 + 10_000, T0 + 200);
      expect(await sql<{ n: string }>(url, "SELECT count(*) AS n FROM challenges WHERE expires_unix_ms <= " + (T0 + 200))).toEqual([{ n: "0" }]);
      expect(await a!.take(nonce(999), T0 + 300)).toBe(true);
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
  });
});

describe("PostgresStore: the log store contract", () => {
  function signing(key: SigningKey, clock: () => number = () => T0): HeadSigning {
    return { key: key.verifying, authority_name: "pg.test", issuedUnixMs: clock, sign: (message) => key.sign(message) };
  }
  /** Entries whose receipts a log store accepts as they are (stores do not check receipt signatures). */
  function entries(key: SigningKey, from: number, count: number, zone = 3) {
    return Array.from({ length: count }, (_, i) => {
      const request = createTsaeRequest(contextAt(T0 + from + i, { zone }), { scope: "test.contract.v1", action_hash_hex: sha256Hex(`contract ${from + i}`) });
      const receipt = { ...request, receipt_version: 1, issued_unix_ms: T0 + from + i, key_id: key.verifying.key_id, signature: "00".repeat(64) } as const;
      return { receipt, hash: receiptHash(receipt) };
    });
  }

  it("anchors a batch as one record, chaining heads across tiles; repeats add nothing; a failed signing writes nothing", async () => {
    const url = emptyDatabase();
    const store = openPostgresStore({ url });
    const key = await new MemorySigner().load();
    try {
      await store.log.open(key.verifying);
      const batch = [...entries(key, 0, 3, 3), ...entries(key, 10, 2, 4)];
      const proofs = await store.log.append([...batch, batch[0]!], signing(key));
      expect(proofs.map((proof) => proof.leaf_index)).toEqual([0, 1, 2, 0, 1, 0]);
      for (const proof of proofs) expect(await verifyAnchorProof(proof, key.verifying)).toBe(true);
      const [first, second] = [proofs[0]!.checkpoint, proofs[3]!.checkpoint];
      expect(first).toMatchObject({ sequence: 0, prev_checkpoint_hash: GENESIS_CHECKPOINT_HASH, tree_size: 3 });
      expect(second).toMatchObject({ sequence: 1, prev_checkpoint_hash: signedCheckpointHash(first), tree_size: 2 });
      expect(await store.log.headHashAt(1)).toBe(signedCheckpointHash(second));
      expect(await store.log.headHashAt(2)).toBeUndefined();

      const badClock = () => {
        throw Object.assign(new RangeError("bad clock"), { code: "INVALID_TIME" });
      };
      const more = entries(key, 20, 2);
      await expect(store.log.append(more, signing(key, badClock))).rejects.toMatchObject({ code: "INVALID_TIME" });
      expect(await store.log.proof(more[0]!.hash)).toBeUndefined();
      expect(await store.log.append([batch[1]!, ...more], signing(key))).toMatchObject([{ leaf_index: 1 }, { leaf_index: 3 }, { leaf_index: 4 }]);
      expect(await store.log.status()).toMatchObject({ records: 2, anchors: 7, chain_valid: true, recovered: undefined });
      expect(await store.log.page(batch[0]!.receipt.tile_id, 1, 2)).toMatchObject({ total: 5, offset: 1, next_offset: 3 });
      await expect(store.log.consistencyProof(batch[0]!.receipt.tile_id, 1, 6)).rejects.toMatchObject({ code: "INVALID_TREE_SIZE" });

      // A second store on the database opens (replaying and verifying every record) to the same state.
      const reader = openPostgresStore({ url });
      await reader.log.open(key.verifying);
      expect(await reader.log.status()).toEqual(await store.log.status());
      await reader.close();

      // close() lets an append in flight finish (and commit), then refuses.
      const last = entries(key, 30, 1);
      const inFlight = store.log.append(last, signing(key));
      await Promise.all([store.close(), store.close()]);
      expect(await inFlight).toMatchObject([{ receipt_hash: last[0]!.hash, checkpoint: { sequence: 3 } }]);
    } finally {
      await store.close();
    }
    await expect(store.log.append(entries(key, 99, 1), signing(key))).rejects.toMatchObject({ code: "AUTHORITY_CLOSED" });
    expect(await store.health()).toMatchObject({ reachable: false });
  });
  it("refuses a log whose records were altered in the database (LEDGER_CORRUPT), at open, at catch-up and before appending on top", async () => {
    const url = emptyDatabase();
    const key = await new MemorySigner().load();
    const [writer, reader, appender] = [openPostgresStore({ url }), openPostgresStore({ url }), openPostgresStore({ url })];
    try {
      await Promise.all([writer, reader, appender].map((store) => store.log.open(key.verifying)));
      await writer.log.append(entries(key, 0, 2), signing(key));
      // One signature byte changed: the record replays, and only the check that runs while the appender signs fails.
      await forgeHeadSignature(url, 0);
      await expect(appender.log.append(entries(key, 2, 3), signing(key))).rejects.toMatchObject({ code: "LEDGER_CORRUPT", message: expect.stringContaining("does not verify") });
      expect(await sql(url, "SELECT seq FROM log_records")).toEqual([{ seq: "0" }]);
      await sql(url, `UPDATE log_records SET body = replace(body, '"issued_unix_ms":${T0 + 1},', '"issued_unix_ms":${T0 + 2},') WHERE seq = 0`);
      await expect(reader.log.status()).rejects.toMatchObject({ code: "LEDGER_CORRUPT", message: expect.stringContaining("at record 0") });
      await expect(reader.log.proof(entries(key, 0, 1)[0]!.hash)).rejects.toMatchObject({ code: "LEDGER_CORRUPT" });
      const late = openPostgresStore({ url });
      await expect(late.log.open(key.verifying)).rejects.toMatchObject({ code: "LEDGER_CORRUPT" });
      await late.close();
    } finally {
      await Promise.all([writer.close(), reader.close(), appender.close()]);
    }
  });
});

describe("PostgresStore: schema and configuration", () => {
  it("migrates an empty database exactly once when several nodes open it at once", { timeout: 30_000 }, async () => {
    const url = emptyDatabase();
    const key = await new MemorySigner().load();
    const stores = Array.from({ length: 5 }, (_, i) => openPostgresStore({ url, nodeId: `node-${i}` }));
    try {
      expect(await stores[0]!.health()).toMatchObject({ kind: "postgres", reachable: true, migrations: "pending" });
      await Promise.all(stores.map((store, i) => (i % 2 === 0 ? store.log.open(key.verifying) : store.challenges.take(sha256Hex("none"), T0))));
      expect(await sql(url, "SELECT version, name FROM schema_migrations ORDER BY version")).toEqual([
        { version: 1, name: "clockchain and challenges" },
        { version: 2, name: "witnessing state" },
      ]);
      const health = await stores[4]!.health();
      expect(health).toMatchObject({ kind: "postgres", reachable: true, migrations: "applied" });
      expect(health.latency_ms).toBeGreaterThanOrEqual(0);
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
  });

  it("refuses a database whose schema is newer than this code, with a coded error", async () => {
    const url = emptyDatabase();
    const key = await new MemorySigner().load();
    const first = openPostgresStore({ url });
    await first.log.open(key.verifying);
    await first.close();
    await sql(url, "INSERT INTO schema_migrations (version, name) VALUES (99, 'from the future')");
    const store = openPostgresStore({ url });
    try {
      await expect(store.log.open(key.verifying)).rejects.toMatchObject({ code: "STORE_SCHEMA_NEWER", message: expect.stringContaining("schema version 99") });
      expect(await store.health()).toMatchObject({ reachable: true, migrations: "unknown", detail: expect.stringContaining("newer") });
    } finally {
      await store.close();
    }
  });

  it("never shows the URL's password, names no database host in errors and health, and refuses a URL that is not PostgreSQL's", async () => {
    const store = openPostgresStore({ url: "postgres://alice:s3cret-pw@127.0.0.1:1/db", pool: { connectionTimeoutMs: 1_000 } });
    try {
      const error = (await store.log.open((await new MemorySigner().load()).verifying).catch((caught: unknown) => caught)) as Error & { code: string };
      expect(error.code).toBe("STORE_UNAVAILABLE");
      const health = await store.health();
      expect(health).toMatchObject({ reachable: false, migrations: "unknown", detail: "the database cannot be reached (ECONNREFUSED)" });
      // Both may reach clients (503 bodies, /readyz); the start's own line names the database.
      expect(JSON.stringify([error.message, health])).not.toMatch(/s3cret|127\.0\.0\.1|postgres:/);
    } finally {
      await store.close();
    }
    for (const url of ["mysql://bob:hunter2@host/db", "hunter2"]) {
      const refused = (() => {
        try {
          openPostgresStore({ url });
        } catch (error) {
          return error as Error & { code: string };
        }
      })();
      expect(refused?.code).toBe("INVALID_ARGUMENT");
      expect(refused?.message).toMatch(/is not a PostgreSQL URL/);
      expect(refused?.message).not.toContain("hunter2");
    }
  });

  it("takes a user name with no host, for a Unix-domain socket, as pg does (the WHATWG URL parser refuses it)", async () => {
    const key = (await new MemorySigner().load()).verifying;
    const url = `postgres://postgres@/postgres?host=${server().socketDirectory}&port=${server().port}`;
    const store = openPostgresStore({ url });
    try {
      await store.log.open(key);
      expect(await store.health()).toMatchObject({ kind: "postgres", reachable: true });
    } finally {
      await store.close();
    }
  });

  it("fails with STORE_UNAVAILABLE saying why, and whether waiting helps: SSL asked of a server without it, no such database, a startup option the server refuses, no server at the Unix socket the URL names", async () => {
    const key = (await new MemorySigner().load()).verifying;
    // Only an operator ends a refusal; an outage ends by itself.
    const messageOf = (reason: string, lasting: boolean) =>
      lasting
        ? `the database refuses this node (${reason}); nothing was applied, and it will go on refusing until an operator changes the store URL or the database server`
        : `the database cannot be used now (${reason}); nothing was applied, retry later`;
    const cases = [
      { url: `${server().url}?sslmode=require`, reason: "the server does not support SSL: see sslmode in the store URL", lasting: true },
      { url: server().url.replace(/\/postgres$/, "/no_such_database"), reason: "no such database", lasting: true },
      // A startup parameter the server does not know: its own words, which name the parameter.
      { url: `${server().url}?options=-c%20temporal_nosuch%3D1`, reason: 'unrecognized configuration parameter "temporal_nosuch", SQLSTATE 42704', lasting: true },
      // A Unix-domain socket's directory without the server's socket (the server is stopped or restarting there).
      { url: `postgres:///postgres?user=postgres&host=${join(tmpdir(), "temporal-no-server-socket-here")}`, reason: "ENOENT: no server socket", lasting: false },
    ];
    for (const { url, reason, lasting } of cases) {
      const store = openPostgresStore({ url });
      try {
        await expect(store.log.open(key)).rejects.toMatchObject({ code: "STORE_UNAVAILABLE", message: messageOf(reason, lasting) });
        expect(await store.health()).toMatchObject({ reachable: false, detail: `the database cannot be reached (${reason})` });
      } finally {
        await store.close();
      }
    }
  });
});
