/**
 * The SDK's HTTP client against a real service and against the in-process
 * stand-in (`@temporal/server/testing`), with the same assertions: one test
 * per endpoint (every operationId of ROUTES), every reply checked against the
 * OpenAPI document, the example replies of docs/service.md checked against it
 * too, and a compiled mission anchoring in a real service through TEMPORAL_URL.
 */
import { execFile } from "node:child_process";
import { mkdir, readFile, readdir, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Ajv2020 } from "ajv/dist/2020.js";
import {
  TemporalApiError,
  contextAt,
  createClient,
  createTsaeRequest,
  defaultAuthorityName,
  defineMission,
  diff,
  formatVerifierKey,
  nextOpen,
  parseVerifierKey,
  receiptHash,
  sha256Hex,
  signedCheckpointOf,
  syncClock,
  tileOrigin,
  tileVerifierKey,
  tpeVector,
  verifyAnchorProof,
  verifyConsistencyProof,
  verifyReceipt,
  verifySignedCheckpoint,
  verifyZtt,
  formatCosignerVerifierKey,
  windowInterval,
  zttBundleHash,
  type AnchorProof,
  type FetchFunction,
  type PublicKeyJwk,
  type Receipt,
  type TemporalClient,
  type Tier,
} from "@temporal/agent-sdk";
import { beforeAll, describe, expect, it } from "vitest";
import { ROUTES } from "../src/index.js";
import { REAL_SERVICE, STAND_IN, startService, tempDir, type RunningService, type ServiceUnderTest } from "./helpers.js";
import { ed25519KeyPair } from "../../../test/support/key-pair.js";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

// --- Capturing every exchange ----------------------------------------------

interface Exchange {
  readonly method: string;
  /** The path after /api/v1, without the query. */
  readonly path: string;
  readonly query: string;
  readonly status: number;
  readonly body: unknown;
}

const exchanges: Exchange[] = [];

/** `transport` (the real fetch, or the stand-in's), recording the method, path, status and parsed body of each reply. */
const recording =
  (transport: ServiceUnderTest["fetch"]): FetchFunction =>
  async (url, init) => {
    const response = await transport(url, init);
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // kept as text: the schema check then fails, naming it
    }
    const { pathname, search } = new URL(url);
    expect(pathname.startsWith("/api/v1/"), pathname).toBe(true);
    exchanges.push({ method: init.method, path: pathname.slice("/api/v1".length), query: search, status: response.status, body });
    return { status: response.status, statusText: response.statusText, headers: response.headers, text: async () => text };
  };

const OPERATIONS = new Map(ROUTES.map((route) => [route.operationId, route]));

/** A client holding the key of the tier of `operationId`'s route (none for public routes). */
function clientFor(running: ServiceUnderTest, operationId: string): TemporalClient {
  const route = OPERATIONS.get(operationId);
  if (route === undefined) throw new Error(`no route has operationId ${operationId}`);
  return clientOfTier(running, route.tier);
}

function clientOfTier(running: ServiceUnderTest, tier: Tier): TemporalClient {
  const apiKey = tier === "public" ? undefined : running.keys[tier];
  return createClient({ baseUrl: running.url, fetch: recording(running.fetch), retries: 0, ...(apiKey === undefined ? {} : { apiKey }) });
}

async function apiError(promise: Promise<unknown>): Promise<TemporalApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TemporalApiError);
  return error as TemporalApiError;
}

/** The operationIds with an endpoint test below. */
const tested = new Set<string>();

function endpoint(operationId: string, test: () => Promise<void>): void {
  tested.add(operationId);
  const route = OPERATIONS.get(operationId);
  it(`${operationId} (${route?.method ?? "?"} ${route?.path ?? "no such route"})`, async () => {
    expect(route, `ROUTES has no operationId ${operationId}`).toBeDefined();
    const before = exchanges.length;
    await test();
    const made = exchanges.slice(before).filter((e) => e.method === route!.method && e.path === route!.path && e.status === route!.status);
    expect(made.length, `the test made no successful ${route!.method} ${route!.path}`).toBeGreaterThan(0);
  });
}

/** `body` POSTed to `path` (under /api/v1) with a Managed key: the refusal's status, code and the distinct fields its details name. */
async function refusal(running: ServiceUnderTest, path: string, body: unknown): Promise<[number, string, string[]]> {
  const reply = await running.fetch(`${running.url}/api/v1${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${running.keys.managed}` },
    body: JSON.stringify(body),
  });
  const { error } = (await reply.json()) as { error: { code: string; details?: { field: string }[] } };
  return [reply.status, error.code, [...new Set(error.details?.map((d) => d.field))]];
}

/** A fresh Ed25519 public key as base64url, as a remote ZTT signer sends it; its private half is dropped. */
async function publicKeyX(): Promise<string> {
  const pair = await ed25519KeyPair(false);
  return Buffer.from(await crypto.subtle.exportKey("raw", pair.publicKey)).toString("base64url");
}

// --- The services ----------------------------------------------------------

/** 2026-11-22T21:30:00Z: UTC phase 322.5, day 20779. */
const T = Date.UTC(2026, 10, 22, 21, 30);
const HOUR = 3_600_000;
const FORECAST_START = Date.UTC(2026, 10, 22, 21, 0);
/** Hourly gCO2eq/kWh from 21:00Z; 250 for the rest of the 48 hours. */
const HOURLY = [200, 180, 150, 100, 80, 120, 90, 300];

function carbonAwareForecast(location: string, values: (hour: number) => number): unknown {
  const forecastData = Array.from({ length: 48 }, (_, hour) => ({
    location,
    timestamp: new Date(FORECAST_START + hour * HOUR).toISOString().replace(".000Z", "+00:00"),
    duration: 60,
    value: values(hour),
  }));
  return {
    generatedAt: new Date(FORECAST_START - HOUR).toISOString(),
    requestedAt: new Date(FORECAST_START - HOUR).toISOString(),
    location,
    dataStartAt: new Date(FORECAST_START).toISOString(),
    dataEndAt: new Date(FORECAST_START + 48 * HOUR).toISOString(),
    windowSize: 60,
    optimalDataPoints: [],
    forecastData,
  };
}

/** A real service on the real clock: the OpenAPI document, and the service of the compiled mission. */
let reference: RunningService;
let openapi: Record<string, unknown>;

beforeAll(async () => {
  reference = await startService();
  openapi = (await (await fetch(`${reference.url}/api/v1/openapi.json`)).json()) as Record<string, unknown>;
});

/** The document without temporal-service's operators' endpoints (`/healthz`, ...: path items with their own `servers`), which the in-process stand-in does not serve. */
function apiOnly(document: Record<string, unknown>): Record<string, unknown> {
  const paths = Object.entries(document.paths as Record<string, object>).filter(([, item]) => !("servers" in item));
  return { ...document, paths: Object.fromEntries(paths) };
}

// --- The schema checks -----------------------------------------------------

let ajv: Ajv2020 | undefined;

function schemaAjv(): Ajv2020 {
  if (ajv === undefined) {
    ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addSchema(openapi, "openapi");
  }
  return ajv;
}

const pointerSegment = (text: string) => text.replace(/~/g, "~0").replace(/\//g, "~1");

/** The problems of `body` as the reply of `method path` with `status`, by the OpenAPI document; [] when it conforms. */
function replyProblems(method: string, path: string, status: number, body: unknown): string[] {
  const ajv = schemaAjv();
  const ref = `openapi#/paths/${pointerSegment(path)}/${method.toLowerCase()}/responses/${status}/content/application~1json/schema`;
  const validate = ajv.getSchema(ref);
  if (validate === undefined) return [`the OpenAPI document has no schema for ${method} ${path} ${status}`];
  const problems: string[] = [];
  if (!validate(body)) problems.push(ajv.errorsText(validate.errors));
  if (status >= 400) {
    const error = ajv.getSchema("openapi#/components/schemas/Error")!;
    if (!error(body)) problems.push(`not an Error: ${ajv.errorsText(error.errors)}`);
  }
  return problems;
}

// --- 1. Every endpoint through the client ------------------------------------

describe.each([REAL_SERVICE, STAND_IN])("the SDK client against $name", (kind) => {
  /** Fixed clock, static HS-Bloch score 0.9, a westeurope forecast file (with an eastus one to ignore). */
  let fixed: ServiceUnderTest;
  /** Fixed clock, quality from a file, no carbon source. */
  let fileQuality: ServiceUnderTest;
  /** The real clock. */
  let live: ServiceUnderTest;
  // Files of this suite's own, since the tests below rewrite them.
  let qualityFile: string;
  let forecastFile: string;
  let forecastJson: string;

  beforeAll(async () => {
    const dir = await tempDir();
    forecastFile = join(dir, "forecast.json");
    forecastJson = JSON.stringify([carbonAwareForecast("eastus", () => 1), carbonAwareForecast("westeurope", (hour) => HOURLY[hour] ?? 250)]);
    await writeFile(forecastFile, forecastJson);
    qualityFile = join(dir, "quality.json");
    await writeFile(qualityFile, JSON.stringify({ score: 0.4, updated_unix_ms: T - 1000 }));
    [fixed, fileQuality, live] = await Promise.all([
      // ZTT: Z1 is at 352.5, inside [330, 30]; Z0 is at 322.5, outside [100, 200].
      kind.start({ quality: { score: 0.9 }, carbon: { forecast_file: forecastFile, location: "westeurope" }, ztt: { window: [330, 30], zone: "Z1" } }, { at: T }),
      kind.start({ quality: { file: qualityFile }, ztt: { window: [100, 200], zone: 0 } }, { at: T }),
      kind.start(),
    ]);
  });

  const zone1 = contextAt(T, { zone: 1 });
  const action = (text: string) => sha256Hex(text);
  let keys: Record<string, PublicKeyJwk>;
  /** Zone 5's tile: five anchors, for pages and consistency proofs. */
  const tile5 = contextAt(T, { zone: 5 }).tile_id;
  const tile5Proofs: AnchorProof[] = [];
  const tile5Receipts: Receipt[] = [];

  async function issue(running: ServiceUnderTest, zone: number, text: string): Promise<Receipt> {
    return clientFor(running, "issueTsae").issueTsae(createTsaeRequest(contextAt(T, { zone }), { scope: "tests.client.v1", action_hash_hex: action(text) }));
  }

  endpoint("getKeys", async () => {
    const set = await clientFor(fixed, "getKeys").getKeys();
    const entries = Object.entries(set.keys);
    expect(entries).toHaveLength(1);
    const [[id, jwk]] = entries as [[string, PublicKeyJwk]];
    expect(jwk).toMatchObject({ kty: "OKP", crv: "Ed25519", kid: id });
    expect(jwk.x).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The same key as a note verifier key under the default authority name, from which each tile's is derived.
    expect(Object.keys(set.note_verifier_keys)).toEqual([id]);
    const vkey = set.note_verifier_keys[id]!;
    expect(parseVerifierKey(vkey)).toMatchObject({ name: `temporal-authority/${id}`, signatureType: 1, publicKey: new Uint8Array(Buffer.from(jwk.x, "base64url")) });
    expect(tileVerifierKey(vkey, tile5)).toBe(formatVerifierKey(tileOrigin(defaultAuthorityName(jwk), tile5), jwk));
    keys = set.keys;
  });

  endpoint("getContext", async () => {
    const client = clientFor(fixed, "getContext");
    const ctx = await client.getContext({ zone: 3 });
    expect(ctx).toEqual({ ...contextAt(T, { zone: 3 }), source: "remote" });
    expect(ctx.swt_zone).toBe(3);
    expect(ctx.source).toBe("remote");
    expect(ctx.phase_deg).toBe(52.5);
    expect(ctx.utc_phase_deg).toBe(322.5);
    expect(await client.getContext({ zone: "Z11" })).toMatchObject({ swt_zone: 11, phase_deg: 322.5 + 330 - 360 });
    expect((await client.getContext()).swt_zone).toBe(0);
    // The Authority face of the client is the same call.
    expect(await client.now({ zone: 3 })).toEqual(ctx);
  });

  endpoint("getTwatchNow", async () => {
    const now = await clientFor(fixed, "getTwatchNow").getTwatchNow({ t0: T - 25, zone: 2 });
    expect(now.ctx).toEqual(contextAt(T, { zone: 2, source: "remote" }));
    expect(now.sync).toEqual({ t0_unix_ms: T - 25, receive_unix_ms: T, transmit_unix_ms: T });
    expect(now.prompt).toContain("2026-11-22T21:30:00.000Z");
    expect(now.prompt).toContain("Z2");
    expect((await clientFor(fixed, "getTwatchNow").getTwatchNow()).sync.t0_unix_ms).toBeNull();

    // Against the real clock: a loopback round trip is small and the clocks agree.
    const sync = await syncClock(clientFor(live, "getTwatchNow"), { samples: 4 });
    expect(sync.samples).toHaveLength(4);
    // One machine, one clock: t0 <= t1 <= t2 <= t3, so the offset is within half the round trip.
    expect(sync.round_trip_ms).toBeGreaterThanOrEqual(0);
    expect(sync.round_trip_ms).toBeLessThan(1000);
    expect(Math.abs(sync.offset_ms)).toBeLessThanOrEqual(sync.round_trip_ms / 2);
    expect(sync.round_trip_ms).toBe(Math.min(...sync.samples.map((s) => s.round_trip_ms)));
  });

  endpoint("twatchDiff", async () => {
    const client = clientFor(fixed, "twatchDiff");
    const start = { day_index: 20414, phi_ticks: 3_600_000 };
    const end = { day_index: 20415, phi_ticks: 7_384_005 };
    expect(await client.twatchDiff(start, end)).toEqual(diff(start, end));
    expect(await client.twatchDiff(start, end)).toEqual({ ticks: 90_184_005, ms: 90_184_005, seconds: 90_184.005, iso8601: "P1DT1H3M4.005S" });
    // Signed, and a PhaseContext will do as a stamp.
    expect(await client.twatchDiff(contextAt(T), contextAt(T - 1500))).toEqual(diff(contextAt(T), contextAt(T - 1500)));
    expect((await client.twatchDiff(contextAt(T), contextAt(T - 1500))).ms).toBe(-1500);
    const invalid = await apiError(client.twatchDiff(start, { day_index: 1, phi_ticks: 86_400_000 }));
    expect(invalid.status).toBe(400);
  });

  endpoint("getState", async () => {
    expect(await clientFor(fixed, "getState").getState()).toEqual({
      kernel_version: "4.6.2",
      unix_ms: T,
      day_index: 20779,
      phi_ticks: 77_400_000,
      phase_deg: 322.5,
    });
  });

  endpoint("checkAllow", async () => {
    const client = clientFor(fixed, "checkAllow");
    const open = await client.checkAllow([0, 360]);
    expect(open).toMatchObject({ allow: true, verdict: "ALLOW", phase_deg: 322.5, next_open_unix_ms: T });
    expect(open.ctx).toEqual(contextAt(T, { source: "remote" }));

    // Zone 0 is at 322.5; [100, 200] next opens at phase 100 tomorrow: 137.5 degrees of 4 minutes later.
    const closed = await client.checkAllow([100, 200]);
    expect(closed).toMatchObject({ allow: false, verdict: "DENY", phase_deg: 322.5 });
    expect(closed.next_open_unix_ms).toBeGreaterThan(closed.ctx.unix_ms);
    expect(closed.next_open_unix_ms).toBe(T + 137.5 * 240_000);
    expect(closed.next_open_unix_ms).toBe(nextOpen(contextAt(T), [100, 200]));

    // Z1 is at 352.5: inside the wrapping window [300, 30].
    const wrapped = await client.checkAllow([300, 30], { zone: "Z1" });
    expect(wrapped).toMatchObject({ allow: true, phase_deg: 352.5, next_open_unix_ms: T });
    expect(wrapped.ctx.swt_zone).toBe(1);

    // A what-if check: [100, 200] in Z0 holds 10 hours earlier (phase 172.5), and at an instant before 1970.
    const earlier = await client.checkAllow([100, 200], { at: new Date(T - 10 * 3_600_000) });
    expect(earlier).toMatchObject({ allow: true, verdict: "ALLOW", phase_deg: 172.5, next_open_unix_ms: T - 10 * 3_600_000 });
    expect(earlier.ctx).toEqual(contextAt(T - 10 * 3_600_000, { source: "remote" }));
    const before1970 = await client.checkAllow([0, 90], { at: -3_600_000, zone: 1 });
    expect(before1970).toMatchObject({ allow: true, phase_deg: 15 });
    expect(before1970.ctx).toMatchObject({ unix_ms: -3_600_000, day_index: -1, swt_zone: 1 });
    await expect(client.checkAllow([0, 90], { at: Number.NaN })).rejects.toMatchObject({ code: "INVALID_TIME" });
    const outOfRange = await fixed.fetch(`${fixed.url}/api/v1/allow`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"window":[0,90],"at_unix_ms":9e15}' });
    expect(outOfRange.status).toBe(400);
    expect(((await outOfRange.json()) as { error: { details: { field: string }[] } }).error.details.map((d) => d.field)).toEqual(["body.at_unix_ms"]);

    const invalid = await apiError(client.checkAllow([0, 400] as unknown as [number, number]));
    expect(invalid.status).toBe(400);
    expect(invalid.code).toBe("VALIDATION_FAILED");
    expect(invalid.details?.map((d) => d.field)).toEqual(["body.window[1]"]);
  });

  endpoint("getTpeVector", async () => {
    const client = clientFor(fixed, "getTpeVector");
    const result = await client.getTpeVector({ harmonics: 3, zone: 4 });
    expect(result.vector).toHaveLength(6 * 3);
    expect(result.harmonics).toBe(3);
    expect(result.layout).toEqual({ cycles: ["daily", "weekly", "yearly"], per_cycle: 6, order: "sin_cos_by_harmonic" });
    expect(result.ctx).toEqual(contextAt(T, { zone: 4, source: "remote" }));
    expect(result.vector).toEqual(tpeVector(contextAt(T, { zone: 4 }), { harmonics: 3 }));
    expect((await client.getTpeVector()).vector).toHaveLength(6 * 8);
    const tooMany = await apiError(client.getTpeVector({ harmonics: 65 }));
    expect(tooMany.status).toBe(400);
  });

  endpoint("getChallenge", async () => {
    const challenge = await clientFor(fixed, "getChallenge").getChallenge();
    expect(challenge).toMatchObject({ challenge_version: 1, issued_unix_ms: T, expires_unix_ms: T + 60_000 });
    expect(challenge.nonce).toMatch(/^[0-9a-f]{64}$/);
    expect(Object.keys(keys)).toEqual([challenge.key_id]);

    // Spent by a receipt, then refused.
    const tsae = clientFor(fixed, "issueTsae");
    const request = createTsaeRequest(zone1, { scope: "ops.backup.v1", action_hash_hex: action("challenged") });
    const receipt = await tsae.issueTsae({ ...request, challenge });
    expect(receipt.challenge_nonce).toBe(challenge.nonce);
    expect(await verifyReceipt(receipt, keys[receipt.key_id]!)).toBe(true);
    const reused = await apiError(tsae.issueTsae({ ...request, challenge }));
    expect(reused.status).toBe(400);
    expect(reused.code).toBe("CHALLENGE_UNKNOWN");
    // A challenge with a forged signature.
    const forged = { ...(await clientFor(fixed, "getChallenge").getChallenge()), nonce: "0".repeat(64) };
    expect((await apiError(tsae.issueTsae({ ...request, challenge: forged }))).code).toBe("CHALLENGE_INVALID");
  });

  endpoint("issueTsae", async () => {
    const client = clientFor(fixed, "issueTsae");
    const request = createTsaeRequest(zone1, { scope: "ops.backup.v1", action_hash_hex: action("plain") });
    const receipt = await client.issueTsae(request);
    expect(receipt).toMatchObject({ ...request, receipt_version: 1, issued_unix_ms: T, key_id: Object.keys(keys)[0] });
    expect(receipt).not.toHaveProperty("challenge_nonce");
    expect(await verifyReceipt(receipt, keys[receipt.key_id]!)).toBe(true);
    // The checked form sends the same six fields.
    expect(await client.issueReceipt(request)).toMatchObject(request);
    const invalid = await apiError(client.issueTsae({ ...request, tile_id: request.tile_id + 1 }));
    expect(invalid.status).toBe(400);
    expect(invalid.code).toBe("TSAE_REQUEST_INVALID");
    expect(invalid.details?.map((d) => d.field)).toContain("body.tile_id");
  });

  endpoint("anchorTsaeHash", async () => {
    const receipt = await issue(fixed, 1, "anchored");
    const client = clientFor(fixed, "anchorTsaeHash");
    const proof = await client.anchorTsaeHash(receipt);
    expect(proof.receipt_hash).toBe(receiptHash(receipt));
    expect(proof.tile_id).toBe(zone1.tile_id);
    expect(proof.checkpoint.issued_unix_ms).toBe(T);
    expect(await verifyAnchorProof(proof, Object.values(keys)[0]!)).toBe(true);
    // Again: the same proof, not a second leaf.
    expect(await client.anchorTsaeHash(receipt)).toEqual(proof);
    // A receipt the service did not sign.
    const forged = { ...receipt, action_hash_hex: action("forged") };
    const refused = await apiError(client.anchorTsaeHash(forged));
    expect(refused.status).toBe(400);
    expect(refused.code).toBe("RECEIPT_REJECTED");
  });

  endpoint("getAnchorProof", async () => {
    const receipt = await issue(fixed, 1, "proved");
    const anchored = await clientFor(fixed, "anchorTsaeHash").anchorTsaeHash(receipt);
    const client = clientFor(fixed, "getAnchorProof");
    const proof = await client.getAnchorProof(receiptHash(receipt));
    expect(proof).toEqual(anchored);
    expect(await verifyAnchorProof(proof!, Object.values(keys)[0]!)).toBe(true);
    // Not anchored: undefined (a 404 ANCHOR_NOT_FOUND on the wire).
    expect(await client.getAnchorProof(action("never anchored"))).toBeUndefined();
    const last = exchanges.at(-1)!;
    expect([last.status, (last.body as { error: { code: string } }).error.code]).toEqual([404, "ANCHOR_NOT_FOUND"]);

    // Five anchors in zone 5's tile; the consistency proof from size 2 to 5 verifies and matches the roots seen.
    for (let i = 0; i < 5; i++) {
      const r = await issue(fixed, 5, `tile5 #${i}`);
      tile5Receipts.push(r);
      tile5Proofs.push(await clientFor(fixed, "anchorTsaeHash").anchorTsaeHash(r));
    }
    expect(tile5Proofs.map((p) => [p.tile_id, p.leaf_index, p.tree_size])).toEqual([0, 1, 2, 3, 4].map((i) => [tile5, i, i + 1]));
    const consistency = await client.getConsistencyProof(tile5, 2, 5);
    expect(consistency).toMatchObject({ tile_id: tile5, first: 2, second: 5, first_root: tile5Proofs[1]!.root_hash, second_root: tile5Proofs[4]!.root_hash });
    expect(verifyConsistencyProof(consistency)).toBe(true);
    expect(verifyConsistencyProof({ ...consistency, first_root: tile5Proofs[2]!.root_hash })).toBe(false);
    // The earliest leaf's proof now runs under the newest head.
    const latest = await client.getAnchorProof(tile5Proofs[0]!.receipt_hash);
    expect(latest).toMatchObject({ leaf_index: 0, tree_size: 5, root_hash: tile5Proofs[4]!.root_hash });
    expect(await verifyAnchorProof(latest!, Object.values(keys)[0]!)).toBe(true);
    // Sizes the tree does not have.
    expect((await apiError(client.getConsistencyProof(tile5, 2, 6))).status).toBe(400);
  });

  endpoint("getAnchors", async () => {
    const client = clientFor(fixed, "getAnchors");
    const pages = [];
    let offset: number | null = 0;
    while (offset !== null) {
      const page = await client.getAnchors(tile5, { offset, limit: 2 });
      pages.push(page);
      offset = page.next_offset;
    }
    expect(pages.map((p) => [p.offset, p.anchors.length, p.next_offset, p.total])).toEqual([
      [0, 2, 2, 5],
      [2, 2, 4, 5],
      [4, 1, null, 5],
    ]);
    const all = await client.listAnchors(tile5);
    expect(all).toEqual(pages.flatMap((p) => p.anchors));
    expect(all.map((a) => [a.tile_id, a.leaf_index, a.receipt_hash, a.anchored_unix_ms])).toEqual(tile5Receipts.map((r, i) => [tile5, i, receiptHash(r), T]));
    // A tile with no anchors is an empty last page.
    expect(await client.getAnchors(tile5 + 1)).toEqual({ tile_id: tile5 + 1, total: 0, offset: 0, anchors: [], next_offset: null });
    expect((await apiError(client.getAnchors(tile5, { limit: 1001 }))).status).toBe(400);
  });

  endpoint("verifyQuantumProof", async () => {
    const client = clientFor(fixed, "verifyQuantumProof");
    const receipt = tile5Receipts[1]!;
    const proof = (await clientFor(fixed, "getAnchorProof").getAnchorProof(receiptHash(receipt)))!;
    expect(proof.inclusion_proof.length).toBeGreaterThan(0);
    expect(await client.verifyQuantumProof(receipt, proof)).toEqual({ signature: true, inclusion: true, chain: true, valid: true });
    // A tampered path: inclusion fails, the head is still the service's.
    const [first, ...rest] = proof.inclusion_proof;
    const tampered = { ...proof, inclusion_proof: [`${first!.slice(0, -1)}${first!.endsWith("0") ? "1" : "0"}`, ...rest] };
    expect(await client.verifyQuantumProof(receipt, tampered)).toEqual({ signature: true, inclusion: false, chain: true, valid: false });
    // Another receipt with this proof: its hash is not the leaf.
    expect(await client.verifyQuantumProof(tile5Receipts[2]!, proof)).toMatchObject({ signature: true, inclusion: false, valid: false });
    // A forged receipt: the signature fails.
    expect(await client.verifyQuantumProof({ ...receipt, scope: "tests.forged.v1" }, proof)).toMatchObject({ signature: false, valid: false });
    // A checkpoint the service never signed: its note edited, the signature kept.
    const head = signedCheckpointOf(proof.checkpoint.note.replace(/temporal-issued \d+\n/, `temporal-issued ${T + 1}\n`));
    expect(await client.verifyQuantumProof(receipt, { ...proof, checkpoint: head })).toMatchObject({ signature: true, inclusion: true, chain: false, valid: false });
  });

  endpoint("getClockchainStatus", async () => {
    const status = await clientFor(fixed, "getClockchainStatus").getClockchainStatus();
    expect(status.kernel_version).toBe("4.6.2");
    expect(status.chain_valid).toBe(true);
    expect(status.recovered).toBeNull();
    // zone 1: "anchored" and "proved"; zone 5: five.
    expect(status.tiles).toEqual(
      expect.arrayContaining([
        { tile_id: zone1.tile_id, tree_size: 2, root_hash: expect.stringMatching(/^[0-9a-f]{64}$/) },
        { tile_id: tile5, tree_size: 5, root_hash: tile5Proofs[4]!.root_hash },
      ]),
    );
    expect(status.tiles).toHaveLength(2);
    expect(status.anchors).toBe(7);
    // The real service also says whether it reached its store (and, given --node-id, which node answered).
    expect(status.store).toEqual({ kind: fixed.storeKind, records: 7, ...(fixed.storeKind === "file" ? { reachable: true } : {}) });
    expect(status.last_checkpoint).toEqual(tile5Proofs[4]!.checkpoint);
    expect(await verifySignedCheckpoint(status.last_checkpoint!, Object.values(keys)[0]!)).toBe(true);
  });

  endpoint("getQuantumDecision", async () => {
    const client = clientFor(fixed, "getQuantumDecision");
    expect(await client.getQuantumDecision({ threshold: 0.85 })).toEqual({ score: 0.9, threshold: 0.85, verdict: "ALLOW", updated_unix_ms: T, source: "static" });
    expect(await client.getQuantumDecision({ threshold: 0.9 })).toMatchObject({ verdict: "ALLOW" });
    expect(await client.getQuantumDecision({ threshold: 0.95 })).toMatchObject({ score: 0.9, threshold: 0.95, verdict: "DENY" });
    expect(await client.getQuantumDecision()).toMatchObject({ threshold: 0.5, verdict: "ALLOW" });
    expect((await apiError(client.getQuantumDecision({ threshold: 1.5 }))).status).toBe(400);

    // A file source is read again when it changes.
    const fromFile = clientFor(fileQuality, "getQuantumDecision");
    expect(await fromFile.getQuantumDecision({ threshold: 0.5 })).toEqual({ score: 0.4, threshold: 0.5, verdict: "DENY", updated_unix_ms: T - 1000, source: "file" });
    await writeFile(qualityFile, JSON.stringify({ score: 0.75, updated_unix_ms: T - 10 }));
    expect(await fromFile.getQuantumDecision({ threshold: 0.5 })).toEqual({ score: 0.75, threshold: 0.5, verdict: "ALLOW", updated_unix_ms: T - 10, source: "file" });
    await writeFile(qualityFile, JSON.stringify({ score: 0.55 }));
    const noTime = await fromFile.getQuantumDecision({ threshold: 0.6 });
    expect(noTime).toMatchObject({ score: 0.55, verdict: "DENY", source: "file" });
    expect(Math.abs(noTime.updated_unix_ms - Date.now())).toBeLessThan(60_000); // the file's mtime
    await writeFile(qualityFile, "{ not json");
    const broken = await apiError(fromFile.getQuantumDecision());
    expect([broken.status, broken.code]).toEqual([503, "SOURCE_UNAVAILABLE"]);
    // A file gone: said in words, without the server's path (the body reaches clients).
    await rm(qualityFile);
    const gone = await apiError(fromFile.getQuantumDecision());
    expect([gone.status, gone.code]).toEqual([503, "SOURCE_UNAVAILABLE"]);
    expect(gone.message).toMatch(/: the quality source file cannot be used: no such file or folder$/);
    await writeFile(qualityFile, JSON.stringify({ score: 0.4, updated_unix_ms: T - 1000 }));
    // No quality source at all.
    const none = await apiError(clientFor(live, "getQuantumDecision").getQuantumDecision());
    expect([none.status, none.code]).toEqual([503, "SOURCE_UNCONFIGURED"]);
  });

  endpoint("getQuantumCarbon", async () => {
    const client = clientFor(fixed, "getQuantumCarbon");
    // From 21:30, runs of two hours starting by 05:30: 00:00-02:00 averages (100 + 80) / 2 = 90, the lowest.
    expect(await client.getQuantumCarbon({ hours: 8, duration_minutes: 120 })).toEqual({
      unit: "gCO2eq/kWh",
      location: "westeurope",
      current: 200,
      best_window: { start_unix_ms: Date.UTC(2026, 10, 23, 0, 0), end_unix_ms: Date.UTC(2026, 10, 23, 2, 0), intensity: 90 },
      horizon_hours: 8,
      duration_minutes: 120,
      source: "file",
    });
    // An hour's run starting by 23:30: the latest start is best, half at 150 and half at 100 (23:00-00:00 would be 150).
    expect((await client.getQuantumCarbon({ hours: 2, duration_minutes: 60 })).best_window).toEqual({
      start_unix_ms: Date.UTC(2026, 10, 22, 23, 30),
      end_unix_ms: Date.UTC(2026, 10, 23, 0, 30),
      intensity: 125,
    });
    // Defaults: 24 hours, 60 minutes: 01:00-02:00 at 80.
    expect(await client.getQuantumCarbon()).toMatchObject({ horizon_hours: 24, duration_minutes: 60, best_window: { start_unix_ms: Date.UTC(2026, 10, 23, 1, 0), intensity: 80 } });
    // The file is read again when the operator replaces it: one point, 21:00-22:00, covers no hour's run from 21:30 ...
    const oneHour = carbonAwareForecast("westeurope", () => 100) as { forecastData: unknown[] };
    await writeFile(forecastFile, JSON.stringify({ ...oneHour, forecastData: oneHour.forecastData.slice(0, 1) }));
    const short = await apiError(client.getQuantumCarbon());
    expect([short.status, short.code]).toEqual([503, "FORECAST_TOO_SHORT"]);
    // ... and one that starts at 22:00 does not cover now.
    await writeFile(forecastFile, JSON.stringify({ ...oneHour, forecastData: oneHour.forecastData.slice(1) }));
    const late = await apiError(client.getQuantumCarbon());
    expect([late.status, late.code]).toEqual([503, "FORECAST_NOT_CURRENT"]);
    await writeFile(forecastFile, forecastJson);
    expect((await client.getQuantumCarbon()).current).toBe(200);
    const none = await apiError(clientFor(fileQuality, "getQuantumCarbon").getQuantumCarbon());
    expect([none.status, none.code]).toEqual([503, "SOURCE_UNCONFIGURED"]);
  });

  endpoint("scheduleQuantum", async () => {
    const tasks = [
      { name: "batch", duration_ms: 2 * HOUR, window: [0, 360] as const },
      { name: "night", duration_ms: HOUR, window: [0, 90] as const },
      { name: "too_long", duration_ms: 2 * HOUR, window: [0, 15] as const },
      { name: "later", duration_ms: HOUR, window: [150, 180] as const },
    ];
    // With the forecast: the lowest-carbon fitting start.
    const withCarbon = await clientFor(fixed, "scheduleQuantum").scheduleQuantum({
      tasks: [...tasks, { name: "capped", duration_ms: HOUR, window: [0, 90], carbon_max: 85 }, { name: "too_dirty", duration_ms: HOUR, window: [315, 30], carbon_max: 70 }],
      horizon_hours: 8,
    });
    expect(withCarbon.from_unix_ms).toBe(T);
    expect(withCarbon.horizon_hours).toBe(8);
    expect(withCarbon.tasks).toEqual([
      { name: "batch", status: "SCHEDULED", start_unix_ms: Date.UTC(2026, 10, 23, 0), end_unix_ms: Date.UTC(2026, 10, 23, 2), start_phase_deg: 0, carbon_intensity: 90 },
      { name: "night", status: "SCHEDULED", start_unix_ms: Date.UTC(2026, 10, 23, 1), end_unix_ms: Date.UTC(2026, 10, 23, 2), start_phase_deg: 15, carbon_intensity: 80 },
      { name: "too_long", status: "UNSCHEDULABLE", reason: "WINDOW_TOO_SHORT" },
      { name: "later", status: "UNSCHEDULABLE", reason: "NO_START_IN_HORIZON" },
      { name: "capped", status: "SCHEDULED", start_unix_ms: Date.UTC(2026, 10, 23, 1), end_unix_ms: Date.UTC(2026, 10, 23, 2), start_phase_deg: 15, carbon_intensity: 80 },
      { name: "too_dirty", status: "UNSCHEDULABLE", reason: "CARBON_ABOVE_MAX" },
    ]);

    // Without a carbon source: the earliest fitting start, in zone Z1's phase.
    const client = clientFor(fileQuality, "scheduleQuantum");
    const phaseOnly = await client.scheduleQuantum({ tasks, zone: "Z1", horizon_hours: 24 });
    expect(phaseOnly.tasks).toEqual([
      { name: "batch", status: "SCHEDULED", start_unix_ms: T, end_unix_ms: T + 2 * HOUR, start_phase_deg: 352.5 },
      // A zone is 30 degrees, two hours: Z1's phase 0 is 22:00Z.
      { name: "night", status: "SCHEDULED", start_unix_ms: Date.UTC(2026, 10, 22, 22), end_unix_ms: Date.UTC(2026, 10, 22, 23), start_phase_deg: 0 },
      { name: "too_long", status: "UNSCHEDULABLE", reason: "WINDOW_TOO_SHORT" },
      // Z1's phase 150 is 08:00Z.
      { name: "later", status: "SCHEDULED", start_unix_ms: Date.UTC(2026, 10, 23, 8), end_unix_ms: Date.UTC(2026, 10, 23, 9), start_phase_deg: 150 },
    ]);
    // carbon_max cannot be checked without a source.
    const unconfigured = await apiError(client.scheduleQuantum({ tasks: [{ name: "capped", duration_ms: HOUR, window: [0, 90], carbon_max: 85 }] }));
    expect([unconfigured.status, unconfigured.code]).toEqual([503, "SOURCE_UNCONFIGURED"]);
    const invalid = await apiError(client.scheduleQuantum({ tasks: [] }));
    expect([invalid.status, invalid.code]).toEqual([400, "VALIDATION_FAILED"]);
  });

  endpoint("getOpenApi", async () => {
    const document = apiOnly(await clientFor(live, "getOpenApi").getOpenApi());
    expect(document).toEqual(apiOnly(openapi));
    expect(document.openapi).toBe("3.1.0");
    const operations = Object.values(document.paths as Record<string, Record<string, { operationId: string; "x-tier": Tier }>>).flatMap((byMethod) => Object.values(byMethod));
    expect(operations.map((o) => `${o.operationId} ${o["x-tier"]}`).sort()).toEqual(ROUTES.map((r) => `${r.operationId} ${r.tier}`).sort());
  });

  endpoint("signZtt", async () => {
    const client = clientFor(fixed, "signZtt");
    const { keys: jwks } = await clientFor(fixed, "getKeys").getKeys();
    const bundle = await client.signZtt("deploy build 4711");
    // Z1's opening of [330, 30] that starts on day 20779: 20:00 to 24:00 UTC.
    expect(bundle.certificate).toMatchObject({ ztt_version: 1, swt_zone: 1, day_index: 20779, window_deg: [330, 30], ...windowInterval([330, 30], 1, 20779) });
    expect(bundle.certificate.key_id).toBe(Object.keys(jwks)[0]);
    expect(bundle.context).toEqual(contextAt(T, { zone: 1 }));
    expect(bundle.payload_sha256).toBe(sha256Hex("deploy build 4711"));
    // Offline, with nothing but the keys GET keys publishes.
    expect(await verifyZtt(bundle, Object.values(jwks), { payload: "deploy build 4711" })).toMatchObject({ valid: true });
    // Bytes travel as base64; one opening, one ephemeral key.
    const bytes = new Uint8Array([0, 1, 2, 253, 254, 255]);
    const binary = await client.signZtt(bytes);
    expect(binary.payload_sha256).toBe(sha256Hex(bytes));
    expect(binary.key_id).toBe(bundle.key_id);
    expect((await verifyZtt(binary, Object.values(jwks), { payload: bytes })).valid).toBe(true);

    // Outside the window: 409 with the next opening (phase 100 in Z0, 137.5 degrees of 4 minutes away), and when to retry.
    const closed = await apiError(clientFor(fileQuality, "signZtt").signZtt("too early"));
    expect([closed.status, closed.code, closed.retryAfterMs]).toEqual([409, "ZTT_WINDOW_CLOSED", 33_000_000]);
    const raw = await fileQuality.fetch(`${fileQuality.url}/api/v1/ztt/sign`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${fileQuality.keys.managed}` },
      body: '{"payload":"too early"}',
    });
    expect(((await raw.json()) as { error: { next_open_unix_ms: number } }).error.next_open_unix_ms).toBe(T + 137.5 * 240_000);
    expect(raw.headers.get("retry-after")).toBe("33000");
    // A service without a window; base64 that does not decode.
    expect(await apiError(clientFor(live, "signZtt").signZtt("x"))).toMatchObject({ status: 404, code: "ZTT_NOT_CONFIGURED" });
    const notBase64 = await fixed.fetch(`${fixed.url}/api/v1/ztt/sign`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${fixed.keys.managed}` },
      body: '{"payload":"no*base64","encoding":"base64"}',
    });
    expect(notBase64.status).toBe(400);
    expect(((await notBase64.json()) as { error: { details: { field: string }[] } }).error.details.map((d) => d.field)).toEqual(["body.payload"]);
  });

  endpoint("verifyZtt", async () => {
    const bundle = await clientFor(fixed, "signZtt").signZtt("deploy build 4711");
    const client = clientFor(fixed, "verifyZtt");
    const verified = await client.verifyZtt(bundle, { payload: "deploy build 4711" });
    expect(verified).toEqual({
      valid: true,
      checks: ["certificate_signature", "certificate_interval", "ephemeral_signature", "signing_context", "payload_sha256", "anchor_receipt", "anchor_inclusion"].map((name) => ({
        name,
        ok: true,
      })),
    });
    expect((await client.verifyZtt(bundle)).checks.map((c) => c.name)).not.toContain("payload_sha256");
    // Each failure is named, never an error: another payload, a moved signing time, a bundle of another service's key, no bundle at all.
    const failing = async (result: Promise<{ valid: boolean; checks: readonly { name: string; ok: boolean }[] }>) => (await result).checks.filter((c) => !c.ok).map((c) => c.name);
    expect(await failing(client.verifyZtt(bundle, { payload: "deploy build 4712" }))).toEqual(["payload_sha256"]);
    // Trusting witnesses asks for a FINAL anchor: this one is PROVISIONAL (the service has none). A vkey that is not one is the caller's mistake.
    const witness = formatCosignerVerifierKey("witness.example", new Uint8Array(32).fill(7));
    expect(await failing(client.verifyZtt(bundle, { witnesses: [witness], quorum: 1, skewMs: 1000 }))).toEqual(["witnessed_time"]);
    expect(await apiError(client.verifyZtt(bundle, { witnesses: ["not a vkey"] }))).toMatchObject({ status: 400 });
    const moved = { ...bundle, context: contextAt(T - 3 * HOUR, { zone: 1 }) };
    // The anchor's receipt names the bundle's hash, which the move changed too.
    expect(await failing(client.verifyZtt(moved))).toEqual(["ephemeral_signature", "signing_context", "anchor_receipt"]);
    expect(await failing(clientFor(live, "verifyZtt").verifyZtt(bundle))).toEqual(["certificate_signature", "anchor_receipt", "anchor_inclusion"]);
    // The anchor is the service's receipt of the bundle in its clockchain.
    expect(bundle.anchor?.receipt).toMatchObject({ scope: "ztt.bundle.v1", action_hash_hex: zttBundleHash(bundle), tile_id: bundle.context.tile_id });
    expect((await client.verifyZtt({} as typeof bundle)).valid).toBe(false);
    // require_anchor: the bundle as signed passes, with its anchor stripped it fails anchor_receipt.
    const { anchor: _anchor, ...stripped } = bundle;
    expect((await client.verifyZtt(bundle, { requireAnchor: true })).valid).toBe(true);
    expect(await failing(client.verifyZtt(stripped))).toEqual([]);
    expect(await failing(client.verifyZtt(stripped, { requireAnchor: true }))).toEqual(["anchor_receipt"]);
    // The opening the verifier expects: the certificate's window and zone pass, another window or zone fails certificate_interval, naming both.
    expect(await client.verifyZtt(bundle, { window: [330, 30], zone: "Z1" })).toEqual({ valid: true, checks: verified.checks.filter((c) => c.name !== "payload_sha256") });
    const otherWindow = await client.verifyZtt(bundle, { window: [300, 60], zone: 1 });
    expect(otherWindow.checks.filter((c) => !c.ok)).toEqual([{ name: "certificate_interval", ok: false, reason: "the certificate is for window [330, 30], not the expected [300, 60]" }]);
    expect(await failing(client.verifyZtt(bundle, { zone: 2 }))).toEqual(["certificate_interval"]);
    // A window or zone that is not one is the caller's mistake: 400 naming the field, never a failed check.
    expect(await apiError(client.verifyZtt(bundle, { window: [330] as unknown as [number, number] }))).toMatchObject({ status: 400, code: "VALIDATION_FAILED" });
    expect(await refusal(fixed, "/ztt/verify", { bundle, window: [330] })).toEqual([400, "VALIDATION_FAILED", ["body.window"]]);
    expect(await refusal(fixed, "/ztt/verify", { bundle, window: [330, 400] })).toEqual([400, "VALIDATION_FAILED", ["body.window[1]"]]);
    expect(await refusal(fixed, "/ztt/verify", { bundle, window: "330,30" })).toEqual([400, "VALIDATION_FAILED", ["body.window"]]);
    expect(await refusal(fixed, "/ztt/verify", { bundle, zone: "Z12" })).toEqual([400, "VALIDATION_FAILED", ["body.zone"]]);
  });

  endpoint("certifyZtt", async () => {
    const client = clientFor(fixed, "certifyZtt");
    const { keys: jwks } = await clientFor(fixed, "getKeys").getKeys();
    // The remote signer: its key made here, its certificate the service's, its clock the service's (synced: T).
    const signer = client.zttSigner({ window: [330, 30], zone: "Z1" });
    const bundle = await signer.sign("deploy build 4711");
    expect(bundle.certificate).toMatchObject({ swt_zone: 1, day_index: 20779, window_deg: [330, 30], key_id: Object.keys(jwks)[0], ...windowInterval([330, 30], 1, 20779) });
    expect(Math.abs(bundle.context.unix_ms - T)).toBeLessThan(60_000);
    expect(await verifyZtt(bundle, Object.values(jwks), { payload: "deploy build 4711" })).toMatchObject({ valid: true });
    expect(signer.holdsKey()).toBe(true);
    signer.close();
    expect(signer.holdsKey()).toBe(false);
    // Given a clock, it drops the key when the opening ends by that clock, and refuses from then on without asking the service.
    let at = T;
    const clocked = client.zttSigner({ window: [330, 30], zone: 1, clock: () => at });
    await clocked.sign("in");
    at = windowInterval([330, 30], 1, 20779).end_unix_ms + 1;
    expect(clocked.holdsKey()).toBe(false);
    const asked = exchanges.length;
    await expect(clocked.sign("late")).rejects.toMatchObject({ code: "ZTT_WINDOW_CLOSED", next_open_unix_ms: windowInterval([330, 30], 1, 20780).start_unix_ms });
    expect(exchanges.length).toBe(asked);

    // The endpoint itself: a key of the caller's, any window open now by the service's clock.
    const x = await publicKeyX();
    const certificate = await client.certifyZtt(x, [300, 60], 1);
    expect(certificate).toMatchObject({ ephemeral_x: x, swt_zone: 1, day_index: 20779, window_deg: [300, 60], ...windowInterval([300, 60], 1, 20779) });
    // Closed by the service's clock: 409 with the next opening (phase 100 in Z0 is 137.5 degrees away), for the signer too.
    const closed = await apiError(client.certifyZtt(x, [100, 200], 0));
    expect([closed.status, closed.code, closed.retryAfterMs, closed.nextOpenUnixMs]).toEqual([409, "ZTT_WINDOW_CLOSED", 33_000_000, T + 137.5 * 240_000]);
    const refused = client.zttSigner({ window: [100, 200], zone: 0, clock: () => T + 137.5 * 240_000 }).sign("the service's clock says closed");
    // In the words a local signer uses, naming the clock that decided and the service's next opening (here the signer's own time).
    const opens = new Date(T + 137.5 * 240_000).toISOString();
    await expect(refused).rejects.toMatchObject({
      code: "ZTT_WINDOW_CLOSED",
      next_open_unix_ms: T + 137.5 * 240_000,
      message: `window [100, 200] is closed by the service's clock at ${opens}; it opens next at ${opens}`,
    });
    // The signer's clock in another opening than the service's: the clocks disagree, nothing is signed.
    await expect(client.zttSigner({ window: [330, 30], zone: 1, clock: () => T - 86_400_000 }).sign("a day late")).rejects.toMatchObject({ code: "ZTT_CLOCK_SKEW" });
    // A mission run by a simulated clock: the service certifies by its own, so it is refused before any task runs.
    let ran = false;
    const mission = defineMission({
      name: "nightly",
      kernel_version: "4.6.2",
      zone: 1,
      requires: { phase: [[330, 30]], carbon: null, hs_bloch: null },
      check: () => [],
      on: { ALLOW: [{ execute: "work" }, { anchor: "clockchain", signed: "ZTT" }], DENY: [] },
    });
    const simulated = mission.run({ sdk: clientOfTier(fixed, "enterprise"), clock: () => T, tasks: { work: () => void (ran = true) } });
    const missionRefusal = (await simulated.catch((error: unknown) => error)) as Error & { code: string };
    expect([missionRefusal.code, missionRefusal.message]).toEqual(["AUTHORITY_UNAVAILABLE", expect.stringContaining("simulated")]);
    expect(ran).toBe(false);

    // Keys no verifier should trust, and bad windows and zones: 400 naming the field.
    const certifyRefusal = (body: unknown) => refusal(fixed, "/ztt/certify", body);
    const base64url = (hex: string) => Buffer.from(hex, "hex").toString("base64url");
    const allZero = base64url("00".repeat(32));
    const identity = base64url(`01${"00".repeat(31)}`);
    const orderEight = base64url("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05");
    for (const key of [allZero, identity, orderEight]) expect(await certifyRefusal({ ephemeral_x: key, window: [330, 30], zone: 1 })).toEqual([400, "ZTT_KEY_INVALID", ["body.ephemeral_x"]]);
    expect(await certifyRefusal({ ephemeral_x: `${x}A`, window: [330, 30], zone: 1 })).toEqual([400, "VALIDATION_FAILED", ["body.ephemeral_x"]]);
    expect(await certifyRefusal({ ephemeral_x: x, window: [330, 400], zone: 1 })).toEqual([400, "VALIDATION_FAILED", ["body.window[1]"]]);
    expect(await certifyRefusal({ ephemeral_x: x, window: [330, 30], zone: "Z12" })).toEqual([400, "VALIDATION_FAILED", ["body.zone"]]);
    expect(await certifyRefusal({ ephemeral_x: x, window: [330, 30] })).toEqual([400, "VALIDATION_FAILED", ["body.zone"]]);
    // Two keys, the second one the caller's: which one a parser keeps must not matter, so neither is certified.
    const twice = await fixed.fetch(`${fixed.url}/api/v1/ztt/certify`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${fixed.keys.managed}` },
      body: `{"ephemeral_x":"${x}","window":[330,30],"zone":1,"ephemeral_x":"${await publicKeyX()}"}`,
    });
    expect([twice.status, ((await twice.json()) as { error: { code: string } }).error.code]).toEqual([400, "DUPLICATE_KEY"]);
  });

  it("has a test for every operationId of ROUTES, each a method of the client", () => {
    expect([...tested].sort()).toEqual(ROUTES.map((route) => route.operationId).sort());
    const client = createClient({ baseUrl: fixed.url });
    for (const operationId of tested) expect(typeof (client as unknown as Record<string, unknown>)[operationId], operationId).toBe("function");
  });
});

// --- 2. Every reply against the OpenAPI document ---------------------------

describe("replies and the OpenAPI document", () => {
  it("every reply captured above matches its route's response schema, errors the Error schema", () => {
    expect(exchanges.length).toBeGreaterThan(50);
    const failures: string[] = [];
    for (const e of exchanges) {
      for (const problem of replyProblems(e.method, e.path, e.status, e.body)) failures.push(`${e.method} ${e.path}${e.query} ${e.status}: ${problem}`);
    }
    expect(failures).toEqual([]);
    // Both kinds were seen: a success of every route, and errors of several statuses.
    const successes = new Set(exchanges.filter((e) => e.status < 300).map((e) => `${e.method} ${e.path} ${e.status}`));
    expect([...successes].sort()).toEqual(ROUTES.map((r) => `${r.method} ${r.path} ${r.status}`).sort());
    expect(new Set(exchanges.filter((e) => e.status >= 400).map((e) => e.status))).toEqual(new Set([400, 404, 409, 503]));
  });

  it("the schemas are not vacuous: a wrong reply fails them", () => {
    expect(replyProblems("GET", "/context", 200, { ...contextAt(T), swt_zone: 12 })).not.toEqual([]);
    expect(replyProblems("GET", "/context", 200, { ...contextAt(T), extra: 1 })).not.toEqual([]);
    expect(replyProblems("POST", "/security/tsae", 201, {})).not.toEqual([]);
    expect(replyProblems("GET", "/keys", 400, { error: { code: "X" } })).not.toEqual([]);
  });

  it("every example reply in docs/service.md matches the schema of its route and status", async () => {
    const doc = await readFile(join(ROOT, "docs/service.md"), "utf8");
    const examples = [...doc.matchAll(/^<!-- reply: (GET|POST) (\/\S+) (\d{3}) -->\r?\n```json\r?\n([\s\S]*?)\r?\n```$/gm)];
    // A marker not followed by a ```json block would be silently skipped by the pattern above.
    expect(examples.length).toBe([...doc.matchAll(/<!-- reply:/g)].length);
    const failures: string[] = [];
    for (const [, method, path, status, json] of examples) {
      let body: unknown;
      try {
        body = JSON.parse(json!);
      } catch (error) {
        failures.push(`${method} ${path} ${status}: not JSON: ${(error as Error).message}`);
        continue;
      }
      for (const problem of replyProblems(method!, path!, Number(status), body)) failures.push(`${method} ${path} ${status}: ${problem}`);
    }
    expect(failures).toEqual([]);
    const documented = new Set(examples.map(([, method, path, status]) => `${method} ${path} ${status}`));
    // openapi.json's reply is the whole document, checked live by openapi.test.ts rather than copied into the docs.
    const missing = ROUTES.filter((r) => r.path !== "/openapi.json")
      .map((r) => `${r.method} ${r.path} ${r.status}`)
      .filter((key) => !documented.has(key));
    expect(missing, "routes with no <!-- reply: METHOD /path STATUS --> example in docs/service.md").toEqual([]);
  });
});

// --- 3. A compiled mission anchors in the service --------------------------

describe("a compiled mission with TEMPORAL_URL", () => {
  let work: string;
  let home: string;
  const env = () => ({ ...process.env, TEMPORAL_URL: reference.url, TEMPORAL_API_KEY: reference.keys.enterprise, TEMPORAL_HOME: home, NO_COLOR: "1" });

  beforeAll(async () => {
    work = await tempDir();
    home = join(work, "home");
    await mkdir(home);
    // The generated module imports "@temporal/agent-sdk": resolve it to this repository's package.
    await mkdir(join(work, "node_modules", "@temporal"), { recursive: true });
    await symlink(join(ROOT, "packages/sdk"), join(work, "node_modules", "@temporal", "agent-sdk"), "dir");
    await writeFile(
      join(work, "always.mission"),
      ["@temporal v4.6.2", "@anchor Z2", "", "mission always_on {", "  require phase [0, 360]", "  on ALLOW {", "    execute ping", "    anchor TSAE -> clockchain", "  }", "}", ""].join(
        "\n",
      ),
    );
    await writeFile(join(work, "tasks.mjs"), "export const ping = (ctx) => console.log(`  ping in zone Z${ctx.swt_zone}`);\n");
  });

  async function publicKeys(): Promise<Record<string, PublicKeyJwk>> {
    const response = await fetch(`${reference.url}/api/v1/keys`); // no key: keys are public
    expect(response.status).toBe(200);
    return ((await response.json()) as { keys: Record<string, PublicKeyJwk> }).keys;
  }

  async function proofOnService(hash: string): Promise<unknown> {
    const response = await fetch(`${reference.url}/api/v1/clockchain/proof?receipt_hash=${hash}`, { headers: { authorization: `Bearer ${reference.keys.enterprise}` } });
    expect(response.status).toBe(200);
    return response.json();
  }

  it("temporalc compile, then run the module: its receipt is anchored in the service", async () => {
    await run(process.execPath, [join(ROOT, "bin/temporalc"), "compile", "always.mission", "--out-dir", "out"], { cwd: work, env: env() });
    const compiled = await readFile(join(work, "out", "always.mjs"), "utf8");
    expect(compiled).toContain('from "@temporal/agent-sdk"');
    await writeFile(
      join(work, "main.mjs"),
      [
        'import { always_on } from "./out/always.mjs";',
        'import * as tasks from "./tasks.mjs";',
        "const result = await always_on.run({ tasks });",
        "process.stdout.write(JSON.stringify(result) + '\\n');",
      ].join("\n"),
    );
    const { stdout } = await run(process.execPath, ["main.mjs"], { cwd: work, env: env(), timeout: 10_000 });
    const lines = stdout.trimEnd().split("\n");
    expect(lines[0]).toBe("  ping in zone Z2");
    const result = JSON.parse(lines.at(-1)!) as { verdict: string; executed: string[]; receipts: Receipt[]; anchors: AnchorProof[] };
    expect(result.verdict).toBe("ALLOW");
    expect(result.executed).toEqual(["ping"]);
    expect(result.receipts).toHaveLength(1);
    expect(result.anchors).toHaveLength(1);
    const [receipt] = result.receipts as [Receipt];
    const [proof] = result.anchors as [AnchorProof];
    expect(receipt.scope).toBe("missions.always_on.v1");
    expect(receipt.swt_zone).toBe(2);
    expect(proof.receipt_hash).toBe(receiptHash(receipt));

    // Checked with nothing but the service's public key.
    const keys = await publicKeys();
    expect(await verifyReceipt(receipt, keys[receipt.key_id]!)).toBe(true);
    expect(await verifyAnchorProof(proof, Object.values(keys)[0]!)).toBe(true);
    expect(await proofOnService(proof.receipt_hash)).toEqual(proof);
  });

  it("temporalc run uses the service too, and says the receipt was anchored", async () => {
    const { stdout, stderr } = await run(process.execPath, [join(ROOT, "bin/temporalc"), "run", "always.mission", "--tasks", "tasks.mjs"], { cwd: work, env: env(), timeout: 10_000 });
    expect(stderr).not.toMatch(/error/i);
    expect(stdout).toMatch(/^always_on: ALLOW at /m);
    expect(stdout).toContain("  ran: ping\n");
    const anchored = /receipt anchored: tile (\d+), leaf (\d+) of (\d+), root ([0-9a-f]{64})/.exec(stdout);
    expect(anchored, stdout).not.toBeNull();
    const [, tile, leaf, size, root] = anchored!;

    const client = createClient({ baseUrl: reference.url, apiKey: reference.keys.enterprise });
    const anchors = await client.listAnchors(Number(tile));
    const summary = anchors.find((a) => a.leaf_index === Number(leaf));
    expect(summary).toBeDefined();
    expect(anchors).toHaveLength(Number(size));
    const proof = (await proofOnService(summary!.receipt_hash)) as AnchorProof;
    expect(proof).toMatchObject({ tile_id: Number(tile), leaf_index: Number(leaf), tree_size: Number(size), root_hash: root });
    const keys = await publicKeys();
    expect(await verifyAnchorProof(proof, Object.values(keys)[0]!)).toBe(true);
    expect((await client.getClockchainStatus()).chain_valid).toBe(true);
  });

  it("left TEMPORAL_HOME empty and made no ./.temporal: no local authority ran", async () => {
    expect(await readdir(home)).toEqual([]);
    expect((await readdir(work)).sort()).toEqual(["always.mission", "home", "main.mjs", "node_modules", "out", "tasks.mjs"]);
  });
});
