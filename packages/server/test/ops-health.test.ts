import { writeFile, mkdir } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { createMemoryChallengeStore, createMemoryLogStore } from "@temporal/agent-sdk";
import { homePaths } from "@temporal/agent-sdk/node";
import { DEFAULT_CONFIG, createApiKey, createService, type ServiceStore } from "../src/index.js";
import type { StoreHealth } from "../src/store.js";
import { startService, tempDir } from "./helpers.js";

/** A tight per-address limit, so a handful of API requests exceeds it. */
const TIGHT_LIMIT = { rate_limit: { per_ip: { burst: 3, per_second: 0.001 }, per_key: { burst: 3, per_second: 0.001 } } };

async function get(url: string, init?: RequestInit): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
  const reply = await fetch(url, init);
  return { status: reply.status, headers: reply.headers, body: (await reply.json()) as Record<string, unknown> };
}

/** A service over memory seams whose store answers health checks with `health`. */
async function serviceWithHealth(health: () => Promise<StoreHealth>): Promise<string> {
  const store: ServiceStore = { log: createMemoryLogStore(), challenges: createMemoryChallengeStore(), health };
  const service = createService({ home: await tempDir(), config: DEFAULT_CONFIG, store });
  const url = await service.listen({ host: "127.0.0.1", port: 0 });
  await service.authority.ready();
  // Closed by the test itself: helpers.ts only closes the services it started.
  afterEachClose.push(() => service.close());
  return url;
}
const afterEachClose: (() => Promise<void>)[] = [];

describe("GET /healthz and GET /readyz", () => {
  it("answer without an API key, outside the rate limit that turns the API away", async () => {
    const { url } = await startService(TIGHT_LIMIT);
    // Past the burst many times over: every probe is still answered.
    for (let i = 0; i < 20; i++) {
      expect(await get(`${url}/healthz`)).toMatchObject({ status: 200, body: { status: "ok" } });
      const ready = await get(`${url}/readyz`);
      expect(ready.status).toBe(200);
      expect(ready.body).toMatchObject({ status: "ready", store: { kind: "file", reachable: true, migrations: "applied" } });
    }
    // The API on the same address is limited after its burst of 3.
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await fetch(`${url}/v1/context`)).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
  });

  it("take HEAD, ignore a query, and answer other methods 405 in the error shape", async () => {
    const { url } = await startService();
    const head = await fetch(`${url}/healthz`, { method: "HEAD" });
    expect([head.status, await head.text()]).toEqual([200, ""]);
    expect((await get(`${url}/readyz?verbose=1`)).status).toBe(200);
    const post = await get(`${url}/healthz`, { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
    expect(post.body).toMatchObject({ error: { code: "METHOD_NOT_ALLOWED" } });
    // Under the API prefixes they do not exist.
    expect((await fetch(`${url}/api/v1/healthz`)).status).toBe(404);
  });

  it("/readyz is 503 with Retry-After and the reason when the home's ledger is damaged, while /healthz stays 200", async () => {
    const home = await tempDir();
    const paths = homePaths(home);
    await mkdir(paths.home, { recursive: true });
    await writeFile(paths.ledger, "this is not a clockchain\n");
    const service = createService({ home, config: DEFAULT_CONFIG });
    const url = await service.listen({ host: "127.0.0.1", port: 0 });
    try {
      const ready = await get(`${url}/readyz`);
      expect(ready.status).toBe(503);
      expect(ready.headers.get("retry-after")).toBe("5");
      expect(ready.body).toMatchObject({ status: "not_ready", store: { kind: "file", reachable: false } });
      expect(String(ready.body.reason)).toMatch(/^the file store is not reachable: [A-Z_]+: /);
      expect((await get(`${url}/healthz`)).status).toBe(200);
    } finally {
      await service.close();
    }
  });

  it("/readyz reports a store's own health: unreachable, migrations pending, an answer that never comes, then ready", async () => {
    const answers: (() => Promise<StoreHealth>)[] = [
      async () => ({ kind: "postgres", reachable: false, migrations: "unknown", detail: "connect ECONNREFUSED 127.0.0.1:5432" }),
      async () => ({ kind: "postgres", reachable: true, migrations: "pending", latency_ms: 1 }),
      () => new Promise<StoreHealth>(() => undefined),
      async () => ({ kind: "postgres", reachable: true, migrations: "applied", latency_ms: 1.5 }),
    ];
    let calls = 0;
    const url = await serviceWithHealth(() => (answers[Math.min(calls++, answers.length - 1)] as () => Promise<StoreHealth>)());
    const seen = [];
    for (let i = 0; i < answers.length; i++) {
      const ready = await get(`${url}/readyz`);
      seen.push([ready.status, ready.body.reason ?? ready.body.status]);
      // A check is reused for a second, so a probe storm costs the store one check a second.
      await new Promise((resolve) => setTimeout(resolve, 1_050));
    }
    expect(seen).toEqual([
      [503, "the postgres store is not reachable: connect ECONNREFUSED 127.0.0.1:5432"],
      [503, "the postgres store's migrations are pending"],
      // The log store's kind: a store that does not answer does not say what it is.
      [503, "the memory store is not reachable: no answer to the health check within 2000 ms"],
      [200, "ready"],
    ]);
    expect(calls).toBe(4);
    for (const close of afterEachClose.splice(0)) await close();
  }, 30_000);

  it("clockchain/status asks the store's health at most once a second, however often it is called", async () => {
    let calls = 0;
    const store: ServiceStore = {
      log: createMemoryLogStore(),
      challenges: createMemoryChallengeStore(),
      health: async () => ({ kind: "postgres", reachable: calls++ === 0, migrations: "applied" }),
    };
    const { key, record } = createApiKey("enterprise", "status", new Date(0));
    const service = createService({ home: await tempDir(), config: { ...DEFAULT_CONFIG, keys: [record] }, store });
    const url = await service.listen({ host: "127.0.0.1", port: 0 });
    try {
      const status = async () => (await get(`${url}/v1/clockchain/status`, { headers: { authorization: `Bearer ${key}` } })).body.store;
      for (let i = 0; i < 10; i++) expect(await status()).toMatchObject({ reachable: true });
      expect(calls).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 1_050));
      // The next call after the second asks again, and reports what the store says now.
      expect(await status()).toMatchObject({ reachable: false });
      expect(calls).toBe(2);
    } finally {
      await service.close();
    }
  }, 15_000);

  it("are in the OpenAPI document, at the root, with no security", async () => {
    const { url } = await startService();
    const document = (await (await fetch(`${url}/api/v1/openapi.json`)).json()) as { paths: Record<string, { servers?: { url: string }[]; get?: { security: unknown[] } }> };
    for (const path of ["/healthz", "/readyz", "/metrics"]) {
      expect(document.paths[path]?.servers).toEqual([{ url: "/" }]);
      expect(document.paths[path]?.get?.security).toEqual([{}]);
    }
  });
});
