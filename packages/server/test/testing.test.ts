/**
 * `@temporal/server/testing`: the in-process stand-in answers bad requests exactly as a real service
 * does, its clock moves verdicts, receipts and challenges, and a compiled mission anchors in it.
 * (Every endpoint through the client, against both, is client.test.ts.)
 */
import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { compile } from "@temporal/compiler";
import {
  TemporalApiError,
  contextAt,
  createClient,
  createTsaeRequest,
  receiptHash,
  sha256Hex,
  verifyAnchorProof,
  verifyReceipt,
  type AnchorProof,
  type Mission,
  type Receipt,
} from "@temporal/agent-sdk";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createTestService } from "../src/testing.js";
import { REAL_SERVICE, STAND_IN, tempDir, type ServiceUnderTest } from "./helpers.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
/** 2026-11-22T21:30:00Z. */
const T = Date.UTC(2026, 10, 22, 21, 30);
type KeyedTier = keyof ServiceUnderTest["keys"];

interface RawRequest {
  readonly method: string;
  /** Path and query. */
  readonly target: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
  /** Sends this tier's key of whichever service is asked. */
  readonly tier?: KeyedTier;
}

/** Reply headers that are the pipeline's (not the transport's, like Date, Connection or Keep-Alive). */
const PIPELINE_HEADERS = [
  "content-type",
  "content-length",
  "cache-control",
  "x-content-type-options",
  "vary",
  "allow",
  "www-authenticate",
  "retry-after",
  "access-control-allow-origin",
  "access-control-expose-headers",
  "access-control-allow-methods",
  "access-control-allow-headers",
  "access-control-max-age",
];

/** Status, the pipeline's headers and the body text of `request` sent to `service`. */
async function exchange(service: ServiceUnderTest, request: RawRequest) {
  const headers = { ...request.headers, ...(request.tier === undefined ? {} : { authorization: `Bearer ${service.keys[request.tier]}` }) };
  const response = await service.fetch(`${service.url}${request.target}`, { method: request.method, headers, ...(request.body === undefined ? {} : { body: request.body }) });
  const picked = Object.fromEntries(PIPELINE_HEADERS.flatMap((name) => (response.headers.has(name) ? [[name, response.headers.get(name)]] : [])));
  return { status: response.status, headers: picked, body: await response.text() };
}

const json = { "content-type": "application/json" };
const tsae = createTsaeRequest(contextAt(T, { zone: 1 }), { scope: "tests.testing.v1", action_hash_hex: sha256Hex("x") });

/** One of each kind of refusal, from admission to the SDK's own checks. */
const BAD_REQUESTS: readonly RawRequest[] = [
  { method: "GET", target: "/api/v1/nope" },
  { method: "GET", target: "/" },
  { method: "POST", target: "/api/v1/core/state", headers: json, body: "{}" },
  { method: "DELETE", target: "/v1/keys" },
  { method: "GET", target: "/api/v1/clockchain/status" },
  { method: "GET", target: "/api/v1/clockchain/status", tier: "developer" },
  { method: "GET", target: "/api/v1/clockchain/status", headers: { authorization: "Basic dXNlcjpwYXNz" } },
  { method: "GET", target: "/api/v1/clockchain/status", headers: { authorization: "Bearer tps_not-a-key" } },
  { method: "GET", target: "/api/v1/core/state%ZZ" },
  { method: "GET", target: "/api/v1/core%2Fstate" },
  { method: "GET", target: "/api/v1/core/state", headers: { origin: "https://evil.example" } },
  { method: "OPTIONS", target: "/api/v1/allow", headers: { origin: "https://app.example.com", "access-control-request-method": "POST" } },
  { method: "POST", target: "/api/v1/allow", headers: json, body: '{"window": [1, 2' },
  { method: "POST", target: "/api/v1/allow", headers: json, body: "" },
  { method: "POST", target: "/api/v1/allow" },
  { method: "POST", target: "/api/v1/allow", headers: { "content-type": "text/plain" }, body: '{"window":[0,90]}' },
  { method: "POST", target: "/api/v1/allow", headers: json, body: JSON.stringify({ window: [0, 360], pad: "x".repeat(65 * 1024) }) },
  { method: "POST", target: "/api/v1/allow", headers: json, body: '{"window":[0,400],"zone":"Z99","at_unix_ms":9e15}' },
  { method: "GET", target: "/v1/clockchain/anchors?tile_id=-1&limit=5000&colour=red" },
  { method: "GET", target: "/api/v1/ai/tpe-vector?harmonics=1e400" },
  { method: "POST", target: "/api/v1/security/tsae", tier: "managed", headers: json, body: JSON.stringify({ ...tsae, scope: "no dots", tile_id: tsae.tile_id + 1 }) },
  {
    method: "POST",
    target: "/api/v1/security/tsae",
    tier: "managed",
    headers: json,
    body: JSON.stringify({ ...tsae, challenge: { challenge_version: 1, nonce: "0".repeat(64), issued_unix_ms: T, expires_unix_ms: T + 60_000, key_id: "0".repeat(16), sig: "AA" } }),
  },
  { method: "GET", target: `/api/v1/clockchain/proof?receipt_hash=${"0".repeat(64)}`, tier: "enterprise" },
  { method: "GET", target: `/api/v1/clockchain/proof?receipt_hash=${"0".repeat(64)}&tile_id=1`, tier: "enterprise" },
  { method: "GET", target: "/api/v1/clockchain/proof?tile_id=1&first=2&second=5", tier: "enterprise" },
  { method: "GET", target: "/api/v1/quantum/decision", tier: "managed" },
  { method: "GET", target: "/api/v1/quantum/carbon", tier: "quantum" },
  { method: "POST", target: "/api/v1/twatch/diff", tier: "developer", headers: json, body: '{"start":{"day_index":1,"phi_ticks":86400000},"end":{"day_index":1,"phi_ticks":0}}' },
];

describe("the stand-in and a real service answer alike", () => {
  it("every kind of bad request: the same status, headers and body (code, message, details)", async () => {
    const [real, standIn] = await Promise.all([REAL_SERVICE.start({}, { at: T }), STAND_IN.start({}, { at: T })]);
    const statuses = new Set<number>();
    for (const request of BAD_REQUESTS) {
      const expected = await exchange(real, request);
      statuses.add(expected.status);
      expect(await exchange(standIn, request), `${request.method} ${request.target}`).toEqual(expected);
    }
    // The list reaches every refusal the pipeline makes (204 is the preflight).
    expect([...statuses].sort()).toEqual([204, 400, 401, 403, 404, 405, 413, 415, 503]);
  });

  it("Content-Length counts the UTF-8 bytes of a reply with text outside ASCII, in both", async () => {
    // The refusal quotes the Origin header, whose bytes Node and fetch read as Latin-1: "é" is two bytes in the reply.
    const request = { method: "GET", target: "/api/v1/core/state", headers: { origin: "https://café.example" } };
    const [real, standIn] = await Promise.all([REAL_SERVICE.start({}, { at: T }), STAND_IN.start({}, { at: T })]);
    const expected = await exchange(real, request);
    expect(expected.status).toBe(403);
    expect(expected.body).toContain("café");
    expect(Number(expected.headers["content-length"])).toBe(Buffer.byteLength(expected.body));
    expect(Number(expected.headers["content-length"])).toBeGreaterThan(expected.body.length);
    expect(await exchange(standIn, request)).toEqual(expected);
  });

  it("429 RATE_LIMITED with the same Retry-After, per address and per key", async () => {
    const limits = { rate_limit: { per_ip: { burst: 3, per_second: 0.5 }, per_key: { burst: 1, per_second: 0.25 } } };
    const [real, standIn] = await Promise.all([REAL_SERVICE.start(limits, { at: T }), STAND_IN.start(limits, { at: T })]);
    const requests: RawRequest[] = [
      { method: "GET", target: "/api/v1/challenge", tier: "developer" },
      { method: "GET", target: "/api/v1/core/state", tier: "developer" },
      { method: "GET", target: "/api/v1/core/state" },
      { method: "GET", target: "/api/v1/core/state" },
    ];
    const replies = async (service: ServiceUnderTest) => {
      const seen = [];
      for (const request of requests) {
        const { status, headers, body } = await exchange(service, request);
        // A challenge's nonce and signature are random: compare its status only.
        seen.push(status === 200 ? { status } : { status, headers, body });
      }
      return seen;
    };
    const expected = await replies(real);
    expect(expected.map((r) => r.status)).toEqual([200, 429, 200, 429]);
    expect(await replies(standIn)).toEqual(expected);
  });

  it("any body sent to POST allow and POST twatch/diff: the same reply (property)", async () => {
    const [real, standIn] = await Promise.all([REAL_SERVICE.start({}, { at: T }), STAND_IN.start({}, { at: T })]);
    const window = fc.oneof(fc.tuple(fc.integer({ min: -10, max: 400 }), fc.integer({ min: -10, max: 400 })), fc.array(fc.double(), { maxLength: 3 }), fc.anything());
    const allowBody = fc.oneof(
      fc
        .record(
          { window, zone: fc.oneof(fc.integer({ min: -1, max: 12 }), fc.constantFrom("Z0", "Z11", "z3", "Z12")), at_unix_ms: fc.oneof(fc.integer(), fc.double()) },
          { requiredKeys: ["window"] },
        )
        .map((b) => JSON.stringify(b)),
      fc.json(),
      fc.string(),
    );
    const stamp = fc.record({ day_index: fc.oneof(fc.integer(), fc.double()), phi_ticks: fc.integer({ min: -1, max: 86_400_001 }) });
    const diffBody = fc.oneof(
      fc.record({ start: stamp, end: stamp }).map((b) => JSON.stringify(b)),
      fc.json(),
    );
    const request = fc.oneof(
      allowBody.map((body): RawRequest => ({ method: "POST", target: "/api/v1/allow", headers: json, body })),
      diffBody.map((body): RawRequest => ({ method: "POST", target: "/v1/twatch/diff", headers: json, body, tier: "developer" })),
    );
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        expect(await exchange(standIn, r)).toEqual(await exchange(real, r));
      }),
      { numRuns: 150 },
    );
  });
});

describe("the stand-in and a real service name their checkpoints alike", () => {
  /** The checkpoint origin of an anchored receipt and the names of the note verifier keys, as a client sees them. */
  async function checkpointNames(service: ServiceUnderTest) {
    const client = createClient({ baseUrl: service.url, apiKey: service.keys.enterprise, fetch: service.fetch });
    const receipt = await client.issueTsae(tsae);
    const proof = await client.anchorTsaeHash(receipt);
    const { note_verifier_keys } = await client.getKeys();
    return { origin: proof.checkpoint.origin, keyNames: Object.values(note_verifier_keys).map((key) => key.split("+")[0]), tile: proof.tile_id };
  }

  it("with authority_name configured, origins are <name>/tile/<tile id> in both", async () => {
    const config = { authority_name: "tps.example.com/staging" };
    const [real, standIn] = await Promise.all([REAL_SERVICE.start(config, { at: T }), STAND_IN.start(config, { at: T })]);
    const expected = await checkpointNames(real);
    expect(expected.origin).toBe(`tps.example.com/staging/tile/${expected.tile}`);
    expect(expected.keyNames).toEqual(["tps.example.com/staging"]);
    expect(await checkpointNames(standIn)).toEqual(expected);
  });

  it("without it, both use temporal-authority/<key id> of their own key", async () => {
    const [real, standIn] = await Promise.all([REAL_SERVICE.start({}, { at: T }), STAND_IN.start({}, { at: T })]);
    for (const service of [real, standIn]) {
      const { origin, keyNames, tile } = await checkpointNames(service);
      expect(keyNames).toHaveLength(1);
      expect(keyNames[0]).toMatch(/^temporal-authority\/[0-9a-f]+$/);
      expect(origin).toBe(`${keyNames[0]}/tile/${tile}`);
    }
  });
});

describe("createTestService", () => {
  it("its clock decides: checkAllow flips as the clock crosses a window's edge", async () => {
    // Z1 reads the phase 30 degrees (two hours) ahead of UTC: its phase 300 is UTC phase 270, 18:00Z.
    const opens = Date.UTC(2026, 10, 22, 18, 0);
    const service = createTestService({ now: new Date(opens - 1) });
    const client = createClient({ baseUrl: service.baseUrl, fetch: service.fetch });
    const before = await client.checkAllow([300, 30], { zone: "Z1" });
    expect(before).toMatchObject({ allow: false, verdict: "DENY", next_open_unix_ms: opens });
    expect(before.ctx.unix_ms).toBe(opens - 1);
    service.clock.advance(1);
    expect(service.clock.now()).toBe(opens);
    expect(await client.checkAllow([300, 30], { zone: "Z1" })).toMatchObject({ allow: true, verdict: "ALLOW", next_open_unix_ms: opens });
    // Its phase 30 is 00:00Z: a minute later the window is shut again.
    const shut = Date.UTC(2026, 10, 23, 0, 1);
    service.clock.set(shut);
    expect(await client.checkAllow([300, 30], { zone: "Z1" })).toMatchObject({ allow: false, next_open_unix_ms: Date.UTC(2026, 10, 23, 18, 0) });
    expect((await client.getState()).unix_ms).toBe(shut);
    await service.close();
  });

  it("its clock is the authority's too: receipts carry it, challenges expire by it", async () => {
    const service = createTestService({ now: T });
    const client = service.client("managed");
    const challenge = await client.getChallenge();
    expect(challenge).toMatchObject({ issued_unix_ms: T, expires_unix_ms: T + 60_000 });
    service.clock.advance(60_001);
    const expired = await client.issueTsae({ ...tsae, challenge }).catch((error: unknown) => error);
    expect(expired).toBeInstanceOf(TemporalApiError);
    expect(expired).toMatchObject({ status: 400, code: "CHALLENGE_EXPIRED" });
    const receipt = await client.issueTsae(tsae);
    expect(receipt.issued_unix_ms).toBe(T + 60_001);
    const keys = await service.publicKeys();
    expect(await verifyReceipt(receipt, keys[receipt.key_id]!)).toBe(true);
    await service.close();
  });

  it("without now it follows the system clock until it is set", async () => {
    const service = createTestService();
    const client = service.client("public");
    const before = Date.now();
    const { unix_ms } = await client.getState();
    expect(unix_ms).toBeGreaterThanOrEqual(before);
    expect(unix_ms).toBeLessThanOrEqual(Date.now());
    service.clock.set(T);
    expect((await client.getState()).unix_ms).toBe(T);
    await service.close();
  });

  it("tiers: a client per tier, each refused above its tier as by the real service", async () => {
    const service = createTestService({ now: T, quality: 0.7, carbon: 120 });
    expect(Object.keys(service.apiKeys).sort()).toEqual(["developer", "enterprise", "managed", "quantum"]);
    await expect(service.client("developer").getQuantumDecision()).rejects.toMatchObject({ status: 403, code: "FORBIDDEN" });
    await expect(service.client("public").getChallenge()).rejects.toMatchObject({ status: 401, code: "UNAUTHORIZED" });
    expect(await service.client("managed").getQuantumDecision({ threshold: 0.6 })).toEqual({ score: 0.7, threshold: 0.6, verdict: "ALLOW", updated_unix_ms: T, source: "static" });
    expect(await service.client("quantum").getQuantumCarbon({ hours: 2 })).toMatchObject({ current: 120, source: "static" });
    await expect(service.client().ready()).resolves.toBeUndefined();
    for (const tier of ["root", "toString"]) expect(() => service.client(tier as "enterprise"), tier).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
    await service.close();
  });

  it("accepts the keys it is given, such as the one the code under test reads from its environment", async () => {
    const service = createTestService({ now: T, apiKeys: { enterprise: "tps_fixed-for-tests", developer: "dev" } });
    expect(service.apiKeys).toMatchObject({ enterprise: "tps_fixed-for-tests", developer: "dev" });
    expect(service.apiKeys.managed).toMatch(/^tps_[A-Za-z0-9_-]{43}$/);
    const client = createClient({ baseUrl: service.baseUrl, apiKey: "tps_fixed-for-tests", fetch: service.fetch });
    await expect(client.ready()).resolves.toBeUndefined();
    await expect(createClient({ baseUrl: service.baseUrl, apiKey: "dev", fetch: service.fetch }).ready()).rejects.toMatchObject({ status: 403, code: "FORBIDDEN" });
    await expect(createClient({ baseUrl: service.baseUrl, apiKey: "tps_other", fetch: service.fetch }).ready()).rejects.toMatchObject({ status: 401, code: "UNAUTHORIZED" });
    await service.close();
    for (const apiKeys of [{ enterprise: "has space" }, { enterprise: "" }, { enterprise: "same", managed: "same" }, { root: "x" }, { enterprise: 42 }]) {
      expect(() => createTestService({ apiKeys } as never), JSON.stringify(apiKeys)).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
    }
  });

  it("refuses bad options and bad clock readings with a coded error", () => {
    expect(() => createTestService({ clock: () => T } as never)).toThrow(expect.objectContaining({ name: "TemporalTypeError", code: "INVALID_ARGUMENT" }));
    expect(() => createTestService({ quality: 1.5 })).toThrow(expect.objectContaining({ name: "TemporalRangeError", code: "INVALID_ARGUMENT" }));
    expect(() => createTestService({ carbon: -1 })).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
    expect(() => createTestService({ now: Number.NaN })).toThrow(expect.objectContaining({ code: "INVALID_TIME" }));
    const { clock } = createTestService({ now: T });
    expect(() => clock.set(new Date("not a date"))).toThrow(expect.objectContaining({ code: "INVALID_TIME" }));
    expect(() => clock.set(9e15)).toThrow(expect.objectContaining({ code: "INVALID_TIME" }));
    expect(() => clock.advance(Number.POSITIVE_INFINITY)).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
    expect(clock.now()).toBe(T);
  });

  it("a request to another origin fails as a network error; the client reports NETWORK_ERROR", async () => {
    const service = createTestService({ now: T });
    await expect(service.fetch("http://127.0.0.1:9/api/v1/core/state")).rejects.toThrow(TypeError);
    const elsewhere = createClient({ baseUrl: "http://elsewhere.test", fetch: service.fetch, retries: 0 });
    await expect(elsewhere.getState()).rejects.toMatchObject({ status: 0, code: "NETWORK_ERROR" });
    await service.close();
  });

  it("close answers later requests 503 SHUTTING_DOWN after those in flight, then closes the authority", async () => {
    const service = createTestService({ now: T });
    const client = service.client();
    const inFlight = client.anchor(await client.issueReceipt(tsae));
    const closed = service.close();
    await expect(inFlight).resolves.toMatchObject({ tree_size: 1 });
    await closed;
    await expect(service.client("public", { retries: 0 }).getState()).rejects.toMatchObject({ status: 503, code: "SHUTTING_DOWN" });
    expect(service.close()).toBe(closed);
  });

  it("a failure that is no error of the service's is answered 500 and makes close() reject", async () => {
    const service = createTestService({ now: T, signer: { load: () => Promise.reject(new Error("the key vault is down")) } });
    await expect(service.client().getChallenge()).rejects.toMatchObject({ status: 500, code: "INTERNAL_ERROR" });
    await expect(service.close()).rejects.toThrow(/answered 1 request\(s\) 500 INTERNAL_ERROR: Error: the key vault is down/);
    const reported: unknown[] = [];
    const quiet = createTestService({ now: T, signer: { load: () => Promise.reject(new Error("down")) }, onUnexpectedError: (error) => reported.push(error) });
    await expect(quiet.client().getChallenge()).rejects.toMatchObject({ status: 500 });
    await quiet.close();
    expect(reported).toHaveLength(1);
  });
});

describe("a compiled mission with sdk: createClient({ fetch: service.fetch })", () => {
  const SOURCE = [
    "@temporal v4.6.2",
    "@anchor Z1",
    "",
    "mission nightly {",
    "  require phase [300, 30]",
    "  on ALLOW {",
    "    execute backup",
    "    anchor TSAE -> clockchain",
    "  }",
    "  on DENY {",
    "    anchor TSAE -> clockchain",
    "  }",
    "}",
    "",
  ].join("\n");

  async function compiledMission(): Promise<Mission> {
    const work = await tempDir();
    // The generated module imports "@temporal/agent-sdk": resolve it to this repository's package.
    await mkdir(join(work, "node_modules", "@temporal"), { recursive: true });
    await symlink(join(ROOT, "packages/sdk"), join(work, "node_modules", "@temporal", "agent-sdk"), "dir");
    const { code, diagnostics } = compile(SOURCE, { filename: "nightly.mission" });
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    await writeFile(join(work, "nightly.mjs"), code!);
    const module = (await import(pathToFileURL(join(work, "nightly.mjs")).href)) as { nightly: Mission };
    return module.nightly;
  }

  it("runs on the stand-in's time and anchors receipts that verify with its public key", async () => {
    const mission = await compiledMission();
    const service = createTestService({ now: Date.UTC(2026, 10, 22, 12, 0) });
    const sdk = createClient({ baseUrl: service.baseUrl, apiKey: service.apiKeys.enterprise, fetch: service.fetch });
    const ran: string[] = [];
    const tasks = { backup: () => void ran.push("backup") };

    const started = Date.now();
    const denied = await mission.run({ sdk, tasks });
    const took = Date.now() - started;
    expect(denied).toMatchObject({ verdict: "DENY", executed: [] });
    // The mission reads the service's time through syncClock: the pinned instant plus the local time since the sync, at most the run's.
    expect(denied.ctx).toMatchObject({ source: "remote", swt_zone: 1 });
    expect(denied.ctx.unix_ms - Date.UTC(2026, 10, 22, 12, 0)).toBeGreaterThanOrEqual(0);
    expect(denied.ctx.unix_ms - Date.UTC(2026, 10, 22, 12, 0)).toBeLessThanOrEqual(took + 1);

    service.clock.set(T);
    const allowed = await mission.run({ sdk, tasks });
    expect(allowed).toMatchObject({ verdict: "ALLOW", executed: ["backup"] });
    expect(ran).toEqual(["backup"]);

    const keys = await service.publicKeys();
    const receipts = [...denied.receipts, ...allowed.receipts] as Receipt[];
    const anchors = [...denied.anchors, ...allowed.anchors] as AnchorProof[];
    expect(receipts).toHaveLength(2);
    expect(receipts.map((r) => r.issued_unix_ms)).toEqual([Date.UTC(2026, 10, 22, 12, 0), T]);
    for (const [i, receipt] of receipts.entries()) {
      expect(await verifyReceipt(receipt, keys[receipt.key_id]!)).toBe(true);
      expect(anchors[i]!.receipt_hash).toBe(receiptHash(receipt));
      expect(await verifyAnchorProof(anchors[i]!, keys[receipt.key_id]!)).toBe(true);
    }
    // The stand-in's authority holds them: its status and the client agree.
    expect((await service.authority.clockchainStatus()).anchors).toBe(2);
    expect(await sdk.getAnchorProof(receiptHash(receipts[1]!))).toEqual(await service.authority.getAnchorProof(receiptHash(receipts[1]!)));
    await service.close();
  });

  it("a client of another tier cannot anchor: the mission run fails with the service's 403", async () => {
    const mission = await compiledMission();
    const service = createTestService({ now: T });
    const sdk = createClient({ baseUrl: service.baseUrl, apiKey: service.apiKeys.developer, fetch: service.fetch });
    await expect(mission.run({ sdk, tasks: { backup: () => undefined } })).rejects.toThrow(/403|FORBIDDEN/);
    await service.close();
  });
});
