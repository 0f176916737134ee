/**
 * Key rotation within one log (issue 16): real `temporal-service` processes anchor under key A, restart with key B
 * and A in `previous_keys`, and anchor more, on the file store (--home) and on one PostgreSQL with two nodes. Every
 * old and new receipt and proof verifies with the keys `GET keys` publishes, proofs of old receipts are still
 * answered, consistency holds across the rotation (same origin, same tree), and a key that is neither the log's nor
 * a listed successor of it refuses to start, saying what to do.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import {
  openTileCheckpoint,
  verifyAnchorProof,
  verifyConsistencyProof,
  verifyReceipt,
  type AnchorProof,
  type ConsistencyProof,
  type KeySet,
  type Receipt,
  type VerifyResult,
} from "@temporal/agent-sdk";
import { createSigningKeyFile } from "@temporal/agent-sdk/node";
import { createApiKey } from "@temporal/agent-sdk/service";
import { startPostgres, type TestPostgres } from "@temporal/store-postgres/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "./helpers.js";
import { client, type Client } from "./postgres-nodes.js";
import { runCommand, startServiceProcess, type ServiceProcess } from "./service-process.js";

const UNLIMITED = { burst: 1e9, per_second: 1e9 };
/** Every request is issued for the moment the test file loaded, so all anchors share a tile even across a UTC midnight. */
const ISSUED_AT = Date.now();
const clientOf = (url: string, apiKey: string): Client => client(url, apiKey, () => ISSUED_AT);
type KeyName = "a" | "b" | "c";

/** Three key files, one API key, and config files written on demand. */
interface Setup {
  readonly dir: string;
  readonly keyFiles: Readonly<Record<KeyName, string>>;
  readonly apiKey: string;
  /** Writes a config with the API key and `extra`; resolves with its path. */
  config(extra: Record<string, unknown>): Promise<string>;
}

async function setup(): Promise<Setup> {
  const dir = await tempDir();
  const keyFiles = { a: join(dir, "key-a.pem"), b: join(dir, "key-b.pem"), c: join(dir, "key-c.pem") };
  for (const file of Object.values(keyFiles)) await createSigningKeyFile(file);
  const { key, record } = createApiKey("enterprise", "rotation test", new Date());
  let configs = 0;
  return {
    dir,
    keyFiles,
    apiKey: key,
    async config(extra) {
      const path = join(dir, `service-${configs++}.json`);
      await writeFile(path, JSON.stringify({ keys: [record], rate_limit: { per_ip: UNLIMITED, per_key: UNLIMITED }, ...extra }));
      return path;
    },
  };
}

interface Anchored {
  readonly receipt: Receipt;
  readonly proof: AnchorProof;
}

/** `count` new receipts issued and anchored, round robin over the nodes. */
async function anchorSome(nodes: readonly Client[], count: number, tag: string): Promise<Anchored[]> {
  const anchored: Anchored[] = [];
  for (let i = 0; i < count; i++) {
    const node = nodes[i % nodes.length] as Client;
    const receipt = await node.issue(`${tag} ${i} ${Math.random()}`);
    anchored.push({ receipt, proof: await node.anchor(receipt) });
  }
  return anchored;
}

async function keyIdOf(node: Client): Promise<string> {
  return Object.keys((await node.get<KeySet>("keys")).keys)[0] as string;
}

async function verifyOnService(url: string, apiKey: string, { receipt, proof }: Anchored): Promise<VerifyResult> {
  const response = await fetch(`${url}/api/v1/quantum/verify`, {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json", connection: "close" },
    body: JSON.stringify({ receipt, proof }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as VerifyResult;
}

/**
 * What a verifier holding only `GET keys` sees of a log rotated from key `a` to key `b`: each receipt and each
 * checkpoint verifies with the key that signed it (and not with the other: the key IDs name the key), the service
 * still answers proofs of the old receipts, and every old checkpoint is consistent with the newest one of its tile.
 */
async function expectRotatedLog(reader: Client, url: string, apiKey: string, before: readonly Anchored[], after: readonly Anchored[], ids: { a: string; b: string }): Promise<void> {
  const { keys, note_verifier_keys } = await reader.get<KeySet>("keys");
  expect(Object.keys(keys).sort()).toEqual([ids.a, ids.b].sort());
  expect(Object.keys(note_verifier_keys).sort()).toEqual([ids.a, ids.b].sort());
  for (const [anchored, signer, other] of [...before.map((x) => [x, ids.a, ids.b] as const), ...after.map((x) => [x, ids.b, ids.a] as const)]) {
    const { receipt, proof } = anchored;
    expect(receipt.key_id).toBe(signer);
    expect(await verifyReceipt(receipt, keys[signer]!)).toBe(true);
    expect(await verifyAnchorProof(proof, keys[signer]!)).toBe(true);
    expect(await verifyAnchorProof(proof, note_verifier_keys[signer]!)).toBe(true);
    expect((await openTileCheckpoint(proof.checkpoint.note, Object.values(note_verifier_keys))).head.root_hash).toBe(proof.root_hash);
    expect(await verifyAnchorProof(proof, keys[other]!)).toBe(false);
    expect(await verifyAnchorProof(proof, { keys, note_verifier_keys })).toBe(true);
    expect(await verifyOnService(url, apiKey, anchored)).toEqual({ signature: true, inclusion: true, chain: true, valid: true });
    // Asked again, the service proves the receipt against its tile's newest checkpoint, signed by the new key.
    const fresh = await reader.get<AnchorProof>(`clockchain/proof?receipt_hash=${proof.receipt_hash}`);
    expect(fresh.leaf_index).toBe(proof.leaf_index);
    expect(await verifyAnchorProof(fresh, keys[ids.b]!)).toBe(true);
  }
  let across = 0;
  for (const { proof } of before) {
    const newest = after.filter((x) => x.proof.tile_id === proof.tile_id).at(-1)?.proof;
    if (newest === undefined) continue;
    across++;
    expect(newest.checkpoint.origin).toBe(proof.checkpoint.origin);
    const consistency = await reader.get<ConsistencyProof>(`clockchain/proof?tile_id=${proof.tile_id}&first=${proof.tree_size}&second=${newest.tree_size}`);
    expect(verifyConsistencyProof(consistency)).toBe(true);
    expect([consistency.first_root, consistency.second_root]).toEqual([proof.root_hash, newest.root_hash]);
  }
  // All anchors share a tile (ISSUED_AT).
  expect(across).toBe(before.length);
}

/** A lighter look from another node: both keys published, and old receipts proved against the new key's checkpoints. */
async function expectServesOldReceipts(reader: Client, before: readonly Anchored[], ids: { a: string; b: string }): Promise<void> {
  const { keys } = await reader.get<KeySet>("keys");
  expect(Object.keys(keys).sort()).toEqual([ids.a, ids.b].sort());
  for (const { proof } of before) expect(await verifyAnchorProof(await reader.get<AnchorProof>(`clockchain/proof?receipt_hash=${proof.receipt_hash}`), keys[ids.b]!)).toBe(true);
}

/** `temporal-service` refused to start: exit 1 and one line on stderr, matching `pattern`. */
function expectRefused(result: { status: number | null; stderr: string }, pattern: RegExp): void {
  expect(result.status).toBe(1);
  expect(result.stderr.trim().split("\n")).toEqual([expect.stringMatching(pattern)]);
}

const UNKNOWN_KEY =
  /^temporal-service: LOG_KEY_UNKNOWN: the clockchain's checkpoint \d+ \(tile \d+\) is signed under \S+ by note key ID [0-9a-f]{8}, which is none of this node's keys .*previous_keys/;

describe("key rotation within one log, the file store (--home)", () => {
  it("rotates from key A to key B and keeps the log; the old key (alone or listing B), or an unrelated key, refuses to start", { timeout: 90_000 }, async () => {
    const s = await setup();
    const home = join(s.dir, "home");
    const args = (key: KeyName, config: string) => ["--home", home, "--config", config, "--port", "0", "--signing-key", s.keyFiles[key]];
    const start = async (key: KeyName, config: string): Promise<[ServiceProcess, Client]> => {
      const node = await startServiceProcess(args(key, config));
      return [node, clientOf(node.url, s.apiKey)];
    };
    // No authority name configured: the default one derives from key A.
    const plain = await s.config({});
    let [node, reader] = await start("a", plain);
    const a = await keyIdOf(reader);
    const before = await anchorSome([reader], 2, "before");
    await node.stop();

    // The default name would change with the key, and with it every origin: refused, naming the name to keep.
    const withA = await s.config({ previous_keys: [s.keyFiles.a] });
    expectRefused(runCommand(args("b", withA)), new RegExp(`^temporal-service: AUTHORITY_NAME_CHANGED: .* configure the authority name "temporal-authority/${a}"`));

    const rotated = await s.config({ previous_keys: [s.keyFiles.a], authority_name: `temporal-authority/${a}` });
    [node, reader] = await start("b", rotated);
    const after = await anchorSome([reader], 2, "after");
    const b = after[0]!.receipt.key_id;
    expect(b).not.toBe(a);
    await expectRotatedLog(reader, node.url, s.apiKey, before, after, { a, b });
    await node.stop();

    // The retired key cannot continue the log it handed over, even listing B: rotation is one way. Nor can a key nobody listed.
    expectRefused(runCommand(args("a", plain)), UNKNOWN_KEY);
    const back = await s.config({ previous_keys: [s.keyFiles.b], authority_name: `temporal-authority/${a}` });
    expectRefused(
      runCommand(args("a", back)),
      new RegExp(`^temporal-service: LOG_KEY_RETIRED: the clockchain has moved past this node's signing key ${a}: a later key \\(${b}\\) signed after it`),
    );
    expectRefused(runCommand(args("c", rotated)), UNKNOWN_KEY);
  });
});

describe("key rotation within one log, PostgreSQL with two nodes", () => {
  let postgres: TestPostgres;
  beforeAll(async () => {
    postgres = await startPostgres();
  }, 60_000);
  afterAll(() => postgres?.stop());

  it("two nodes start with key B and A listed: the log continues; a node left on key A stops serving it (503); an unrelated key refuses to start", { timeout: 120_000 }, async () => {
    const s = await setup();
    const storeUrl = await postgres.createDatabase();
    const args = (name: string, key: KeyName, config: string) => [
      "--home",
      join(s.dir, name),
      "--config",
      config,
      "--port",
      "0",
      "--store",
      storeUrl,
      "--signing-key",
      s.keyFiles[key],
      "--node-id",
      name,
    ];
    const startNodes = async (names: readonly string[], key: KeyName, config: string) => {
      const nodes = await Promise.all(names.map((name) => startServiceProcess(args(name, key, config))));
      return { nodes, clients: nodes.map((node) => clientOf(node.url, s.apiKey)) };
    };
    const named = { authority_name: "rotation.example" };
    const old = await startNodes(["n1", "n2"], "a", await s.config(named));
    const a = await keyIdOf(old.clients[0]!);
    const before = await anchorSome(old.clients, 4, "before");
    // n2 is left running with the old key, as a forgotten node would be.
    await old.nodes[0]!.stop();

    const rotated = await s.config({ ...named, previous_keys: [s.keyFiles.a] });
    const both = await startNodes(["n1", "n3"], "b", rotated);
    const after = await anchorSome(both.clients, 4, "after");
    const b = after[0]!.receipt.key_id;
    await expectRotatedLog(both.clients[0]!, both.nodes[0]!.url, s.apiKey, before, after, { a, b });
    await expectServesOldReceipts(both.clients[1]!, before, { a, b });
    // The forgotten node meets checkpoints by a key it does not know: it stops serving the log, and says why.
    await expect(old.clients[1]!.get(`clockchain/proof?receipt_hash=${before[0]!.proof.receipt_hash}`)).rejects.toMatchObject({ status: 503, code: "LOG_KEY_UNKNOWN" });
    // Its database answers pings, but readiness reports the node stuck, so a load balancer stops sending it requests.
    const readiness = await fetch(`${old.nodes[1]!.url}/readyz`, { headers: { connection: "close" } });
    expect(readiness.status).toBe(503);
    expect(await readiness.json()).toMatchObject({ status: "not_ready", reason: expect.stringMatching(/^the postgres store refuses every call: LOG_KEY_UNKNOWN: /) });
    await old.nodes[1]!.stop();
    expectRefused(runCommand(args("n4", "c", rotated)), UNKNOWN_KEY);
    await Promise.all(both.nodes.map((node) => node.stop()));
  });
});
