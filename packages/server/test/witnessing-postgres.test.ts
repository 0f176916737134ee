/**
 * Witnessing shared by nodes on one PostgreSQL (issue 17, docs/witness.md): two real services on one real database,
 * three real witnesses (in process) behind a proxy that counts their answers. An anchor made FINAL on node A is
 * FINAL on node B with the same witnessing status; rounds take turns, so no witness answers 409 (an `old` size
 * another node already moved past); and saves from several nodes at once only move the stored state forward.
 */
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { isDeepStrictEqual } from "node:util";
import {
  MemorySigner,
  authorityVerifierKey,
  contextAt,
  createClient,
  createTsaeRequest,
  sha256Hex,
  tileVerifierKey,
  type AnchorProof,
  type WitnessingRecord,
  type WitnessingStatus,
} from "@temporal/agent-sdk";
import { openPostgresStore } from "@temporal/store-postgres";
import { startPostgres, type TestPostgres } from "@temporal/store-postgres/testing";
import { startInProcessWitnesses, type InProcessWitnesses } from "@temporal/witness/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_CONFIG, createApiKey, createService, type TemporalService } from "../src/index.js";
import { tempDir } from "./helpers.js";

const AUTHORITY_NAME = "pg.witnessing.test";
const AT = Date.UTC(2026, 5, 3, 8);
const CONTEXT = contextAt(AT, { zone: 3 });
const INTERVAL_MS = 50;

/** An HTTP proxy in front of a witness that records the status of every answer, so a test can count 409s. */
async function countingProxy(target: string): Promise<{ url: string; statuses: number[]; close(): Promise<void> }> {
  const statuses: number[] = [];
  const server: Server = createServer((incoming, outgoing) => {
    const forwarded = request(`${target}${incoming.url ?? "/"}`, { method: incoming.method, headers: incoming.headers }, (answer) => {
      statuses.push(answer.statusCode ?? 0);
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    forwarded.on("error", () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    statuses,
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

/** Polls `read` until `done` holds (a node reads the shared state every interval); its last value either way. */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, INTERVAL_MS / 2));
    value = await read();
  }
  return value;
}

/** What every node must agree on: the witnesses' sizes, the tiles' cosigned checkpoints, the health and the forks (not each node's own last error). */
function shared(status: WitnessingStatus | undefined) {
  return status === undefined ? undefined : { health: status.health, forks: status.forks, tiles: status.tiles, witnesses: status.witnesses.map(({ name, tiles }) => ({ name, tiles })) };
}

describe("two service nodes on one PostgreSQL with 3 witnesses, quorum 2", { timeout: 60_000 }, () => {
  const signer = new MemorySigner();
  let postgres: TestPostgres | undefined;
  let storeUrl: string;
  let running: InProcessWitnesses | undefined;
  const proxies: Awaited<ReturnType<typeof countingProxy>>[] = [];
  const nodes: TemporalService[] = [];
  const urls: string[] = [];
  let apiKey: string;

  beforeAll(async () => {
    postgres = await startPostgres();
    storeUrl = await postgres.createDatabase();
    const { verifying } = await signer.load();
    const tileKey = tileVerifierKey(authorityVerifierKey(verifying.jwk, AUTHORITY_NAME), CONTEXT.tile_id);
    running = await startInProcessWitnesses(await tempDir(), ["witness.test/p1", "witness.test/p2", "witness.test/p3"], [tileKey]);
    proxies.push(...(await Promise.all(running.witnesses.map((witness) => countingProxy(witness.url)))));
    const witnesses = running.witnesses.map(({ vkey }, i) => ({ url: (proxies[i] as { url: string }).url, vkey }));
    const { key, record } = createApiKey("enterprise", "pg witnessing test", new Date(0));
    apiKey = key;
    for (const nodeId of ["node-a", "node-b"]) {
      const service = createService({
        home: await tempDir(),
        signer,
        nodeId,
        store: openPostgresStore({ url: storeUrl, nodeId }),
        config: { ...DEFAULT_CONFIG, keys: [record], authority_name: AUTHORITY_NAME },
        witnessing: { witnesses, quorum: 2, intervalMs: INTERVAL_MS },
      });
      nodes.push(service);
      urls.push(await service.listen({ host: "127.0.0.1", port: 0 }));
    }
  }, 40_000);

  afterAll(async () => {
    await Promise.all(nodes.map((node) => node.close()));
    await Promise.all(proxies.map((proxy) => proxy.close()));
    await running?.close();
    await postgres?.stop();
  });

  const clientOf = (node: number) => createClient({ baseUrl: urls[node] as string, apiKey });
  const anchorOn = async (node: number, tag: string, wait: boolean): Promise<AnchorProof> => {
    const client = clientOf(node);
    const receipt = await client.issueReceipt(createTsaeRequest(CONTEXT, { scope: "test.pg_witnessing.v1", action_hash_hex: sha256Hex(tag) }));
    return client.anchor(receipt, wait ? { quorum: 2, timeoutMs: 10_000 } : undefined);
  };

  it("an anchor FINAL on node A is FINAL on node B, whose status is A's", async () => {
    const final = await anchorOn(0, "anchored on A", true);
    expect(final.finality).toBe("FINAL");

    const onB = await eventually(
      () => clientOf(1).getAnchorProof(final.receipt_hash),
      (proof) => proof?.finality === "FINAL",
    );
    expect(onB).toMatchObject({ finality: "FINAL", witnessed: { quorum: 2, checkpoint: { tree_size: final.witnessed?.checkpoint.tree_size } } });

    const statusOf = async (node: number) => (await clientOf(node).getClockchainStatus()).witnessing;
    const statusA = await eventually(
      () => statusOf(0),
      (status) => status?.health === "HEALTHY",
    );
    const statusB = await eventually(
      () => statusOf(1),
      (status) => isDeepStrictEqual(shared(status), shared(statusA)),
    );
    expect(shared(statusB)).toEqual(shared(statusA));
    expect(statusB).toMatchObject({ health: "HEALTHY", tiles: [{ tile_id: CONTEXT.tile_id, quorum_met: true }] });
  });

  it("both nodes anchoring into one tile: every anchor turns FINAL and no witness answers 409", async () => {
    // Anchors alternate between the nodes, each submitting from the size the other's last round left.
    const proofs: AnchorProof[] = [];
    for (let i = 0; i < 6; i++) proofs.push(await anchorOn(i % 2, `turns ${i}`, true));
    expect(proofs.map((proof) => proof.finality)).toEqual(proofs.map(() => "FINAL"));
    // And at once: the rounds take turns under the advisory lock.
    const together = await Promise.all([0, 1, 0, 1].map((node, i) => anchorOn(node, `together ${i}`, true)));
    expect(together.map((proof) => proof.finality)).toEqual(together.map(() => "FINAL"));

    const statuses = proxies.flatMap((proxy) => proxy.statuses);
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
  });

  it("saves from several nodes at once never move the stored cosigned checkpoint or a witness's size back", async () => {
    const stores = ["saver-1", "saver-2", "saver-3"].map((nodeId) => openPostgresStore({ url: storeUrl, nodeId }));
    try {
      // The last test returned once 2 of the 3 witnesses cosigned in a node's memory: the third's cosignature, and
      // the save of the latest round, may still be on their way. Compared once every witness's cosignature of the
      // tile's whole tree is stored, after which nothing moves.
      const [tile] = (await clientOf(0).getClockchainStatus()).tiles;
      const settled = (record: WitnessingRecord | undefined) =>
        record?.cosigned.length === 1 &&
        record.cosigned[0]?.tree_size === tile?.tree_size &&
        Object.keys(record.witnesses).length === 3 &&
        Object.values(record.witnesses).every((tiles) => tiles.length === 1 && tiles[0]?.cosigned_size === tile?.tree_size);
      const current = (await eventually(() => (stores[0] as (typeof stores)[number]).witnessing.load(), settled)) as WitnessingRecord;
      expect(settled(current)).toBe(true);
      const [cosigned] = current.cosigned;
      expect(cosigned?.tree_size).toBeGreaterThan(1);
      // Stale records as a slow node would save them: smaller sizes, fewer cosignatures, one witness behind.
      const stale: WitnessingRecord[] = [1, 2, 3].map((size) => ({
        cosigned: [{ ...(cosigned as NonNullable<typeof cosigned>), tree_size: size, cosignatures: [] }],
        witnesses: Object.fromEntries(Object.keys(current.witnesses).map((name) => [name, [{ tile_id: CONTEXT.tile_id, cosigned_size: size, cosigned_unix_s: 1 }]])),
        forks: [],
      }));
      await Promise.all(stale.map((record, i) => (stores[i % stores.length] as (typeof stores)[number]).witnessing.save(record)));
      expect(await stores[1]?.witnessing.load()).toEqual(current);
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
  });
});
