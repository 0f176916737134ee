/**
 * Property tests against a real service: whatever a client sends to any
 * route, under either prefix, with any tier's key, the reply is never a 5xx,
 * and every 4xx has the one error shape `{ error: { code, message, details? } }`.
 * Requests go out as raw bytes over `node:http`, so bodies may be invalid
 * UTF-8, truncated, deeply nested or oversized, and queries may repeat keys
 * or carry broken percent-escapes.
 */
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { connect } from "node:net";
import { contextAt, createTsaeRequest, sha256Hex, type Tier } from "@temporal/agent-sdk";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { BODY_LIMIT_BYTES, ROUTES, tierAllows, type Route } from "../src/index.js";
import { ERROR_BODY } from "@temporal/agent-sdk/service";
import { ALLOWED_ORIGINS, startService, type RunningService } from "./helpers.js";
import { ed25519KeyPair } from "../../../test/support/key-pair.js";

const PREFIXES = ["/api/v1", "/v1"] as const;
const POST_ROUTES = ROUTES.filter((route) => route.method === "POST");
/**
 * `FUZZ_SCALE=20 npx vitest run packages/server/test/fuzz.test.ts` runs 20 times as many cases (and allows 20 times the time).
 * At scale 1 each property also stops early, passing, after TIME_LIMIT_MS, so the file stays well under 30 s on 2 busy cores.
 */
const SCALE = Number(process.env.FUZZ_SCALE ?? 1);
const TIME_LIMIT_MS = 4_000 * SCALE;
const TEST_TIMEOUT_MS = 30_000 * SCALE;

// ---------------------------------------------------------------- raw HTTP

interface RawRequest {
  readonly method: string;
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: Uint8Array;
  /** Send the body with Transfer-Encoding: chunked instead of Content-Length. */
  readonly chunked?: boolean;
}

interface RawReply {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

let running: RunningService;
let origin: URL;

/** One request on its own connection; resolves with the reply even if the server closes the connection while the body is still being sent. */
function send(req: RawRequest): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { connection: "close", ...req.headers };
    if (req.body !== undefined && !req.chunked) headers["content-length"] = String(req.body.length);
    if (req.chunked) headers["transfer-encoding"] = "chunked";
    let answered = false;
    const outgoing = httpRequest({ host: origin.hostname, port: origin.port, method: req.method, path: req.path, headers, agent: false }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
      incoming.on("end", () => {
        answered = true;
        resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body: Buffer.concat(chunks) });
      });
      incoming.on("error", (error) => (answered ? undefined : reject(error)));
    });
    outgoing.on("error", (error) => {
      // EPIPE/ECONNRESET once the server has answered (a 413 before the whole body was read) is expected.
      if (!answered) setTimeout(() => (answered ? undefined : reject(error)), 200);
    });
    if (req.body !== undefined && req.body.length > 0) {
      if (req.chunked) {
        const half = req.body.length >> 1;
        outgoing.write(req.body.subarray(0, half));
        outgoing.write(req.body.subarray(half));
      } else {
        outgoing.write(req.body);
      }
    }
    outgoing.end();
  });
}

const describeRequest = (req: RawRequest) =>
  `${req.method} ${req.path} ${JSON.stringify(req.headers ?? {})}${req.chunked ? " (chunked)" : ""} body(${req.body?.length ?? 0} B): ${req.body === undefined ? "" : JSON.stringify(Buffer.from(req.body.subarray(0, 300)).toString("latin1"))}`;

// ---------------------------------------------------------------- checks

// strictRequired off: the openapi reply schema requires properties it does not list.
const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false });
const validErrorBody = ajv.compile(ERROR_BODY);
const replyValidators = new Map<Route, ValidateFunction>();
const replyValidator = (route: Route): ValidateFunction => {
  let validate = replyValidators.get(route);
  if (validate === undefined) {
    validate = ajv.compile(route.reply);
    replyValidators.set(route, validate);
  }
  return validate;
};

/** The invariant every reply must hold; returns the error code of a 4xx. */
function checkReply(req: RawRequest, reply: RawReply, route?: Route): string | undefined {
  const where = `${describeRequest(req)}\n  -> ${reply.status} ${reply.body.toString("utf8").slice(0, 500)}`;
  expect(reply.status, where).toBeGreaterThanOrEqual(200);
  expect(reply.status, where).toBeLessThan(500);
  // Every reply, errors and preflights included, is never cached, never sniffed, and varies by Origin.
  expect([reply.headers["cache-control"], reply.headers["x-content-type-options"], reply.headers.vary], where).toEqual(["no-store", "nosniff", "Origin"]);
  if (req.method === "HEAD") return undefined; // a HEAD reply has no body to check
  if (reply.status === 204) {
    expect(req.method, where).toBe("OPTIONS");
    expect(reply.body.length, where).toBe(0);
    return undefined;
  }
  expect(reply.headers["content-type"], where).toBe("application/json; charset=utf-8");
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(reply.body));
  } catch (error) {
    throw new Error(`reply is not JSON (${(error as Error).message}): ${where}`);
  }
  if (reply.status >= 400) {
    expect(validErrorBody(body), `${where}\n  ${ajv.errorsText(validErrorBody.errors)}`).toBe(true);
    return (body as { error: { code: string } }).error.code;
  }
  if (route !== undefined) {
    expect(reply.status, where).toBe(route.status);
    const validate = replyValidator(route);
    expect(validate(body), `${where}\n  ${ajv.errorsText(validate.errors)}`).toBe(true);
  }
  return undefined;
}

// ---------------------------------------------------------------- JSON trees that can hold what JSON.stringify cannot write

/** An object keeps its entries as a list so a key may appear twice; `raw` is written as is (1e400, -0, 10 000 nested arrays). */
type Node = { readonly t: "obj"; readonly e: [string, Node][] } | { readonly t: "arr"; readonly a: Node[] } | { readonly t: "raw"; readonly s: string };

function toNode(value: unknown): Node {
  if (Array.isArray(value)) return { t: "arr", a: value.map(toNode) };
  if (value !== null && typeof value === "object") return { t: "obj", e: Object.keys(value).map((key) => [key, toNode((value as Record<string, unknown>)[key])]) };
  return { t: "raw", s: JSON.stringify(value) ?? "null" };
}

function toText(node: Node): string {
  switch (node.t) {
    case "raw":
      return node.s;
    case "arr":
      return `[${node.a.map(toText).join(",")}]`;
    case "obj":
      return `{${node.e.map(([key, value]) => `${JSON.stringify(key)}:${toText(value)}`).join(",")}}`;
  }
}

function clone(node: Node): Node {
  if (node.t === "arr") return { t: "arr", a: node.a.map(clone) };
  if (node.t === "obj") return { t: "obj", e: node.e.map(([key, value]) => [key, clone(value)]) };
  return node;
}

interface Slot {
  set(node: Node): void;
  remove(): void;
  readonly node: Node;
}

/** Every position in the tree (the root last), so a mutation can hit any field at any depth. */
function slots(root: { node: Node }): Slot[] {
  const found: Slot[] = [];
  const walk = (node: Node) => {
    if (node.t === "arr") {
      node.a.forEach((child, i) => {
        found.push({ node: child, set: (n) => void (node.a[i] = n), remove: () => void node.a.splice(i, 1) });
        walk(child);
      });
    } else if (node.t === "obj") {
      node.e.forEach((entry, i) => {
        found.push({ node: entry[1], set: (n) => void (entry[1] = n), remove: () => void node.e.splice(i, 1) });
        walk(entry[1]);
      });
    }
  };
  walk(root.node);
  found.push({ node: root.node, set: (n) => void (root.node = n), remove: () => void (root.node = { t: "obj", e: [] }) });
  return found;
}

const raw = (s: string): Node => ({ t: "raw", s });
const deepArrays = (depth: number) => raw(`${"[".repeat(depth)}${"]".repeat(depth)}`);
const deepObjects = (depth: number) => raw(`${'{"a":'.repeat(depth)}0${"}".repeat(depth)}`);

/** Values of every JSON type that a schema or the SDK might trip over. */
const oddValue: fc.Arbitrary<Node> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .constantFrom(
        "1e400",
        "-1e400",
        "-0",
        "-0.0",
        "1e308",
        "-1e308",
        "1.7976931348623157e308",
        "9007199254740993",
        "-9007199254740993",
        "9007199254740992",
        "5e-324",
        "1e-400",
        "0.1",
        "1E+2",
        "360",
        "360.0000000000001",
        "359.99999999999999999",
        "-1",
        "1.5",
        "12",
        "123456789012345678901234567890",
        "0e0",
      )
      .map(raw),
  },
  {
    weight: 3,
    arbitrary: fc
      .constantFrom<unknown>(null, true, false, 0, "", "x", "Z1", "Z12", "11", "0", "\u0000", "\ud800", "\udfff\ud800", "é", "a".repeat(200), [], {}, [0, 360], [200, 280, 1], [[0, 1]], {
        x: 1,
      })
      .map(toNode),
  },
  { weight: 1, arbitrary: fc.constantFrom('{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{"polluted":1}}}', '{"toString":1,"valueOf":"x","hasOwnProperty":null}').map(raw) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 32_000 }).map(deepArrays) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 10_000 }).map(deepObjects) },
  { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 70_000 }).map((n) => raw(JSON.stringify("x".repeat(n)))) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map(toNode) },
  {
    weight: 2,
    arbitrary: fc
      .oneof(fc.double(), fc.integer(), fc.bigInt().map(String), fc.string({ unit: "binary" }))
      .map((value) => (typeof value === "string" && /^-?\d+$/.test(value) ? raw(value) : toNode(value))),
  },
);

const KEYS = ["extra", "__proto__", "constructor", "prototype", "", "window", "zone", "receipt", "proof", "challenge", "tasks", "scope", "start"];

type Mutation =
  { readonly op: "replace" | "remove"; readonly at: number; readonly value: Node } | { readonly op: "add" | "duplicate"; readonly at: number; readonly key: string; readonly value: Node };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ op: fc.constant("replace" as const), at: fc.nat(), value: oddValue }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("remove" as const), at: fc.nat(), value: fc.constant(raw("0")) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("add" as const), at: fc.nat(), key: fc.oneof(fc.constantFrom(...KEYS), fc.string()), value: oddValue }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("duplicate" as const), at: fc.nat(), key: fc.constant(""), value: oddValue }) },
);

function mutate(example: unknown, mutations: readonly Mutation[]): Node {
  const root = { node: clone(toNode(example)) };
  for (const m of mutations) {
    const all = slots(root);
    const slot = all[m.at % all.length] as Slot;
    if (m.op === "replace") slot.set(m.value);
    else if (m.op === "remove") slot.remove();
    else if (slot.node.t === "obj") {
      const key = m.op === "add" ? m.key : (slot.node.e[0]?.[0] ?? "dup");
      slot.node.e.push([key, m.value]);
    } else if (slot.node.t === "arr") slot.node.a.push(m.value);
    else slot.set(m.value);
  }
  return root.node;
}

/** How the JSON text is turned into bytes: as is, or damaged. */
const INVALID_UTF8 = [[0xff], [0xfe, 0xff], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe2, 0x82], [0xf8, 0x88, 0x80, 0x80, 0x80], [0x80]];
type Damage = { readonly kind: "none" } | { readonly kind: "truncate" | "utf8" | "nul"; readonly at: number; readonly bytes: number } | { readonly kind: "bom" | "garbage" };
const damage: fc.Arbitrary<Damage> = fc.oneof(
  { weight: 10, arbitrary: fc.constant({ kind: "none" as const }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constantFrom("truncate" as const, "utf8" as const, "nul" as const), at: fc.nat(), bytes: fc.nat({ max: INVALID_UTF8.length - 1 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constantFrom("bom" as const, "garbage" as const) }) },
);

function damaged(text: string, how: Damage): Uint8Array {
  const bytes = Buffer.from(text, "utf8");
  switch (how.kind) {
    case "none":
      return bytes;
    case "truncate":
      return bytes.subarray(0, how.at % Math.max(1, bytes.length));
    case "utf8":
    case "nul": {
      const at = how.at % (bytes.length + 1);
      const insert = how.kind === "nul" ? [0] : (INVALID_UTF8[how.bytes] as number[]);
      return Buffer.concat([bytes.subarray(0, at), Buffer.from(insert), bytes.subarray(at)]);
    }
    case "bom":
      return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes]);
    case "garbage":
      return Buffer.concat([bytes, Buffer.from("}]\u0000,")]);
  }
}

// ---------------------------------------------------------------- queries

/** Already percent-encoded values, including broken escapes and numbers a parser might choke on. */
const ODD_QUERY_VALUES = [
  "",
  "0",
  "-0",
  "1",
  "1e400",
  "-1e400",
  "1e308",
  "-1e308",
  "9007199254740993",
  "-9007199254740993",
  "8640000000000001",
  "NaN",
  "Infinity",
  "-Infinity",
  "0x10",
  "1.5",
  "5e-324",
  "%20%201",
  "1%20",
  "true",
  "null",
  "Z0",
  "Z11",
  "Z12",
  "z1",
  "11",
  "12",
  "-1",
  "1".repeat(400),
  "%00",
  "%FF",
  "%",
  "%ZZ",
  "%ED%A0%80",
  "%C0%AF",
  "%E2%82",
  "%C3%A9",
  "a+b",
  "%5B1%5D",
  "[]",
  "{}",
  "%26",
  "%3D",
];
const queryValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...ODD_QUERY_VALUES) },
  { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.double(), fc.bigInt()).map((n) => encodeURIComponent(String(n))) },
  { weight: 1, arbitrary: fc.string().map((s) => encodeURIComponent(s)) },
);

type QueryPart = readonly [key: string, value: string | undefined];
type QueryMutation =
  | { readonly op: "replace" | "remove" | "duplicate"; readonly at: number; readonly value: string }
  | { readonly op: "add"; readonly key: string; readonly value: string }
  | { readonly op: "raw"; readonly part: string };

const QUERY_KEYS = [
  "zone",
  "t0",
  "harmonics",
  "threshold",
  "hours",
  "duration_minutes",
  "receipt_hash",
  "tile_id",
  "first",
  "second",
  "offset",
  "limit",
  "__proto__",
  "constructor",
  "zone[]",
  "a[b]",
  "%FF",
  "",
  "ZONE",
];
const queryMutation: fc.Arbitrary<QueryMutation> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ op: fc.constant("replace" as const), at: fc.nat(), value: queryValue }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("remove" as const), at: fc.nat(), value: fc.constant("") }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("duplicate" as const), at: fc.nat(), value: queryValue }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("add" as const), key: fc.constantFrom(...QUERY_KEYS), value: queryValue }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("raw" as const), part: fc.constantFrom("zone", "=", "==", "&", "zone==1", "zone=1=2", "?", "#x", "%", "limit=1&limit=2&limit=3") }) },
);

function buildQuery(example: Readonly<Record<string, string>>, mutations: readonly QueryMutation[]): string {
  const parts: (QueryPart | string)[] = Object.entries(example).map(([key, value]) => [key, encodeURIComponent(value)] as const);
  for (const m of mutations) {
    const at = parts.length === 0 ? 0 : ("at" in m ? m.at : 0) % parts.length;
    const current = parts[at];
    if (m.op === "replace" && Array.isArray(current)) parts[at] = [current[0], m.value];
    else if (m.op === "remove") parts.splice(at, 1);
    else if (m.op === "duplicate" && Array.isArray(current)) parts.push([current[0], m.value]);
    else if (m.op === "add") parts.push([m.key, m.value]);
    else if (m.op === "raw") parts.push(m.part);
  }
  const text = parts.map((part) => (typeof part === "string" ? part : part[1] === undefined ? part[0] : `${part[0]}=${part[1]}`)).join("&");
  return text === "" ? "" : `?${text}`;
}

// ---------------------------------------------------------------- callers

type Caller = { readonly kind: "none" } | { readonly kind: "key"; readonly tier: Exclude<Tier, "public"> } | { readonly kind: "bad"; readonly header: string };
const BAD_AUTHORIZATION = ["Bearer tps_not-a-key", "Basic dXNlcjpwYXNz", "Bearer", "Bearer ", "bearer", "tps_abc", "Bearer a b", "Bearer \t x", `Bearer ${"a".repeat(4000)}`, "Token x", ""];
const caller: fc.Arbitrary<Caller> = fc.oneof(
  { weight: 6, arbitrary: fc.constant({ kind: "key" as const, tier: "enterprise" as const }) },
  { weight: 4, arbitrary: fc.constantFrom("developer" as const, "managed" as const, "quantum" as const).map((tier) => ({ kind: "key" as const, tier })) },
  { weight: 2, arbitrary: fc.constant({ kind: "none" as const }) },
  { weight: 1, arbitrary: fc.constantFrom(...BAD_AUTHORIZATION).map((header) => ({ kind: "bad" as const, header })) },
);

function authorization(who: Caller): Record<string, string> {
  if (who.kind === "none") return {};
  if (who.kind === "bad") return { authorization: who.header };
  const key = running.keys[who.tier];
  return { authorization: `Bearer ${key}` };
}

const JSON_TYPES = ["application/json", "application/json; charset=utf-8", "Application/JSON", 'application/json;charset="UTF-8"', "application/json; charset=iso-8859-1"];
const NON_JSON_TYPES = [
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/octet-stream",
  "application/jsonp",
  "application/json-seq",
  "text/json",
  "application/xml",
  "*/*",
  "application/json-patch+json",
];
const contentType: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom(...JSON_TYPES) },
  { weight: 2, arbitrary: fc.constantFrom(...NON_JSON_TYPES, "", ";", "application/", "application/json, text/plain", "application/json; charset") },
  { weight: 1, arbitrary: fc.constant(undefined) },
);

// ---------------------------------------------------------------- valid examples, the seeds every mutation starts from

let bodies: Map<string, unknown>;
let queries: Map<string, readonly Readonly<Record<string, string>>[]>;

beforeAll(async () => {
  // A ZTT window that is always open, so ztt/sign signs whenever the test runs.
  running = await startService({ quality: { score: 0.93 }, carbon: { intensity: 180 }, ztt: { window: [0, 360], zone: 0 } });
  origin = new URL(running.url);
  const ctx = contextAt(Date.now(), { zone: 3 });
  const tsae = createTsaeRequest(ctx, { scope: "fuzz.seed.v1", action_hash_hex: sha256Hex("fuzz seed") });
  const json = (path: string, key: string, body: unknown) =>
    fetch(`${running.url}/api/v1${path}`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${key}` }, body: JSON.stringify(body) });
  const receipt = (await (await json("/security/tsae", running.keys.managed, tsae)).json()) as Record<string, unknown>;
  const proof = (await (await json("/clockchain/anchor", running.keys.enterprise, { receipt })).json()) as { receipt_hash: string; tile_id: number };
  const bundle = (await (await json("/ztt/sign", running.keys.managed, { payload: "fuzz seed" })).json()) as Record<string, unknown>;
  const ephemeral = await ed25519KeyPair(false);
  const ephemeralX = Buffer.from(await crypto.subtle.exportKey("raw", ephemeral.publicKey)).toString("base64url");
  bodies = new Map<string, unknown>([
    ["/twatch/diff", { start: { day_index: 20_000, phi_ticks: 0 }, end: { day_index: 20_001, phi_ticks: 43_200_000 } }],
    ["/allow", { window: [200, 280], zone: "Z1" }],
    ["/quantum/schedule", { tasks: [{ name: "qaoa", duration_ms: 600_000, window: [200, 280], carbon_max: 250 }], zone: 1, horizon_hours: 24 }],
    ["/quantum/verify", { receipt, proof }],
    ["/security/tsae", tsae],
    ["/clockchain/anchor", { receipt }],
    ["/ztt/sign", { payload: "ZnV6eiBzZWVk", encoding: "base64" }],
    ["/ztt/certify", { ephemeral_x: ephemeralX, window: [0, 360], zone: 0 }],
    ["/ztt/verify", { bundle, payload: "fuzz seed" }],
  ]);
  queries = new Map<string, Record<string, string>[]>([
    ["/context", [{ zone: "Z3" }, {}]],
    ["/twatch/now", [{ t0: String(Date.now()), zone: "3" }, {}]],
    ["/ai/tpe-vector", [{ zone: "Z11", harmonics: "8" }]],
    ["/quantum/decision", [{ threshold: "0.5" }]],
    ["/quantum/carbon", [{ hours: "24", duration_minutes: "60" }]],
    ["/clockchain/proof", [{ receipt_hash: proof.receipt_hash }, { tile_id: String(proof.tile_id), first: "1", second: "1" }]],
    ["/clockchain/anchors", [{ tile_id: String(proof.tile_id), offset: "0", limit: "10" }]],
  ]);
  for (const route of ROUTES) {
    if (route.method === "POST" && !bodies.has(route.path)) throw new Error(`no example body for ${route.path}`);
  }
});

const exampleQuery = (route: Route, pick: number) => {
  const list = queries.get(route.path) ?? [{}];
  return list[pick % list.length] as Record<string, string>;
};

// ---------------------------------------------------------------- properties

const runs = (numRuns: number) => ({ numRuns: numRuns * SCALE, interruptAfterTimeLimit: TIME_LIMIT_MS, markInterruptAsFailure: false });
const routeArb = fc.constantFrom(...ROUTES);
const prefixArb = fc.constantFrom(...PREFIXES);

describe("fuzzing every route", () => {
  it("the unmutated examples succeed under both prefixes (so the mutations start from valid requests)", async () => {
    for (const route of ROUTES) {
      for (const prefix of PREFIXES) {
        for (let pick = 0; pick < (queries.get(route.path)?.length ?? 1); pick++) {
          const req: RawRequest = {
            method: route.method,
            path: prefix + route.path + buildQuery(exampleQuery(route, pick), []),
            headers: { authorization: `Bearer ${running.keys.enterprise}`, ...(route.method === "POST" ? { "content-type": "application/json" } : {}) },
            ...(route.method === "POST" ? { body: Buffer.from(JSON.stringify(bodies.get(route.path))) } : {}),
          };
          const reply = await send(req);
          checkReply(req, reply, route);
          expect(reply.status, describeRequest(req)).toBe(route.status);
        }
      }
    }
  });

  it(
    "arbitrary bodies, queries, methods, origins and keys: no 5xx, one error shape, and CORS, 405 and tiers decided first",
    async () => {
      const origins = fc.oneof(
        { weight: 8, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: fc.constantFrom(...ALLOWED_ORIGINS) },
        { weight: 1, arbitrary: fc.constantFrom("https://evil.example", "null", "HTTPS://APP.EXAMPLE.COM", "https://app.example.com:443", "https://app.example.com/") },
      );
      const method = (route: Route) =>
        fc.oneof({ weight: 12, arbitrary: fc.constant(route.method) }, { weight: 1, arbitrary: fc.constantFrom("GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD") });
      const arb = routeArb.chain((route) =>
        fc.record({
          route: fc.constant(route),
          prefix: prefixArb,
          method: method(route),
          who: caller,
          origin: origins,
          type: contentType,
          query: fc.record({ pick: fc.nat(), mutations: fc.array(queryMutation, { maxLength: 3 }) }),
          body: fc.record({ mutations: fc.array(mutation, { maxLength: 4 }), damage }),
        }),
      );
      await fc.assert(
        fc.asyncProperty(arb, async ({ route, prefix, method, who, origin: requestOrigin, type, query, body }) => {
          const text = toText(mutate(bodies.get(route.path) ?? {}, body.mutations));
          const sendsBody = method !== "GET" && method !== "HEAD";
          const req: RawRequest = {
            method,
            path: prefix + route.path + buildQuery(exampleQuery(route, query.pick), query.mutations),
            headers: { ...authorization(who), ...(requestOrigin === undefined ? {} : { origin: requestOrigin }), ...(type === undefined ? {} : { "content-type": type }) },
            ...(sendsBody ? { body: damaged(text, body.damage) } : {}),
          };
          const reply = await send(req);
          const code = checkReply(req, reply, route);
          const where = `${describeRequest(req)} -> ${reply.status} ${code ?? ""}`;
          // A HEAD reply has no body, so only its status is compared.
          const expectError = (status: number, expected: string) => expect([reply.status, method === "HEAD" ? expected : code], where).toEqual([status, expected]);
          // The checks before the body is read, in the order the service makes them.
          if (requestOrigin !== undefined && !(ALLOWED_ORIGINS as readonly string[]).includes(requestOrigin)) {
            expectError(403, "CORS_ORIGIN_NOT_ALLOWED");
          } else if (method === "OPTIONS") {
            expect(reply.status, where).toBe(204);
          } else if (method !== route.method) {
            expectError(405, "METHOD_NOT_ALLOWED");
          } else if (who.kind === "bad") {
            expectError(401, "UNAUTHORIZED");
          } else if (!tierAllows(who.kind === "key" ? who.tier : "public", route.tier)) {
            if (who.kind === "none") expectError(401, "UNAUTHORIZED");
            else expectError(403, "FORBIDDEN");
          } else {
            expect([401, 403, 405, 429], where).not.toContain(reply.status);
            if (reply.status === 404) expect(code, where).toBe("ANCHOR_NOT_FOUND");
          }
        }),
        runs(1500),
      );
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "raw bytes as a JSON body: invalid UTF-8 and truncated JSON are 400 INVALID_JSON, anything else a 4xx or success",
    async () => {
      const bytes = fc.oneof(
        { weight: 2, arbitrary: fc.record({ kind: fc.constant("utf8" as const), at: fc.nat(), bytes: fc.nat({ max: INVALID_UTF8.length - 1 }) }) },
        { weight: 2, arbitrary: fc.record({ kind: fc.constant("truncate" as const), at: fc.nat(), bytes: fc.constant(0) }) },
        { weight: 1, arbitrary: fc.uint8Array({ maxLength: 300 }).map((random) => ({ kind: "random" as const, random })) },
      );
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...POST_ROUTES), prefixArb, bytes, async (route, prefix, how) => {
          const text = JSON.stringify(bodies.get(route.path));
          const body = how.kind === "random" ? how.random : damaged(text, how);
          const req: RawRequest = { method: "POST", path: prefix + route.path, headers: { "content-type": "application/json", authorization: `Bearer ${running.keys.enterprise}` }, body };
          const reply = await send(req);
          const code = checkReply(req, reply, route);
          if (how.kind !== "random") expect([reply.status, code], describeRequest(req)).toEqual([400, "INVALID_JSON"]);
        }),
        runs(300),
      );
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "deep nesting within 64 KiB, as the body or inside any field, is a 4xx",
    async () => {
      const nesting = fc.record({ arrays: fc.boolean(), depth: fc.integer({ min: 1_000, max: 32_000 }), at: fc.nat() });
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...POST_ROUTES), prefixArb, nesting, async (route, prefix, { arrays, depth, at }) => {
          const deep = arrays ? deepArrays(depth) : deepObjects(Math.min(depth, 10_000));
          const text = toText(mutate(bodies.get(route.path), [{ op: "replace", at, value: deep }]));
          const req: RawRequest = {
            method: "POST",
            path: prefix + route.path,
            headers: { "content-type": "application/json", authorization: `Bearer ${running.keys.enterprise}` },
            body: Buffer.from(text),
          };
          const reply = await send(req);
          checkReply(req, reply, route);
          // quantum/verify and ztt/verify answer malformed input with false checks (200); everything else refuses it.
          if (text.length > BODY_LIMIT_BYTES) expect(reply.status, describeRequest(req)).toBe(413);
          else expect(["/quantum/verify", "/ztt/verify"].includes(route.path) ? [200, 400] : [400], describeRequest(req)).toContain(reply.status);
        }),
        runs(100),
      );
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "a body over 64 KiB is 413 PAYLOAD_TOO_LARGE, with Content-Length or chunked",
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...POST_ROUTES),
          prefixArb,
          fc.integer({ min: BODY_LIMIT_BYTES + 1, max: 4 * BODY_LIMIT_BYTES }),
          fc.boolean(),
          async (route, prefix, size, chunked) => {
            const body = Buffer.alloc(size, 0x20);
            body.write(JSON.stringify(bodies.get(route.path)));
            const req: RawRequest = {
              method: "POST",
              path: prefix + route.path,
              headers: { "content-type": "application/json", authorization: `Bearer ${running.keys.enterprise}` },
              body,
              chunked,
            };
            const reply = await send(req);
            expect([reply.status, checkReply(req, reply, route)], describeRequest(req)).toEqual([413, "PAYLOAD_TOO_LARGE"]);
          },
        ),
        runs(60),
      );
      // Exactly at the limit the body is read (and this one, valid JSON padded with spaces, succeeds).
      const route = ROUTES.find((r) => r.path === "/allow") as Route;
      const body = Buffer.alloc(BODY_LIMIT_BYTES, 0x20);
      body.write(JSON.stringify(bodies.get("/allow")));
      const req: RawRequest = { method: "POST", path: "/api/v1/allow", headers: { "content-type": "application/json" }, body };
      expect(checkReply(req, await send(req), route)).toBeUndefined();
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "a body that is not application/json is 415 UNSUPPORTED_MEDIA_TYPE",
    async () => {
      const type = fc.oneof(fc.constantFrom(...NON_JSON_TYPES, ""), fc.constant(undefined));
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...POST_ROUTES), prefixArb, type, async (route, prefix, contentType) => {
          const req: RawRequest = {
            method: "POST",
            path: prefix + route.path,
            headers: { authorization: `Bearer ${running.keys.enterprise}`, ...(contentType === undefined ? {} : { "content-type": contentType }) },
            body: Buffer.from(JSON.stringify(bodies.get(route.path))),
          };
          const reply = await send(req);
          expect([reply.status, checkReply(req, reply, route)], describeRequest(req)).toEqual([415, "UNSUPPORTED_MEDIA_TYPE"]);
        }),
        runs(100),
      );
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "paths near the routes (broken escapes, extra segments, case) are answered in the error shape",
    async () => {
      const damageArb = fc.constantFrom("", "/", "//", "/x", "%", "%ZZ", "%FF", "%2F", "%00", ".json", "/..", "/./", "?", "?&", "#frag", ";x", "%E2%82", "%C0%AF");
      await fc.assert(
        fc.asyncProperty(routeArb, prefixArb, damageArb, fc.constantFrom("suffix", "inside", "upper", "double-slash"), async (route, prefix, junk, where) => {
          const path =
            where === "suffix"
              ? prefix + route.path + junk
              : where === "inside"
                ? prefix + junk + route.path
                : where === "upper"
                  ? (prefix + route.path).toUpperCase()
                  : `/${prefix}${route.path}`;
          const req: RawRequest = {
            method: route.method,
            path,
            headers: { "content-type": "application/json", authorization: `Bearer ${running.keys.enterprise}` },
            ...(route.method === "POST" ? { body: Buffer.from(JSON.stringify(bodies.get(route.path))) } : {}),
          };
          const reply = await send(req);
          checkReply(req, reply);
        }),
        runs(200),
      );
    },
    TEST_TIMEOUT_MS,
  );

  it("numbers a query parser might mangle, duplicate keys and broken escapes are 400, never 5xx", async () => {
    const cases: [string, number][] = [
      ["/api/v1/ai/tpe-vector?harmonics=1e400", 400],
      ["/api/v1/ai/tpe-vector?harmonics=8&harmonics=9", 400],
      ["/v1/twatch/now?t0=9007199254740993", 400],
      ["/v1/twatch/now?t0=-0", 200],
      ["/api/v1/context?zone=1&zone=2", 400],
      ["/api/v1/context?zone=%FF", 400],
      ["/api/v1/context?zone=%ZZ", 400],
      ["/api/v1/quantum/decision?threshold=1e-400", 200],
      ["/api/v1/quantum/decision?threshold=-0", 200],
      ["/api/v1/quantum/decision?threshold=NaN", 400],
      ["/api/v1/clockchain/anchors?tile_id=9007199254740993", 400],
      ["/api/v1/clockchain/anchors?tile_id=1e308", 400],
      ["/api/v1/clockchain/proof?tile_id=1&first=1&second=1e400", 400],
      ["/api/v1/clockchain/proof?tile_id=9007199254740991&first=1&second=2", 400],
      ["/api/v1/clockchain/proof?receipt_hash=x&receipt_hash=y", 400],
      ["/api/v1/quantum/carbon?hours=1e308", 400],
    ];
    for (const [path, status] of cases) {
      const req: RawRequest = { method: "GET", path, headers: { authorization: `Bearer ${running.keys.enterprise}` } };
      const reply = await send(req);
      const route = ROUTES.find((r) => path.split("?")[0]?.endsWith(r.path));
      checkReply(req, reply, route);
      expect(reply.status, `${path} -> ${reply.body.toString()}`).toBe(status);
    }
  });

  it("a query on an endpoint without query parameters (every POST) is 400 VALIDATION_FAILED naming each, never ignored", async () => {
    for (const route of ROUTES.filter((r) => r.method === "POST")) {
      const req: RawRequest = {
        method: "POST",
        path: `/api/v1${route.path}?zone=1&extra=x`,
        headers: { "content-type": "application/json", authorization: `Bearer ${running.keys.enterprise}` },
        body: Buffer.from(JSON.stringify(bodies.get(route.path))),
      };
      const reply = await send(req);
      expect([reply.status, checkReply(req, reply, route)], `${route.path} -> ${reply.body.toString().slice(0, 200)}`).toEqual([400, "VALIDATION_FAILED"]);
      expect((JSON.parse(reply.body.toString()) as { error: { details: unknown } }).error.details).toEqual([
        { field: "query.zone", problem: "is not allowed" },
        { field: "query.extra", problem: "is not allowed" },
      ]);
      // An empty query is no parameter.
      expect((await send({ ...req, path: `/v1${route.path}?` })).status, route.path).toBe(route.status);
    }
  });

  // Ajv's query coercion reads 1e400 as Infinity, which passes minimum/maximum; the service refuses it rather than
  // answering as if no t0 had been sent.
  it("t0=1e400 in twatch/now is 400 VALIDATION_FAILED, not read as 'no t0'", async () => {
    for (const path of ["/v1/twatch/now?t0=1e400", "/api/v1/twatch/now?t0=-1e400"]) {
      const req: RawRequest = { method: "GET", path };
      const reply = await send(req);
      expect([reply.status, checkReply(req, reply)], `${path} -> ${reply.body.toString().slice(0, 200)}`).toEqual([400, "VALIDATION_FAILED"]);
    }
  });

  it("requests the HTTP parser refuses are answered in the error shape too", async () => {
    const rawExchange = (text: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(Number(origin.port), origin.hostname, () => socket.end(text));
        let received = "";
        socket.on("data", (chunk: Buffer) => (received += chunk.toString("latin1")));
        socket.on("close", () => resolve(received));
        socket.on("error", reject);
      });
    const cases: [string, number][] = [
      [`GET /api/v1/core/state HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`, 431],
      ["GET /api/v1/core/state HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n", 400],
      ["POST /api/v1/allow HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400],
      ["GET /api/v1/core/state HTTP/9.9\r\n\r\n", 400],
      ["\u0000\u0001\u0002 garbage\r\n\r\n", 400],
    ];
    for (const [text, status] of cases) {
      const reply = await rawExchange(text);
      const [head = "", body = ""] = reply.split("\r\n\r\n");
      expect(head, JSON.stringify(text.slice(0, 80))).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
      for (const header of ["content-type: application/json; charset=utf-8", "cache-control: no-store", "x-content-type-options: nosniff", "vary: origin", "connection: close"]) {
        expect(head.toLowerCase(), JSON.stringify(text.slice(0, 80))).toContain(header);
      }
      expect(validErrorBody(JSON.parse(body)), body).toBe(true);
    }
  });
});
