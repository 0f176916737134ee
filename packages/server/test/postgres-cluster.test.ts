/**
 * Several `temporal-service` nodes, one authority (issue 16): real processes of the built command on one real
 * PostgreSQL (Debian's, through @temporal/store-postgres/testing) on loopback, with a throw-away database per
 * test. Load with a node SIGKILLed, the database restarted under load, nodes starting at once on an empty
 * database, challenges across nodes, an unreachable database at start.
 */
import { createServer } from "node:net";
import { verifyAnchorProof, verifyConsistencyProof, type AnchorPage, type AnchorProof, type Challenge, type ClockchainStatus, type ConsistencyProof, type KeySet } from "@temporal/agent-sdk";
import { startPostgres, type TestPostgres } from "@temporal/store-postgres/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "./helpers.js";
import { client, clusterOn, Refused, type Client } from "./postgres-nodes.js";
import { runCommand } from "./service-process.js";

/** The issue asks for 30 s of load; the test's timeout leaves room for a loaded 2-core machine. */
const LOAD_MS = 30_000;
const CLIENTS = 64;

let postgres: TestPostgres;
beforeAll(async () => {
  postgres = await startPostgres();
}, 60_000);
afterAll(() => postgres?.stop());

/**
 * Runs `clients` loops until `ms` have passed, each issuing a receipt and anchoring it on the node `pick`
 * names; every anchor acknowledged (200) is kept. A failure is passed to `refused`, which rethrows what the
 * test does not expect.
 */
async function load(clients: number, ms: number, pick: (worker: number, step: number) => Client, refused: (error: unknown, node: Client) => void): Promise<AnchorProof[]> {
  const acknowledged: AnchorProof[] = [];
  const deadline = Date.now() + ms;
  await Promise.all(
    Array.from({ length: clients }, async (_, worker) => {
      for (let step = 0; Date.now() < deadline; step++) {
        const node = pick(worker, step);
        try {
          acknowledged.push(await node.anchor(await node.issue(`${process.pid}:${worker}:${step}:${Math.random()}`)));
        } catch (error) {
          refused(error, node);
          // Whatever refused the request may take a moment to come back; do not spin.
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
    }),
  );
  return acknowledged;
}

/**
 * Everything acknowledged is in the log, where its proof said, with one gapless sequence of leaves per tile;
 * every proof verifies with the public key alone; the checkpoints clients saw are one history per tile (one
 * root per size, and each consistent with the next larger one, which makes every pair consistent).
 */
async function expectOneHistory(reader: Client, acknowledged: readonly AnchorProof[]): Promise<void> {
  const { keys } = await reader.get<KeySet>("keys");
  const jwk = Object.values(keys)[0]!;
  const unverified = (await Promise.all(acknowledged.map(async (proof) => ((await verifyAnchorProof(proof, jwk)) ? [] : [proof.receipt_hash])))).flat();
  expect(unverified).toEqual([]);

  const byTile = new Map<number, AnchorProof[]>();
  for (const proof of acknowledged) byTile.set(proof.tile_id, [...(byTile.get(proof.tile_id) ?? []), proof]);
  for (const [tileId, proofs] of byTile) {
    const leaves: string[] = [];
    for (let offset: number | null = 0; offset !== null;) {
      const page: AnchorPage = await reader.get<AnchorPage>(`clockchain/anchors?tile_id=${tileId}&offset=${offset}&limit=1000`);
      for (const anchor of page.anchors) {
        expect(anchor.leaf_index).toBe(leaves.length);
        leaves.push(anchor.receipt_hash);
      }
      offset = page.next_offset;
    }
    expect(new Set(leaves).size).toBe(leaves.length);
    const misplaced = proofs.filter((proof) => leaves[proof.leaf_index] !== proof.receipt_hash).map((proof) => proof.receipt_hash);
    expect(misplaced).toEqual([]);

    const rootAt = new Map<number, string>();
    for (const { checkpoint } of proofs) {
      expect(rootAt.get(checkpoint.tree_size) ?? checkpoint.root_hash, `two roots for size ${checkpoint.tree_size} of tile ${tileId}: a fork`).toBe(checkpoint.root_hash);
      rootAt.set(checkpoint.tree_size, checkpoint.root_hash);
    }
    const sizes = [...rootAt.keys()].sort((a, b) => a - b);
    const pairs = sizes.slice(1).map((second, i) => [sizes[i]!, second] as const);
    // A few requests at a time: there is one pair per distinct size seen.
    for (let i = 0; i < pairs.length; i += 8) {
      await Promise.all(
        pairs.slice(i, i + 8).map(async ([first, second]) => {
          const proof = await reader.get<ConsistencyProof>(`clockchain/proof?tile_id=${tileId}&first=${first}&second=${second}`);
          expect(verifyConsistencyProof(proof), `tile ${tileId}: ${first} -> ${second}`).toBe(true);
          expect([proof.first_root, proof.second_root]).toEqual([rootAt.get(first), rootAt.get(second)]);
        }),
      );
    }
  }
}

/** A network failure: fetch could not reach the node (refused or reset), as with a node that was killed. */
function unreachable(error: unknown): boolean {
  return error instanceof TypeError;
}

describe("temporal-service nodes on one PostgreSQL", () => {
  it(
    `3 nodes, ${CLIENTS} clients doing tsae + anchor for ${LOAD_MS / 1000} s, one node SIGKILLed in the middle: every acknowledged anchor is there, one history`,
    { timeout: 180_000 },
    async () => {
      const cluster = await clusterOn(postgres);
      const nodes = await Promise.all(["a", "b", "c"].map((name) => cluster.start(name)));
      const clients = nodes.map((node) => client(node.url, cluster.apiKey));
      let killed: Client | undefined;
      const killing = new Promise<void>((resolve) =>
        setTimeout(() => {
          killed = clients[2];
          void nodes[2]!.stop("SIGKILL").then(() => resolve());
        }, LOAD_MS / 2),
      );
      const acknowledged = await load(
        CLIENTS,
        LOAD_MS,
        (worker, step) => {
          const live = clients.filter((node) => node !== killed);
          return live[(worker + step) % live.length]!;
        },
        (error, node) => {
          if (!(node === killed && unreachable(error))) throw error;
        },
      );
      await killing;
      expect((await nodes[2]!.exited).signal).toBe("SIGKILL");
      expect(nodes.slice(0, 2).map((node) => node.child.exitCode)).toEqual([null, null]);
      // Each node acknowledged anchors, the killed one too, before it died.
      expect(acknowledged.length).toBeGreaterThan(CLIENTS);
      await expectOneHistory(clients[1]!, acknowledged);
      await Promise.all(nodes.slice(0, 2).map((node) => node.stop()));
    },
  );

  it(
    "a PostgreSQL restart under load: 503 STORE_UNAVAILABLE with Retry-After (and /readyz 503, /healthz 200) while it is down, then the same nodes serve again and nothing acknowledged is lost",
    { timeout: 120_000 },
    async () => {
      const cluster = await clusterOn(postgres);
      const nodes = await Promise.all(["a", "b"].map((name) => cluster.start(name)));
      const clients = nodes.map((node) => client(node.url, cluster.apiKey));
      const unavailable: Refused[] = [];
      let restarted = 0;
      let whileDown: Response[] = [];
      const outage = (async () => {
        await new Promise((resolve) => setTimeout(resolve, 3000));
        // A crash (SIGKILL), and a pause long enough that the nodes are seen answering while it is down.
        await postgres.kill();
        await new Promise((resolve) => setTimeout(resolve, 1500));
        // Alive but not ready: a load balancer takes the node out while its store is away.
        whileDown = await Promise.all([fetch(`${nodes[0]!.url}/healthz`), fetch(`${nodes[0]!.url}/readyz`)]);
        await new Promise((resolve) => setTimeout(resolve, 1500));
        await postgres.start();
        restarted = Date.now();
      })();
      const acknowledged = await load(
        16,
        12_000,
        (worker, step) => clients[(worker + step) % clients.length]!,
        (error) => {
          if (!(error instanceof Refused && error.status === 503)) throw error;
          unavailable.push(error);
        },
      );
      await outage;
      expect(unavailable.length).toBeGreaterThan(0);
      for (const refusal of unavailable) expect([refusal.code, refusal.retryAfter]).toEqual(["STORE_UNAVAILABLE", expect.stringMatching(/^[1-9]\d*$/)]);
      // The same processes serve again: anchors were acknowledged after the database came back.
      expect(nodes.every((node) => node.child.exitCode === null)).toBe(true);
      const after = await load(
        8,
        2000,
        (worker) => clients[worker % 2]!,
        (error) => {
          throw error;
        },
      );
      expect(after.length).toBeGreaterThan(0);
      expect(restarted).toBeGreaterThan(0);
      expect(whileDown.map((reply) => reply.status)).toEqual([200, 503]);
      expect(whileDown[1]!.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
      const notReady = await whileDown[1]!.text();
      // A probe's answer is public: it names no database host (the node's log does).
      expect(notReady).not.toMatch(/127\.0\.0\.1|postgres:\/\//);
      expect(JSON.parse(notReady)).toMatchObject({ status: "not_ready", store: { kind: "postgres", reachable: false } });
      // Ready again without a restart (readiness is re-checked at most once a second).
      await new Promise((resolve) => setTimeout(resolve, 1100));
      expect((await fetch(`${nodes[0]!.url}/readyz`)).status).toBe(200);
      await expectOneHistory(clients[0]!, [...acknowledged, ...after]);
      const status = await clients[1]!.get<ClockchainStatus>("clockchain/status");
      expect(status.store).toMatchObject({ kind: "postgres", node_id: "b", reachable: true });
      await Promise.all(nodes.map((node) => node.stop()));
    },
  );

  it("two nodes starting at once on an empty database both come up, and each answers for what the other anchored", { timeout: 60_000 }, async () => {
    const cluster = await clusterOn(postgres);
    const nodes = await Promise.all(["a", "b"].map((name) => cluster.start(name)));
    const [a, b] = nodes.map((node) => client(node.url, cluster.apiKey)) as [Client, Client];
    const proof = await a.anchor(await a.issue("one"));
    expect(await b.get<AnchorProof>(`clockchain/proof?receipt_hash=${proof.receipt_hash}`)).toMatchObject({ receipt_hash: proof.receipt_hash, leaf_index: proof.leaf_index });
    for (const [reader, name] of [
      [a, "a"],
      [b, "b"],
    ] as const) {
      const { store } = await reader.get<ClockchainStatus>("clockchain/status");
      expect(store).toEqual({ kind: "postgres", records: 1, node_id: name, reachable: true });
    }
    await Promise.all(nodes.map((node) => node.stop()));
  });

  it("a challenge issued by node A is accepted once by node B, then refused by both", { timeout: 60_000 }, async () => {
    const cluster = await clusterOn(postgres);
    const nodes = await Promise.all(["a", "b"].map((name) => cluster.start(name)));
    const [a, b] = nodes.map((node) => client(node.url, cluster.apiKey)) as [Client, Client];
    const challenge = await a.get<Challenge>("challenge");
    expect((await b.issue("first", challenge)).challenge_nonce).toBe(challenge.nonce);
    for (const node of [b, a]) await expect(node.issue("again", challenge)).rejects.toMatchObject({ status: 400, code: expect.stringMatching(/^CHALLENGE_/) });
    await Promise.all(nodes.map((node) => node.stop()));
  });

  it(
    "a node with another key than the others (no --signing-key: its home's) refuses to start on their database, saying to give every node the same key file",
    { timeout: 60_000 },
    async () => {
      const cluster = await clusterOn(postgres);
      const node = await cluster.start("a");
      const a = client(node.url, cluster.apiKey);
      await a.anchor(await a.issue("signed by the shared key"));
      const result = runCommand(["--home", await tempDir(), "--port", "0", "--store", cluster.storeUrl]);
      expect(result.status).toBe(1);
      expect(result.stderr.trim().split("\n")).toEqual([
        expect.stringMatching(
          /^temporal-service: LOG_KEY_UNKNOWN: the clockchain's checkpoint 0 \(tile \d+\) is signed under .* none of this node's keys .*\. Without --signing-key this node signs with its home's key; on a shared database give every node the same --signing-key file and previous_keys$/,
        ),
      ]);
      await node.stop();
    },
  );

  it("a database that cannot be reached at start: exit 1 with one line that does not show the password", { timeout: 60_000 }, async () => {
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, "127.0.0.1", () => {
        const { port: free } = server.address() as { port: number };
        server.close(() => resolve(free));
      });
    });
    const result = runCommand(["--home", await tempDir(), "--port", "0", "--store", `postgres://temporal:hunter2@127.0.0.1:${port}/temporal`]);
    expect(result.status).toBe(1);
    expect(result.stderr).not.toContain("hunter2");
    expect(result.stderr.trim().split("\n")).toEqual([expect.stringMatching(/^temporal-service: STORE_UNAVAILABLE: .*postgres:\/\/temporal:\*\*\*@127\.0\.0\.1/)]);
    expect(result.stdout).toBe("");
  });
});
