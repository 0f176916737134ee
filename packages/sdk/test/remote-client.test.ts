import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  TemporalApiError,
  TemporalClient,
  TsaeRequestError,
  contextAt,
  createClient,
  createTsaeRequest,
  sha256Hex,
  syncClock,
  type ClientOptions,
  type Receipt,
  type TwatchNow,
} from "../src/core/index.js";
import { createMemoryAuthority } from "../src/authority/index.js";
import { createMemorySigner } from "../src/authority/memory-signer.js";
import { issueCertificate } from "../src/ztt/certificate.js";

// --- A tiny real HTTP server -------------------------------------------------

interface Seen {
  readonly method: string;
  /** Path and query, e.g. `/api/v1/context?zone=3`. */
  readonly url: string;
  readonly headers: IncomingMessage["headers"];
  readonly body: string;
  /** performance.now() when the request arrived. */
  readonly at: number;
}

type Handler = (request: Seen, response: ServerResponse, index: number) => void;

interface TestServer {
  readonly baseUrl: string;
  readonly seen: Seen[];
}

const servers: ReturnType<typeof createServer>[] = [];

afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    ),
  );
});

async function serve(handler: Handler): Promise<TestServer> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const request = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), at: performance.now() };
      seen.push(request);
      handler(request, res, seen.length - 1);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}`, seen };
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers });
  res.end(JSON.stringify(body));
}

function apiError(res: ServerResponse, status: number, code: string, headers: Record<string, string> = {}): void {
  json(res, status, { error: { code, message: `${code} from the test server` } }, headers);
}

/** Rejects with the error, for `expect(await failure(...))` checks. */
async function failure(promise: Promise<unknown>): Promise<TemporalApiError> {
  try {
    await promise;
  } catch (error) {
    return error as TemporalApiError;
  }
  throw new Error("expected a rejection");
}

function client(server: TestServer, options: Partial<ClientOptions> = {}): TemporalClient {
  return createClient({ baseUrl: server.baseUrl, retryDelayMs: 1, ...options });
}

const ctx = contextAt(Date.UTC(2026, 0, 2, 3, 4, 5), { zone: 3, source: "remote" });
const request = createTsaeRequest(ctx, { scope: "test.remote.v1", action_hash_hex: sha256Hex("action") });
const receipt: Receipt = { ...request, receipt_version: 1, issued_unix_ms: ctx.unix_ms, key_id: "0123456789abcdef", signature: "ab".repeat(64) };
/** A real anchor proof, for replies the client checks the shape of. */
const anchorProof = await (async () => {
  const authority = createMemoryAuthority();
  const proof = await authority.anchor(await authority.issueReceipt(request));
  await authority.close();
  return proof;
})();
const twatchReply = (receive: number, transmit: number): TwatchNow => ({ ctx, sync: { t0_unix_ms: null, receive_unix_ms: receive, transmit_unix_ms: transmit }, prompt: "p" });

// --- Options -----------------------------------------------------------------

describe("createClient options", () => {
  const bad: [string, unknown, string, typeof TypeError][] = [
    ["a missing baseUrl", {}, "INVALID_BASE_URL", TypeError],
    ["a non-string baseUrl", { baseUrl: 8787 }, "INVALID_BASE_URL", TypeError],
    ["a relative baseUrl", { baseUrl: "/api" }, "INVALID_BASE_URL", TypeError],
    ["a baseUrl without a scheme", { baseUrl: "localhost:8787" }, "INVALID_BASE_URL", TypeError],
    ["a baseUrl that is not a URL", { baseUrl: "http://exa mple.com" }, "INVALID_BASE_URL", TypeError],
    ["an ftp: baseUrl", { baseUrl: "ftp://temporal.example" }, "INVALID_BASE_URL", RangeError],
    ["a baseUrl with a query", { baseUrl: "http://temporal.example/?a=1" }, "INVALID_BASE_URL", RangeError],
    ["a baseUrl with an empty query", { baseUrl: "http://temporal.example/?" }, "INVALID_BASE_URL", RangeError],
    ["a baseUrl with a fragment", { baseUrl: "http://temporal.example/#x" }, "INVALID_BASE_URL", RangeError],
    ["a non-string apiKey", { baseUrl: "http://h", apiKey: 42 }, "INVALID_CLIENT_OPTIONS", TypeError],
    ["an empty apiKey", { baseUrl: "http://h", apiKey: "" }, "INVALID_CLIENT_OPTIONS", RangeError],
    ["a non-function fetch", { baseUrl: "http://h", fetch: "fetch" }, "INVALID_CLIENT_OPTIONS", TypeError],
    ["a string timeoutMs", { baseUrl: "http://h", timeoutMs: "100" }, "INVALID_CLIENT_OPTIONS", TypeError],
    ["timeoutMs 0", { baseUrl: "http://h", timeoutMs: 0 }, "INVALID_CLIENT_OPTIONS", RangeError],
    ["timeoutMs NaN", { baseUrl: "http://h", timeoutMs: Number.NaN }, "INVALID_CLIENT_OPTIONS", RangeError],
    ["timeoutMs Infinity", { baseUrl: "http://h", timeoutMs: Number.POSITIVE_INFINITY }, "INVALID_CLIENT_OPTIONS", RangeError],
    ["fractional retries", { baseUrl: "http://h", retries: 1.5 }, "INVALID_CLIENT_OPTIONS", RangeError],
    ["negative retries", { baseUrl: "http://h", retries: -1 }, "INVALID_CLIENT_OPTIONS", RangeError],
    ["retries 11", { baseUrl: "http://h", retries: 11 }, "INVALID_CLIENT_OPTIONS", RangeError],
    ["negative retryDelayMs", { baseUrl: "http://h", retryDelayMs: -1 }, "INVALID_CLIENT_OPTIONS", RangeError],
    ["an unknown option", { baseUrl: "http://h", timeout: 100 }, "INVALID_CLIENT_OPTIONS", TypeError],
  ];

  it.each(bad)("rejects %s at once", (_name, options, code, Class) => {
    const attempt = () => createClient(options as ClientOptions);
    expect(attempt).toThrow(Class);
    expect(attempt).toThrow(expect.objectContaining({ code }));
  });

  it("rejects options that are not an object", () => {
    expect(() => createClient(undefined as unknown as ClientOptions)).toThrow(expect.objectContaining({ code: "INVALID_CLIENT_OPTIONS" }));
  });

  it("never puts the API key or URL credentials in a message", () => {
    for (const apiKey of ["s3cret with space", "s3cret\r\nX-Injected: 1"]) {
      const attempt = () => createClient({ baseUrl: "http://h", apiKey });
      expect(attempt).toThrow(expect.objectContaining({ code: "INVALID_CLIENT_OPTIONS" }));
      expect(attempt).not.toThrow(/s3cret/);
    }
    const attempt = () => createClient({ baseUrl: "https://user:hunter2@temporal.example" });
    expect(attempt).toThrow(expect.objectContaining({ code: "INVALID_BASE_URL" }));
    expect(attempt).not.toThrow(/hunter2/);
  });

  it("normalises the base URL and does no I/O", () => {
    let calls = 0;
    const fetch = async () => {
      calls++;
      throw new Error("unused");
    };
    expect(createClient({ baseUrl: "http://127.0.0.1:8787/", fetch }).baseUrl).toBe("http://127.0.0.1:8787");
    expect(createClient({ baseUrl: "https://Temporal.Example:443/edge//", fetch }).baseUrl).toBe("https://temporal.example/edge");
    expect(createClient({ baseUrl: new URL("http://[::1]:9000/a/b"), fetch }).baseUrl).toBe("http://[::1]:9000/a/b");
    const remote = createClient({ baseUrl: "http://h", fetch, timeoutMs: 1, retries: 0, retryDelayMs: 0, maxRetryDelayMs: 0 });
    expect(remote).toBeInstanceOf(TemporalClient);
    expect(remote).toMatchObject({ kind: "remote", closed: false });
    expect(calls).toBe(0);
  });
});

// --- Requests ----------------------------------------------------------------

describe("requests", () => {
  const page = { tile_id: 5, total: 0, offset: 0, anchors: [], next_offset: null };
  const replies: Record<string, unknown> = {
    "/api/v1/twatch/now": twatchReply(1, 2),
    "/api/v1/clockchain/anchors": page,
    "/api/v1/keys": { keys: {}, note_verifier_keys: {} },
    "/api/v1/clockchain/anchor": anchorProof,
    "/api/v1/clockchain/proof": anchorProof,
    "/api/v1/clockchain/status": { last_checkpoint: anchorProof.checkpoint },
  };

  it("maps each method to its endpoint", async () => {
    const server = await serve((req, res) => {
      const path = req.url.split("?")[0] ?? "";
      json(res, path === "/api/v1/security/tsae" ? 201 : 200, replies[path] ?? { path });
    });
    const remote = client(server);
    const schedule = { tasks: [{ name: "t", duration_ms: 1000, window: [0, 90] as const }], horizon_hours: 24 };
    const calls: [() => Promise<unknown>, string, string, unknown?][] = [
      [() => remote.getContext(), "GET", "/api/v1/context"],
      [() => remote.getTwatchNow({ t0: 1_700_000_000_000, zone: "Z2" }), "GET", "/api/v1/twatch/now?t0=1700000000000&zone=2"],
      [
        () => remote.twatchDiff(ctx, { day_index: 1, phi_ticks: 2 }),
        "POST",
        "/api/v1/twatch/diff",
        { start: { day_index: ctx.day_index, phi_ticks: ctx.phi_ticks }, end: { day_index: 1, phi_ticks: 2 } },
      ],
      [() => remote.getState(), "GET", "/api/v1/core/state"],
      [() => remote.getChallenge(), "GET", "/api/v1/challenge"],
      [() => remote.checkAllow([350, 10]), "POST", "/api/v1/allow", { window: [350, 10] }],
      [() => remote.checkAllow([0, 90], { zone: "Z11" }), "POST", "/api/v1/allow", { window: [0, 90], zone: 11 }],
      [() => remote.getTpeVector({ harmonics: 2 }), "GET", "/api/v1/ai/tpe-vector?harmonics=2"],
      [() => remote.getQuantumDecision({ threshold: 0.75 }), "GET", "/api/v1/quantum/decision?threshold=0.75"],
      [() => remote.getQuantumCarbon({ hours: 1.5, duration_minutes: 30 }), "GET", "/api/v1/quantum/carbon?hours=1.5&duration_minutes=30"],
      [() => remote.scheduleQuantum(schedule), "POST", "/api/v1/quantum/schedule", schedule],
      [() => remote.verifyQuantumProof(receipt, { receipt_hash: "p" } as never), "POST", "/api/v1/quantum/verify", { receipt, proof: { receipt_hash: "p" } }],
      [() => remote.issueTsae(request), "POST", "/api/v1/security/tsae", request],
      [() => remote.anchorTsaeHash(receipt), "POST", "/api/v1/clockchain/anchor", { receipt }],
      [() => remote.getAnchorProof("ab".repeat(32)), "GET", `/api/v1/clockchain/proof?receipt_hash=${"ab".repeat(32)}`],
      [() => remote.getConsistencyProof(7, 1, 3), "GET", "/api/v1/clockchain/proof?tile_id=7&first=1&second=3"],
      [() => remote.getAnchors(5, { offset: 10, limit: 2 }), "GET", "/api/v1/clockchain/anchors?tile_id=5&offset=10&limit=2"],
      [() => remote.getClockchainStatus(), "GET", "/api/v1/clockchain/status"],
      [() => remote.getKeys(), "GET", "/api/v1/keys"],
      [() => remote.getOpenApi(), "GET", "/api/v1/openapi.json"],
    ];
    for (const [call, method, url, body] of calls) {
      await call();
      const last = server.seen.at(-1);
      expect({ method: last?.method, url: last?.url }).toEqual({ method, url });
      if (body === undefined) {
        expect(last?.body).toBe("");
        expect(last?.headers["content-type"]).toBeUndefined();
      } else {
        expect(JSON.parse(last?.body ?? "")).toEqual(body);
        expect(last?.headers["content-type"]).toBe("application/json");
      }
    }
    expect(server.seen).toHaveLength(calls.length);
    expect(await remote.getState()).toEqual({ path: "/api/v1/core/state" });
  });

  it("sends the bearer token and Accept, under the base URL's path prefix", async () => {
    const server = await serve((_req, res) => json(res, 200, { ok: true }));
    const remote = createClient({ baseUrl: `${server.baseUrl}/edge/`, apiKey: "tk_live.abc-123" });
    await remote.getState();
    expect(server.seen[0]).toMatchObject({ method: "GET", url: "/edge/api/v1/core/state" });
    expect(server.seen[0]?.headers).toMatchObject({ authorization: "Bearer tk_live.abc-123", accept: "application/json" });
    await client(server).getState();
    expect(server.seen[1]?.headers.authorization).toBeUndefined();
  });

  it("checks arguments before sending anything", async () => {
    const server = await serve((_req, res) => json(res, 200, {}));
    const remote = client(server);
    const cases: [() => Promise<unknown>, string][] = [
      [() => remote.getAnchorProof("AB".repeat(32)), "INVALID_HASH"],
      [() => remote.getAnchorProof("x"), "INVALID_HASH"],
      [() => remote.getAnchors(-1), "INVALID_TILE"],
      [() => remote.listAnchors(1.5), "INVALID_TILE"],
      [() => remote.getAnchors(1, { limit: 0 }), "INVALID_PAGE"],
      [() => remote.getAnchors(1, { offset: -1 }), "INVALID_PAGE"],
      [() => remote.getConsistencyProof(1, -1, 2), "INVALID_TREE_SIZE"],
      [() => remote.getContext({ zone: 12 }), "INVALID_ZONE"],
      [() => remote.checkAllow([0, 90], { zone: "Z12" as never }), "INVALID_ZONE"],
      [() => remote.getTwatchNow({ t0: 1.5 }), "INVALID_ARGUMENT"],
      [() => remote.getQuantumDecision({ threshold: Number.NaN }), "INVALID_ARGUMENT"],
      [() => remote.getQuantumCarbon({ hours: "1" as never }), "INVALID_ARGUMENT"],
      [() => remote.scheduleQuantum({ tasks: [], horizon_hours: 1n } as never), "INVALID_ARGUMENT"],
      [() => remote.issueReceipt({ ...request, tile_id: 1 }), "TSAE_REQUEST_INVALID"],
      [() => remote.anchor({ ...receipt, signature: "nope" }), "RECEIPT_REJECTED"],
    ];
    for (const [call, code] of cases) await expect(call()).rejects.toMatchObject({ code });
    await expect(remote.issueReceipt({ ...request, swt_zone: 99 })).rejects.toBeInstanceOf(TsaeRequestError);
    expect(server.seen).toHaveLength(0);
  });
});

// --- Authority -----------------------------------------------------------------

describe("the client as an Authority", () => {
  it("answers now, issueReceipt, anchor and publicKeys through the service", async () => {
    const jwk = { kty: "OKP", crv: "Ed25519", x: "x", kid: "0123456789abcdef" };
    const server = await serve((req, res) => {
      if (req.url.startsWith("/api/v1/context")) return json(res, 200, ctx);
      if (req.url === "/api/v1/security/tsae") return json(res, 201, receipt);
      if (req.url === "/api/v1/clockchain/anchor") return json(res, 200, anchorProof);
      // A service from before note verifier keys: publicKeys needs only the JWKs.
      if (req.url === "/api/v1/keys") return json(res, 200, { keys: { [jwk.kid]: jwk } });
      apiError(res, 404, "NOT_FOUND");
    });
    const remote = client(server);
    expect(await remote.now({ zone: "Z3" })).toEqual(ctx);
    expect(server.seen[0]?.url).toBe("/api/v1/context?zone=3");
    // Only the six request fields are sent, read from a copy.
    expect(await remote.issueReceipt({ ...request })).toEqual(receipt);
    expect(JSON.parse(server.seen[1]?.body ?? "")).toEqual(request);
    expect(await remote.anchor(receipt)).toEqual(anchorProof);
    expect(JSON.parse(server.seen[2]?.body ?? "")).toEqual({ receipt });
    expect(await remote.publicKeys()).toEqual({ [jwk.kid]: jwk });
    // A challenge rides along, from the request or from the options.
    const challenge = { challenge_version: 1, nonce: "cd".repeat(32), issued_unix_ms: 1, expires_unix_ms: 2, key_id: jwk.kid, signature: "ef".repeat(64) } as const;
    await remote.issueReceipt({ ...request, challenge });
    expect(JSON.parse(server.seen[4]?.body ?? "")).toEqual({ ...request, challenge });
    await remote.issueReceipt(request, { challenge });
    expect(JSON.parse(server.seen[5]?.body ?? "")).toEqual({ ...request, challenge });
  });

  it("with a quorum asked, only a FINAL proof for at least that quorum is success", async () => {
    const witnessed = (quorum: number) => ({ checkpoint: anchorProof.checkpoint, consistency_proof: [], quorum, witnessed_unix_s: 1 });
    const replies = [
      anchorProof,
      { ...anchorProof, finality: "PROVISIONAL" },
      { ...anchorProof, finality: "FINAL", witnessed: witnessed(1) },
      { ...anchorProof, finality: "FINAL", witnessed: witnessed(2) },
    ];
    const server = await serve((_req, res, index) => json(res, 200, index < replies.length ? replies[index] : anchorProof));
    const remote = client(server);
    expect(await failure(remote.anchor(receipt, { quorum: 2, timeoutMs: 100 }))).toMatchObject({ code: "INVALID_RESPONSE", message: expect.stringMatching(/got finality undefined/) });
    expect(await failure(remote.anchor(receipt, { quorum: 2, timeoutMs: 100 }))).toMatchObject({ code: "FINALITY_TIMEOUT", proof: { finality: "PROVISIONAL" } });
    expect(await failure(remote.anchor(receipt, { quorum: 2, timeoutMs: 100 }))).toMatchObject({ code: "INVALID_RESPONSE", message: expect.stringMatching(/quorum of at least 2, got 1/) });
    expect(await remote.anchor(receipt, { quorum: 2, timeoutMs: 100 })).toMatchObject({ finality: "FINAL" });
    // No quorum asked: a service without witnesses answers without finality, which is an answer.
    expect(await remote.anchor(receipt, { timeoutMs: 100 })).toEqual(anchorProof);
  });

  it("returns undefined for an unanchored receipt, and throws other 404s", async () => {
    const server = await serve((req, res) => (req.url.includes("receipt_hash=00") ? apiError(res, 404, "ANCHOR_NOT_FOUND") : apiError(res, 404, "NOT_FOUND")));
    const remote = client(server);
    expect(await remote.getAnchorProof("00".repeat(32))).toBeUndefined();
    const error = await failure(remote.getAnchorProof("11".repeat(32)));
    expect(error).toBeInstanceOf(TemporalApiError);
    expect(error).toMatchObject({ status: 404, code: "NOT_FOUND" });
    expect(server.seen).toHaveLength(2); // 404 is not retried
  });

  it("walks every page of a tile's anchors", async () => {
    const all = Array.from({ length: 5 }, (_, i) => ({ tile_id: 9, leaf_index: i, receipt_hash: sha256Hex(String(i)), anchored_unix_ms: 1000 + i }));
    const server = await serve((req, res) => {
      const offset = Number(new URL(req.url, "http://x").searchParams.get("offset") ?? 0);
      const next = offset + 2 < all.length ? offset + 2 : null;
      json(res, 200, { tile_id: 9, total: all.length, offset, anchors: all.slice(offset, offset + 2), next_offset: next });
    });
    expect(await client(server).listAnchors(9)).toEqual(all);
    expect(server.seen.map((r) => r.url)).toEqual([
      "/api/v1/clockchain/anchors?tile_id=9&offset=0",
      "/api/v1/clockchain/anchors?tile_id=9&offset=2",
      "/api/v1/clockchain/anchors?tile_id=9&offset=4",
    ]);
  });

  it("refuses a key set without note verifier keys, or with a malformed one", async () => {
    const vkey = "example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k";
    const replies = [{ keys: {} }, { keys: {}, note_verifier_keys: [vkey] }, { keys: {}, note_verifier_keys: { a: vkey.replace("530d903a", "530d903b") } }];
    const server = await serve((_req, res, index) => json(res, 200, replies[index]));
    for (let i = 0; i < replies.length; i++) await expect(client(server).getKeys()).rejects.toMatchObject({ code: "INVALID_RESPONSE", status: 200 });
    const good = await serve((_req, res) => json(res, 200, { keys: {}, note_verifier_keys: { a: vkey } }));
    expect(await client(good).getKeys()).toEqual({ keys: {}, note_verifier_keys: { a: vkey } });
  });

  it("refuses an anchor proof or status without a signed checkpoint (a service still sending JSON heads), or whose checkpoint differs from its note", async () => {
    const { checkpoint } = anchorProof;
    const proofs = [
      { ...anchorProof, checkpoint: undefined, signed_head: { sequence: 0 } },
      { ...anchorProof, checkpoint: { ...checkpoint, tree_size: checkpoint.tree_size + 1 } },
    ];
    const server = await serve((_req, res, index) => json(res, 200, proofs[index % 2]));
    await expect(client(server).anchorTsaeHash(receipt)).rejects.toMatchObject({ code: "INVALID_RESPONSE", status: 200 });
    await expect(client(server).getAnchorProof("ab".repeat(32))).rejects.toMatchObject({ code: "INVALID_RESPONSE", status: 200 });
    const statuses = [{ last_checkpoint: { ...checkpoint, note: "x" } }, { last_checkpoint: null }];
    const statusServer = await serve((_req, res, index) => json(res, 200, statuses[index]));
    await expect(client(statusServer).getClockchainStatus()).rejects.toMatchObject({ code: "INVALID_RESPONSE", status: 200 });
    expect(await client(statusServer).getClockchainStatus()).toEqual({ last_checkpoint: null });
  });

  it("refuses a page that would not advance", async () => {
    const server = await serve((_req, res) => json(res, 200, { tile_id: 9, total: 5, offset: 0, anchors: [], next_offset: 0 }));
    await expect(client(server).listAnchors(9)).rejects.toMatchObject({ code: "INVALID_RESPONSE", status: 200 });
    expect(server.seen).toHaveLength(1);
  });

  it("after close, rejects every call with AUTHORITY_CLOSED; close waits for requests in flight", async () => {
    const server = await serve((_req, res) => setTimeout(() => json(res, 200, { late: true }), 150));
    const remote = client(server);
    const inFlight = remote.getState();
    while (server.seen.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const started = performance.now();
    await remote.close();
    expect(performance.now() - started).toBeGreaterThanOrEqual(100);
    expect(await inFlight).toEqual({ late: true });
    expect(remote.closed).toBe(true);
    for (const call of [
      () => remote.now(),
      () => remote.getState(),
      () => remote.issueReceipt(request),
      () => remote.anchor(receipt),
      () => remote.listAnchors(1),
      () => remote.publicKeys(),
    ]) {
      await expect(call()).rejects.toMatchObject({ code: "AUTHORITY_CLOSED" });
    }
    await remote.close();
    expect(server.seen).toHaveLength(1);
  });

  it("close stops a pending retry, which rejects with its last error", async () => {
    const server = await serve((_req, res) => apiError(res, 503, "UNAVAILABLE"));
    const remote = createClient({ baseUrl: server.baseUrl, retryDelayMs: 60_000, maxRetryDelayMs: 60_000 });
    const pending = failure(remote.getState());
    while (server.seen.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const started = performance.now();
    await remote.close();
    expect(await pending).toMatchObject({ status: 503, code: "UNAVAILABLE" });
    expect(performance.now() - started).toBeLessThan(1000);
    expect(server.seen).toHaveLength(1);
  });
  it("certifyZtt takes only a certificate for the key, window (its degrees as written) and zone asked for", async () => {
    const x = "A".repeat(43);
    const certificate = await issueCertificate(await createMemorySigner().load(), x, [330, 360], 1, 20_000);
    const server = await serve((_req, res) => json(res, 200, certificate));
    const remote = client(server);
    expect(await remote.certifyZtt(x, [330, 360], "Z1")).toEqual(certificate);
    for (const [key, window, zone] of [
      [x, [330, 0], 1],
      [x, [330, 360], 2],
      ["B".repeat(43), [330, 360], 1],
    ] as const) {
      expect(await failure(remote.certifyZtt(key, window, zone))).toMatchObject({ code: "INVALID_RESPONSE", message: expect.stringContaining("not for the key, window and zone asked for") });
    }
  });
});

// --- Errors ------------------------------------------------------------------

describe("error mapping", () => {
  it("takes status, code, message and details from an error body", async () => {
    const details = [{ field: "window[0]", problem: "must be <= 360" }];
    const server = await serve((_req, res) => json(res, 400, { error: { code: "VALIDATION_FAILED", message: "the window is invalid", details } }));
    const error = await failure(client(server).checkAllow([400, 10]));
    expect(error).toBeInstanceOf(TemporalApiError);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ name: "TemporalApiError", status: 400, code: "VALIDATION_FAILED", details, method: "POST", url: `${server.baseUrl}/api/v1/allow` });
    expect(error.message).toContain("the window is invalid");
    expect(error.retryAfterMs).toBeUndefined();
  });

  it.each([
    ["an HTML page", 502, "<html>Bad Gateway</html>", "text/html", "HTTP_502"],
    ["JSON of another shape", 500, '{"oops":true}', "application/json", "HTTP_500"],
    ["an error without a code", 403, '{"error":{"message":"no"}}', "application/json", "HTTP_403"],
    ["an empty body", 401, "", "text/plain", "HTTP_401"],
  ])("uses HTTP_<status> for %s", async (_name, status, body, type, code) => {
    const server = await serve((_req, res) => {
      res.writeHead(status, { "content-type": type });
      res.end(body);
    });
    const error = await failure(client(server, { retries: 0 }).getState());
    expect(error).toBeInstanceOf(TemporalApiError);
    expect(error).toMatchObject({ status, code });
    expect(error.message).toContain(String(status));
  });

  it("reports a 2xx body that is not JSON, or not an object, as INVALID_RESPONSE (never a SyntaxError)", async () => {
    const bodies = ["<html>captive portal</html>", "[1,2]", "null", '{"ctx":{}}'];
    const server = await serve((req, res, i) => {
      res.writeHead(200, { "content-type": i === 0 ? "text/html" : "application/json" });
      res.end(bodies[i]);
    });
    const remote = client(server);
    for (const call of [() => remote.getState(), () => remote.getState(), () => remote.getContext(), () => remote.getTwatchNow()]) {
      const error = await failure(call());
      expect(error).not.toBeInstanceOf(SyntaxError);
      expect(error).toBeInstanceOf(TemporalApiError);
      expect(error).toMatchObject({ status: 200, code: "INVALID_RESPONSE" });
    }
    expect(server.seen).toHaveLength(4); // not retried
  });

  it("times out on a service that never answers (status 0, TIMEOUT, with a cause)", async () => {
    const server = await serve(() => undefined);
    const started = performance.now();
    const error = await failure(client(server, { timeoutMs: 100, retries: 0 }).getState());
    expect(error).toBeInstanceOf(TemporalApiError);
    expect(error).toMatchObject({ status: 0, code: "TIMEOUT" });
    expect(error.cause).toBeDefined();
    expect(error.message).toMatch(/timed out after 100 ms/);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it("times out when the body stalls after the headers", async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"partial":');
    });
    const error = await failure(client(server, { timeoutMs: 150, retries: 0 }).getState());
    expect(error).toMatchObject({ status: 0, code: "TIMEOUT" });
  });

  it("times out even when a custom fetch ignores the signal", async () => {
    const remote = createClient({ baseUrl: "http://127.0.0.1:9", fetch: () => new Promise(() => undefined), timeoutMs: 50, retries: 0 });
    await expect(remote.getState()).rejects.toMatchObject({ status: 0, code: "TIMEOUT" });
  });

  it("reports a refused connection as NETWORK_ERROR with the cause", async () => {
    const server = await serve(() => undefined);
    const port = new URL(server.baseUrl).port;
    await new Promise<void>((resolve) => servers.pop()?.close(() => resolve()));
    const error = await failure(createClient({ baseUrl: `http://127.0.0.1:${port}`, retries: 0 }).getState());
    expect(error).toBeInstanceOf(TemporalApiError);
    expect(error).toMatchObject({ status: 0, code: "NETWORK_ERROR" });
    expect(error.cause).toBeInstanceOf(Error);
    expect(error.message).toContain("ECONNREFUSED");
  });
});

// --- Retries -----------------------------------------------------------------

describe("retries", () => {
  it("retries a GET on 503 and succeeds", async () => {
    const server = await serve((_req, res, i) => (i < 2 ? apiError(res, 503, "UNAVAILABLE") : json(res, 200, { ok: i })));
    expect(await client(server).getState()).toEqual({ ok: 2 });
    expect(server.seen).toHaveLength(3);
  });

  it.each([429, 502, 503, 504])("retries a GET on %i up to `retries` times, then throws the last error", async (status) => {
    const server = await serve((_req, res) => apiError(res, status, `E${status}`));
    const error = await failure(client(server, { retries: 3 }).getKeys());
    expect(error).toMatchObject({ status, code: `E${status}` });
    expect(server.seen).toHaveLength(4);
  });

  it.each([400, 401, 403, 404, 405, 413, 415, 500])("does not retry a GET on %i", async (status) => {
    const server = await serve((_req, res) => apiError(res, status, `E${status}`));
    await expect(client(server).getState()).rejects.toMatchObject({ status, code: `E${status}` });
    expect(server.seen).toHaveLength(1);
  });

  it("never retries a POST, even on 503 or a dropped connection", async () => {
    const unavailable = await serve((_req, res) => apiError(res, 503, "UNAVAILABLE", { "retry-after": "0" }));
    await expect(client(unavailable, { retries: 5 }).issueTsae(request)).rejects.toMatchObject({ status: 503 });
    expect(unavailable.seen).toHaveLength(1);
    const dropping = await serve((_req, res) => res.socket?.destroy());
    await expect(client(dropping, { retries: 5 }).anchorTsaeHash(receipt)).rejects.toMatchObject({ status: 0, code: "NETWORK_ERROR" });
    expect(dropping.seen).toHaveLength(1);
    const silent = await serve(() => undefined);
    await expect(client(silent, { retries: 5, timeoutMs: 50 }).checkAllow([0, 1])).rejects.toMatchObject({ code: "TIMEOUT" });
    expect(silent.seen).toHaveLength(1);
  });

  it("retries a GET after a dropped connection or a timeout", async () => {
    const dropping = await serve((_req, res, i) => (i === 0 ? res.socket?.destroy() : json(res, 200, { i })));
    expect(await client(dropping).getState()).toEqual({ i: 1 });
    expect(dropping.seen).toHaveLength(2);
    const slow = await serve((_req, res, i) => (i === 0 ? undefined : json(res, 200, { i })));
    expect(await client(slow, { timeoutMs: 100 }).getState()).toEqual({ i: 1 });
    expect(slow.seen).toHaveLength(2);
  });

  it("does not retry with retries: 0", async () => {
    const server = await serve((_req, res) => apiError(res, 503, "UNAVAILABLE"));
    await expect(client(server, { retries: 0 }).getState()).rejects.toMatchObject({ status: 503 });
    expect(server.seen).toHaveLength(1);
  });

  it("waits for Retry-After, and gives up at once when it exceeds maxRetryDelayMs", async () => {
    const server = await serve((_req, res, i) => (i === 0 ? apiError(res, 429, "RATE_LIMITED", { "retry-after": "1" }) : json(res, 200, { i })));
    expect(await client(server).getState()).toEqual({ i: 1 });
    const [first, second] = server.seen;
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(950);

    const limited = await serve((_req, res) => apiError(res, 429, "RATE_LIMITED", { "retry-after": "60" }));
    const started = performance.now();
    const error = await failure(client(limited, { maxRetryDelayMs: 5000 }).getState());
    expect(error).toMatchObject({ status: 429, code: "RATE_LIMITED", retryAfterMs: 60_000 });
    expect(limited.seen).toHaveLength(1);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it("reads Retry-After as an HTTP date", async () => {
    const date = new Date(Date.now() + 30_000).toUTCString();
    const server = await serve((_req, res) => apiError(res, 503, "UNAVAILABLE", { "retry-after": date }));
    const error = await failure(client(server).getState());
    expect(error.retryAfterMs).toBeGreaterThan(25_000);
    expect(error.retryAfterMs).toBeLessThanOrEqual(30_000);
    expect(server.seen).toHaveLength(1); // beyond the default ceiling of 5 s
  });

  it("backs off exponentially with jitter, capped at maxRetryDelayMs", async () => {
    const server = await serve((_req, res) => apiError(res, 503, "UNAVAILABLE"));
    await expect(createClient({ baseUrl: server.baseUrl, retries: 3, retryDelayMs: 40, maxRetryDelayMs: 10_000 }).getState()).rejects.toMatchObject({ status: 503 });
    const gaps = server.seen.slice(1).map((r, i) => r.at - (server.seen[i]?.at ?? 0));
    expect(gaps).toHaveLength(3);
    // Waits are 50-100% of 40, 80, 160 ms (plus the round trip).
    [40, 80, 160].forEach((ceiling, i) => {
      expect(gaps[i]).toBeGreaterThanOrEqual(ceiling / 2 - 2);
      expect(gaps[i]).toBeLessThan(ceiling + 150);
    });

    const capped = await serve((_req, res) => apiError(res, 503, "UNAVAILABLE"));
    const started = performance.now();
    await expect(createClient({ baseUrl: capped.baseUrl, retries: 4, retryDelayMs: 60_000, maxRetryDelayMs: 30 }).getState()).rejects.toMatchObject({ status: 503 });
    expect(capped.seen).toHaveLength(5);
    for (let i = 1; i < capped.seen.length; i++) expect((capped.seen[i]?.at ?? 0) - (capped.seen[i - 1]?.at ?? 0)).toBeGreaterThanOrEqual(13);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

// --- syncClock ---------------------------------------------------------------

describe("syncClock", () => {
  it("keeps the sample with the smallest round trip (pure math)", async () => {
    // Local clock readings, in order: t0 and t3 of each sample.
    const readings = [1000.25, 1100, 2000, 2030, 3000, 3060];
    const replies = [twatchReply(1550, 1560), twatchReply(2520, 2525), twatchReply(3530, 3531)];
    const asked: unknown[] = [];
    const source = {
      getTwatchNow: async (options?: unknown) => {
        asked.push(options);
        return replies[asked.length - 1] as TwatchNow;
      },
    };
    let tick = 0;
    const result = await syncClock(source, { samples: 3, clock: () => readings[tick++] as number, zone: "Z4" });
    expect(asked).toEqual([
      { t0: 1000, zone: "Z4" },
      { t0: 2000, zone: "Z4" },
      { t0: 3000, zone: "Z4" },
    ]);
    expect(result.samples).toEqual([
      { t0: 1000.25, t1: 1550, t2: 1560, t3: 1100, offset_ms: 504.875, round_trip_ms: 89.75 },
      { t0: 2000, t1: 2520, t2: 2525, t3: 2030, offset_ms: 507.5, round_trip_ms: 25 },
      { t0: 3000, t1: 3530, t2: 3531, t3: 3060, offset_ms: 500.5, round_trip_ms: 59 },
    ]);
    expect(result).toMatchObject({ offset_ms: 507.5, round_trip_ms: 25 });
  });

  it("validates samples and passes errors through", async () => {
    const source = { getTwatchNow: async () => twatchReply(0, 0) };
    for (const samples of [0, 65, 1.5]) await expect(syncClock(source, { samples })).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    const failing = { getTwatchNow: async () => Promise.reject(new TemporalApiError({ status: 0, code: "TIMEOUT", method: "GET", url: "u", message: "m" })) };
    await expect(syncClock(failing)).rejects.toMatchObject({ code: "TIMEOUT" });
    await expect(syncClock({ getTwatchNow: async () => ({}) as TwatchNow })).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
  });

  it("measures a real service's offset over HTTP", async () => {
    const skew = 5_000;
    const server = await serve((req, res) => {
      const t0 = new URL(req.url, "http://x").searchParams.get("t0");
      const receive = Date.now() + skew;
      json(res, 200, { ctx, sync: { t0_unix_ms: Number(t0), receive_unix_ms: receive, transmit_unix_ms: receive }, prompt: "p" });
    });
    const result = await syncClock(client(server));
    expect(result.samples).toHaveLength(4);
    expect(server.seen).toHaveLength(4);
    expect(server.seen.every((r) => /^\/api\/v1\/twatch\/now\?t0=\d+$/.test(r.url))).toBe(true);
    expect(Math.abs(result.offset_ms - skew)).toBeLessThanOrEqual(result.round_trip_ms / 2 + 2);
    expect(result.round_trip_ms).toBe(Math.min(...result.samples.map((s) => s.round_trip_ms)));
  });
});
