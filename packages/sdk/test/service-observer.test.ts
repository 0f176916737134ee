import { describe, expect, it } from "vitest";
import { createMemoryAuthority } from "../src/index.js";
import { DEFAULT_CONFIG, createApiKey, createPipeline, type RequestHead, type RequestOutcome, type Transport } from "../src/service/index.js";

interface Reply {
  status?: number;
  headers?: string[];
  body?: string | undefined;
}

/** A transport over plain objects: a request is a RequestHead with an optional JSON body, a reply records its status. */
const transport: Transport<RequestHead & { body?: unknown }, Reply> = {
  remoteAddress: () => "192.0.2.1",
  readJsonBody: (request, _limit, done) => done(undefined, request.body),
  send: (reply, status, headers, body) => {
    reply.status = status;
    reply.headers = [...headers];
    reply.body = body;
  },
  replied: (reply) => reply.status !== undefined,
  abort: () => {},
};

describe("the pipeline's request observer", () => {
  it("reports route template, status, tier, key id, error code and the limit that refused a request, once per reply", async () => {
    const { key, record } = createApiKey("developer", "observer", new Date(0));
    const seen: (Omit<RequestOutcome, "durationMs"> & { url: string | undefined })[] = [];
    const pipeline = createPipeline({
      config: {
        ...DEFAULT_CONFIG,
        keys: [record],
        cors: { origins: ["https://app.example.com"] },
        rate_limit: { per_ip: { burst: 1e9, per_second: 1e9 }, per_key: { burst: 2, per_second: 0.001 } },
      },
      authority: createMemoryAuthority(),
      clock: () => 0,
      version: "0.0.0",
      onUnexpectedError: () => {},
      observer: (request, { durationMs, ...outcome }) => {
        expect(durationMs).toBeGreaterThanOrEqual(0);
        seen.push({ url: request.url, ...outcome });
      },
    });
    const handle = pipeline.handler(transport);
    const send = (method: string, url: string, headers: RequestHead["headers"] = {}, body?: unknown) => handle({ method, url, headers, body }, {});
    send("GET", "/api/v1/core/state?");
    send("GET", "/v1/no/such");
    send("PUT", "/v1/context");
    send("OPTIONS", "/v1/allow", { origin: "https://app.example.com" });
    send("POST", "/v1/twatch/diff", {}, {});
    for (let i = 0; i < 3; i++) send("GET", "/v1/context", { authorization: `Bearer ${key}` });
    await new Promise((resolve) => setTimeout(resolve, 10));
    const none = { keyId: undefined, rateLimited: undefined, errorCode: undefined, tier: "public" };
    const developer = { ...none, tier: "developer", keyId: record.id };
    expect(seen).toEqual([
      { ...none, url: "/api/v1/core/state?", route: "/core/state", status: 200 },
      { ...none, url: "/v1/no/such", route: undefined, status: 404, errorCode: "NOT_FOUND" },
      { ...none, url: "/v1/context", route: undefined, status: 405, errorCode: "METHOD_NOT_ALLOWED" },
      { ...none, url: "/v1/allow", route: "/allow", status: 204 },
      { ...none, url: "/v1/twatch/diff", route: "/twatch/diff", status: 401, errorCode: "UNAUTHORIZED" },
      { ...developer, url: "/v1/context", route: "/context", status: 200 },
      { ...developer, url: "/v1/context", route: "/context", status: 200 },
      { ...developer, url: "/v1/context", route: "/context", status: 429, errorCode: "RATE_LIMITED", rateLimited: "per_key" },
    ]);
  });

  it("is told of a reply before it is sent, and the headers it adds go out with it, error replies included", () => {
    const pipeline = createPipeline({
      config: DEFAULT_CONFIG,
      authority: createMemoryAuthority(),
      clock: () => 0,
      version: "0.0.0",
      onUnexpectedError: () => {},
      observer: (_request, outcome, headers) => {
        headers.push("x-request-id", `seen-${outcome.status}`);
      },
    });
    const handle = pipeline.handler(transport);
    const ok: Reply = {};
    handle({ method: "GET", url: "/v1/core/state", headers: {} }, ok);
    const missing: Reply = {};
    handle({ method: "GET", url: "/v1/no/such", headers: {} }, missing);
    expect([ok.status, ok.headers?.slice(-2)]).toEqual([200, ["x-request-id", "seen-200"]]);
    expect([missing.status, missing.headers?.slice(-2)]).toEqual([404, ["x-request-id", "seen-404"]]);
  });

  it("answers 500 when a route's value cannot be serialized once it resolves, instead of leaving the request unanswered", async () => {
    const authority = createMemoryAuthority();
    // A store route whose value JSON cannot write (a BigInt): the failure comes after the await.
    const broken = Object.create(authority) as typeof authority;
    broken.clockchainStatus = async () => ({ ...(await authority.clockchainStatus()), tiles: 1n }) as never;
    const { key, record } = createApiKey("enterprise", "broken", new Date(0));
    const unexpected: unknown[] = [];
    const pipeline = createPipeline({
      config: { ...DEFAULT_CONFIG, keys: [record] },
      authority: broken,
      clock: () => 0,
      version: "0.0.0",
      onUnexpectedError: (error) => unexpected.push(error),
    });
    const reply: Reply = {};
    pipeline.handler(transport)({ method: "GET", url: "/v1/clockchain/status", headers: { authorization: `Bearer ${key}` } }, reply);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(reply.status).toBe(500);
    expect(JSON.parse(reply.body as string)).toMatchObject({ error: { code: "INTERNAL_ERROR" } });
    expect(unexpected).toHaveLength(1);
  });
});
