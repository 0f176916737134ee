/**
 * The real `temporal-service` process under load: SIGKILL in the middle of
 * concurrent issue + anchor traffic loses no acknowledged anchor (each one's
 * proof is served after a restart and verifies with only the public key),
 * and SIGTERM lets requests in flight finish before exiting 0.
 */
import { spawnSync } from "node:child_process";
import { request as httpRequest } from "node:http";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import {
  contextAt,
  createTsaeRequest,
  receiptHash,
  sha256Hex,
  verifyAnchorProof,
  verifyReceipt,
  type AnchorProof,
  type ClockchainStatus,
  type PublicKeyJwk,
  type Receipt,
} from "@temporal/agent-sdk";
import { describe, expect, it } from "vitest";
import { tempDir } from "./helpers.js";
import { BIN, startServiceProcess, type ServiceProcess } from "./service-process.js";

const LOOPS = 32;
const KILL_AFTER = 300;

/** A home with a config that lifts the rate limits, and one enterprise key made by `keys create`. */
async function prepareHome(): Promise<{ home: string; config: string; key: string }> {
  const home = await tempDir();
  const config = join(home, "service.json");
  const unlimited = { burst: 1e9, per_second: 1e9 };
  await writeFile(config, JSON.stringify({ rate_limit: { per_ip: unlimited, per_key: unlimited } }));
  const created = spawnSync(process.execPath, [BIN, "keys", "create", "--tier", "enterprise", "--home", home, "--config", config], { encoding: "utf8" });
  expect(created.status, created.stderr).toBe(0);
  const key = created.stdout.trim();
  expect(key).toMatch(/^tps_/);
  expect(JSON.parse(await readFile(config, "utf8")).rate_limit.per_ip.burst).toBe(1e9); // keys create kept the rest of the config
  return { home, config, key };
}

/** The service on a free port with `home` and `config`. */
function startServer(home: string, config: string): Promise<ServiceProcess> {
  return startServiceProcess(["--port", "0", "--home", home, "--config", config]);
}

function api(url: string, key: string) {
  const call = async <T>(method: "GET" | "POST", path: string, body?: unknown): Promise<{ status: number; body: T }> => {
    const response = await fetch(url + path, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as T };
  };
  return call;
}

function resolvers<T>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (error: unknown) => void } {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(() => undefined); // a request that fails before anyone awaits its reply is reported where it is awaited
  return { promise, resolve, reject };
}

let actions = 0;
/** A valid TSAE request for a new action, built with the SDK. */
function tsaeRequest(label: string) {
  const ctx = contextAt(Date.now(), { zone: actions % 12 });
  return createTsaeRequest(ctx, { scope: "crash.anchor.v1", action_hash_hex: sha256Hex(`${label} ${actions++}`) });
}

interface Acknowledged {
  readonly receipt: Receipt;
  readonly proof: AnchorProof;
}

/** Checks every acknowledged anchor against a (restarted) server, with only its public keys. */
async function checkDurable(url: string, key: string, acknowledged: readonly Acknowledged[]): Promise<ClockchainStatus> {
  const call = api(url, key);
  const { body: keySet } = await call<{ keys: Record<string, PublicKeyJwk> }>("GET", "/api/v1/keys");
  const publicKey = (keyId: string) => {
    const jwk = keySet.keys[keyId];
    expect(jwk, `key ${keyId} is published`).toBeDefined();
    return jwk as PublicKeyJwk;
  };
  const queue = [...acknowledged];
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
        const { receipt, proof: acked } = next;
        const hash = receiptHash(receipt);
        const { status, body: proof } = await call<AnchorProof>("GET", `/v1/clockchain/proof?receipt_hash=${hash}`);
        expect(status, `proof of acknowledged receipt ${hash}`).toBe(200);
        expect(proof.receipt_hash).toBe(hash);
        // Still the same leaf of the same tile as when it was acknowledged.
        expect([proof.tile_id, proof.leaf_index]).toEqual([acked.tile_id, acked.leaf_index]);
        expect(proof.tree_size).toBeGreaterThanOrEqual(acked.tree_size);
        expect(await verifyAnchorProof(proof, publicKey(receipt.key_id))).toBe(true);
        expect(await verifyReceipt(receipt, publicKey(receipt.key_id))).toBe(true);
      }
    }),
  );
  const { status, body } = await call<ClockchainStatus>("GET", "/api/v1/clockchain/status");
  expect(status).toBe(200);
  expect(body.chain_valid).toBe(true);
  expect(body.anchors).toBeGreaterThanOrEqual(acknowledged.length);
  return body;
}

/**
 * `LOOPS` loops of issue-then-anchor until `stop()` resolves or the server
 * goes away; every anchor answered 200 (body fully read) is acknowledged.
 */
async function load(url: string, key: string, acknowledged: Acknowledged[], onAcknowledged: () => void): Promise<{ failures: number; refused: number[] }> {
  const call = api(url, key);
  let failures = 0;
  const refused: number[] = [];
  let running = true;
  await Promise.all(
    Array.from({ length: LOOPS }, async (_, loop) => {
      while (running) {
        try {
          const issued = await call<Receipt>("POST", "/api/v1/security/tsae", tsaeRequest(`loop ${loop}`));
          if (issued.status !== 201) {
            refused.push(issued.status);
            continue;
          }
          const anchored = await call<AnchorProof>("POST", "/api/v1/clockchain/anchor", { receipt: issued.body });
          if (anchored.status !== 200) {
            refused.push(anchored.status);
            continue;
          }
          acknowledged.push({ receipt: issued.body, proof: anchored.body });
          onAcknowledged();
        } catch {
          failures++; // the server was killed under this request: not acknowledged
          running = false;
        }
      }
    }),
  );
  return { failures, refused };
}

describe("temporal-service under load", () => {
  it("SIGKILL mid-load loses no acknowledged anchor: after a restart every proof is served and verifies with the public key", async () => {
    const { home, config, key } = await prepareHome();
    const acknowledged: Acknowledged[] = [];
    for (let round = 1; round <= 2; round++) {
      const server = await startServer(home, config);
      const before = acknowledged.length;
      let killed = false;
      const result = await load(server.url, key, acknowledged, () => {
        if (!killed && acknowledged.length - before >= KILL_AFTER) {
          killed = true;
          server.child.kill("SIGKILL");
        }
      });
      if (!killed) server.child.kill("SIGKILL"); // the load stopped early (the assertions below say why)
      expect(await server.exited).toEqual({ code: null, signal: "SIGKILL" });
      expect(result.refused, "every request before the kill succeeded").toEqual([]);
      expect(result.failures, "requests were in flight when the server was killed").toBeGreaterThan(0);
      expect(acknowledged.length - before).toBeGreaterThanOrEqual(KILL_AFTER);

      const restarted = await startServer(home, config);
      try {
        await checkDurable(restarted.url, key, acknowledged);
        // The recovered ledger takes new anchors.
        const call = api(restarted.url, key);
        const issued = await call<Receipt>("POST", "/api/v1/security/tsae", tsaeRequest("after restart"));
        expect(issued.status).toBe(201);
        expect((await call<AnchorProof>("POST", "/v1/clockchain/anchor", { receipt: issued.body })).status).toBe(200);
      } finally {
        restarted.child.kill("SIGTERM");
        expect((await restarted.exited).code).toBe(0);
      }
    }
  }, 120_000);

  it("SIGTERM lets requests in flight finish with 200s, then exits 0 with its shutdown line", async () => {
    const { home, config, key } = await prepareHome();
    const server = await startServer(home, config);
    const port = Number(new URL(server.url).port);
    const call = api(server.url, key);
    const receipts: Receipt[] = [];
    for (let i = 0; i < 16; i++) receipts.push((await call<Receipt>("POST", "/api/v1/security/tsae", tsaeRequest("sigterm"))).body);

    // 16 anchors and 16 issues whose headers the server has taken (it answered 100 Continue) but whose bodies are held back.
    const bodies = [...receipts.map((receipt) => ["/api/v1/clockchain/anchor", { receipt }] as const), ...receipts.map(() => ["/api/v1/security/tsae", tsaeRequest("in flight")] as const)];
    const inFlight = bodies.map(([path, body]) => {
      const bytes = Buffer.from(JSON.stringify(body));
      let release!: () => void;
      const replyOf = resolvers<{ status: number; body: unknown }>();
      const accepted = new Promise<void>((resolve, reject) => {
        const req = httpRequest(
          {
            host: "127.0.0.1",
            port,
            method: "POST",
            path,
            agent: false,
            headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "content-length": bytes.length, expect: "100-continue", connection: "close" },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (chunk: Buffer) => chunks.push(chunk));
            res.on("end", () => replyOf.resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) }));
          },
        );
        req.on("continue", () => resolve());
        req.on("error", (error) => {
          reject(error);
          replyOf.reject(error);
        });
        release = () => req.end(bytes);
      });
      return { path, accepted, release: () => release(), reply: replyOf.promise };
    });
    await Promise.all(inFlight.map((request) => request.accepted));

    server.child.kill("SIGTERM");
    await server.waitFor("stdout", /^SIGTERM: finishing requests in flight/);
    // Closing: a new request is refused (no connection, or 503 if it raced the listening socket's close)...
    const late = await fetch(`${server.url}/api/v1/core/state`).then(
      (response) => response.status,
      () => "refused",
    );
    expect(["refused", 503]).toContain(late);
    // ...but the requests already in flight are served.
    for (const request of inFlight) request.release();
    const replies = await Promise.all(inFlight.map((request) => request.reply));
    expect(replies.map((reply) => reply.status)).toEqual(inFlight.map((request) => (request.path.endsWith("/anchor") ? 200 : 201)));
    const { code } = await server.exited;
    expect(code).toBe(0);
    expect(server.stdout()).toContain("SIGTERM: finishing requests in flight and closing the ledger");

    // And the anchors answered during shutdown are durable.
    const restarted = await startServer(home, config);
    try {
      const anchored = replies.filter((_, i) => inFlight[i]?.path.endsWith("/anchor")).map((reply, i) => ({ receipt: receipts[i] as Receipt, proof: reply.body as AnchorProof }));
      await checkDurable(restarted.url, key, anchored);
    } finally {
      restarted.child.kill("SIGTERM");
      await restarted.exited;
    }
  }, 120_000);
});
