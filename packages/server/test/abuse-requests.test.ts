import { once } from "node:events";
import { writeFile } from "node:fs/promises";
import { Agent, request } from "node:http";
import { connect } from "node:net";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { contextAt, createTsaeRequest, sha256Hex } from "@temporal/agent-sdk";
import { ConfigError, loadConfig } from "../src/index.js";
import { REAL_SERVICE, STAND_IN, startService, tempDir } from "./helpers.js";

/** What the service sends back to `text` written on a raw connection, read until it closes. */
async function rawExchange(url: string, text: string): Promise<string> {
  const socket = connect(Number(new URL(url).port), "127.0.0.1");
  await once(socket, "connect");
  socket.end(text);
  let received = "";
  socket.on("data", (chunk: Buffer) => (received += chunk.toString("utf8")));
  await once(socket, "close");
  return received;
}

/** The statuses of GET core/state sent from `localAddress` with each X-Forwarded-For of `forwarded`, in order over one kept-alive connection. */
async function statusesFrom(url: string, localAddress: string, forwarded: readonly string[]): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1, localAddress });
  const statuses: number[] = [];
  for (const header of forwarded) {
    statuses.push(
      await new Promise<number>((resolve, reject) => {
        request(`${url}/api/v1/core/state`, { agent, headers: { "x-forwarded-for": header } }, (response) => {
          response.resume();
          response.on("end", () => resolve(response.statusCode as number));
        })
          .on("error", reject)
          .end();
      }),
    );
  }
  agent.destroy();
  return statuses;
}

describe("a request without Host", () => {
  it("HTTP/1.1 is answered 400 MISSING_HOST in the error shape and closed; HTTP/1.0 is served", async () => {
    const { url } = await startService();
    const missing = await rawExchange(url, "GET /api/v1/core/state HTTP/1.1\r\n\r\n");
    expect(missing).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(missing.toLowerCase()).toContain("connection: close");
    expect(missing.toLowerCase()).toContain("content-type: application/json");
    expect(JSON.parse(missing.slice(missing.indexOf("\r\n\r\n") + 4))).toEqual({ error: { code: "MISSING_HOST", message: "an HTTP/1.1 request needs a Host header" } });
    expect(await rawExchange(url, "GET /api/v1/core/state HTTP/1.0\r\n\r\n")).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(await rawExchange(url, "GET /api/v1/core/state HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
  });
});

describe.each([REAL_SERVICE, STAND_IN])("duplicate keys in a body: $name", (kind) => {
  it("two `scope` keys in a tsae request, or a repeated key at any depth, are 400 DUPLICATE_KEY naming the key's path", async () => {
    const service = await kind.start();
    const post = async (path: string, body: string) => {
      const reply = await service.fetch(`${service.url}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${service.keys.enterprise}`, "content-type": "application/json" },
        body,
      });
      return { status: reply.status, body: (await reply.json()) as { error?: { code: string; message: string } } };
    };
    const tsae = JSON.stringify(createTsaeRequest(contextAt(Date.now()), { scope: "tests.abuse.v1", action_hash_hex: sha256Hex("abuse") }));
    expect((await post("/api/v1/security/tsae", tsae)).status).toBe(201);
    const twoScopes = await post("/api/v1/security/tsae", `{"scope":"admin.everything.v1",${tsae.slice(1)}`);
    expect(twoScopes).toEqual({ status: 400, body: { error: { code: "DUPLICATE_KEY", message: "the body has the key at /scope more than once; send each key once" } } });
    const deep = await post("/v1/quantum/schedule", '{"tasks":[{"id":"a","window":[0,1]},{"id":"b","window":[0,1],"id":"c"}]}');
    expect([deep.status, deep.body.error?.code, deep.body.error?.message]).toEqual([400, "DUPLICATE_KEY", "the body has the key at /tasks/1/id more than once; send each key once"]);
  });
});

describe("trust_proxy: the client is the rightmost untrusted X-Forwarded-For hop", () => {
  it("600 requests with spoofed leftmost entries through a trusted proxy are rate-limited as the one client the proxy saw", { timeout: 30_000 }, async () => {
    const bucket = { burst: 10, per_second: 0.001 };
    const { url } = await startService({ trust_proxy: ["127.0.0.1"], rate_limit: { per_ip: bucket, per_key: bucket } });
    const spoofed = fc.sample(fc.ipV4(), { numRuns: 600, seed: 16 }).map((fake) => `${fake}, 203.0.113.7`);
    const statuses = await statusesFrom(url, "127.0.0.1", spoofed);
    expect(statuses.filter((status) => status === 200).length).toBe(10);
    expect(statuses.filter((status) => status === 429).length).toBe(590);
    // Another client behind the same proxy has its own bucket.
    expect(await statusesFrom(url, "127.0.0.1", ["203.0.113.7, 198.51.100.9"])).toEqual([200]);
    // From a peer that is not a trusted proxy the header is ignored: the peer is the client.
    const direct = await statusesFrom(url, "127.0.0.2", fc.sample(fc.ipV4(), { numRuns: 20, seed: 17 }));
    expect(direct.filter((status) => status === 200).length).toBe(10);
  });

  it("a config file lists the proxies; `true` is refused with what to write instead; `false` is none", async () => {
    const dir = await tempDir();
    const configWith = async (fields: Record<string, unknown>) => {
      const path = join(dir, `config-${Math.random()}.json`);
      await writeFile(path, JSON.stringify(fields));
      return path;
    };
    expect((await loadConfig(await configWith({ trust_proxy: ["127.0.0.1", "10.0.0.0/8", "::1"] }), false)).trust_proxy).toEqual(["127.0.0.1", "10.0.0.0/8", "::1"]);
    expect((await loadConfig(await configWith({ trust_proxy: false }), false)).trust_proxy).toEqual([]);
    const refused = async (fields: Record<string, unknown>) => {
      const error: unknown = await loadConfig(await configWith(fields), false).catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(ConfigError);
      return (error as ConfigError).message;
    };
    expect(await refused({ trust_proxy: true })).toMatch(/trust_proxy no longer takes true .*list your proxies' addresses or ranges instead, such as \["127\.0\.0\.1", "::1"\]/);
    expect(await refused({ trust_proxy: ["127.0.0.1", "10.0.0.0/40"] })).toContain('trust_proxy[1] "10.0.0.0/40" is not an IPv4 or IPv6 address or CIDR range');
    expect(await refused({ limits: { headers_timeout_ms: 40_000 } })).toContain("limits.headers_timeout_ms (40000) is over limits.request_timeout_ms (30000)");
    expect(await refused({ limits: { max_connections: 0 } })).toContain("limits.max_connections");
    expect((await loadConfig(await configWith({ limits: { max_connections: 100 } }), false)).limits).toEqual({
      max_connections: 100,
      max_connections_per_address: 256,
      headers_timeout_ms: 10_000,
      request_timeout_ms: 30_000,
      keep_alive_timeout_ms: 5_000,
    });
  });
});
