import {
  FinalityTimeoutError,
  canonicalJson,
  carbonRecommendation,
  contextAt,
  diff,
  qualityDecision,
  scheduleTasks,
  sha256Hex,
  temporalPrompt,
  tpeVectorResult,
  type AllowRequest,
  type AnchorProof,
  type AllowResult,
  type CoreState,
  type DiffRequest,
  type PhaseContext,
  type Receipt,
  type ScheduleRequest,
  type Tier,
  type TsaeIssueRequest,
  type ZoneInput,
} from "../core/index.js";
import { allowResultOf, coreStateOf } from "../core/service-results.js";
import { HttpError } from "./http-error.js";
import { allowJson, contextJson, coreStateJson } from "./reply-json.js";
import { REPLIES, REQUESTS } from "./schemas.js";
import type { CarbonReader, QualityReader } from "./sources.js";
import type { ServiceAuthority } from "./service-config.js";
import type { ZttSigner } from "../ztt/index.js";
import { ZTT_ROUTES } from "./ztt-routes.js";

/** What a handler may use: the authority, the readings of the configured sources, and the service clock. */
export interface RouteContext {
  readonly authority: ServiceAuthority;
  readonly quality: QualityReader;
  readonly carbon: CarbonReader;
  readonly clock: () => number;
  readonly challengeTtlMs: number;
  readonly openapi: () => unknown;
  /** The service's ZTT signer (config `ztt`); undefined when it has none. */
  readonly ztt: ZttSigner | undefined;
}

export interface RouteInput {
  /** Validated and coerced by the route's query schema. */
  readonly query: Readonly<Record<string, unknown>>;
  readonly body: unknown;
  /** When the request arrived, by the service clock. */
  readonly receivedMs: number;
  /** The reply's record for the request log, when the service keeps one: a route sets `audit` to log what it did. */
  readonly outcome?: { audit: Readonly<Record<string, unknown>> | undefined };
}

export interface Route {
  readonly method: "GET" | "POST";
  /** Path after the `/api/v1` or `/v1` prefix. */
  readonly path: string;
  /** The SDK client's method for this endpoint (the spec's client mapping where it names one). */
  readonly operationId: string;
  readonly tier: Tier;
  readonly summary: string;
  readonly query?: Record<string, unknown>;
  readonly body?: Record<string, unknown>;
  readonly status: 200 | 201;
  readonly reply: Record<string, unknown>;
  readonly handle: (input: RouteInput, context: RouteContext) => unknown;
  /** The JSON text of what `handle` returned, when something cheaper than `JSON.stringify` gives the same text. */
  readonly serialize?: (result: unknown) => string;
  /** `serialize` writes only ASCII (the phase replies: numbers, an ISO date and fixed words), so the transport need not encode it as UTF-8. */
  readonly asciiReply?: true;
}

const DEFAULT_THRESHOLD = 0.5;

/** `zone` arrives in a query as text (ZONE_QUERY admits nothing else): digits are the zone number, `Zn` its code. */
function queryZone(zone: unknown): ZoneInput | undefined {
  if (zone === undefined) return undefined;
  const text = zone as string;
  return /^\d+$/.test(text) ? Number(text) : (text as ZoneInput);
}

function queryNumber(value: unknown): number | undefined {
  return value === undefined ? undefined : Number(value);
}

function servedContext(context: RouteContext, zone: ZoneInput | undefined, atMs = context.clock()) {
  return contextAt(atMs, { zone, source: "remote" });
}

/** Every endpoint of the spec's table, in its order, then the ZTT signer's. */
export const ROUTES: readonly Route[] = [
  {
    method: "GET",
    path: "/context",
    operationId: "getContext",
    tier: "public",
    summary: "Full protocol state: the phase context of now, seen from a zone",
    query: REQUESTS.zoneOnly,
    status: 200,
    reply: REPLIES.context,
    handle: ({ query }, context) => servedContext(context, queryZone(query.zone)),
    serialize: (result) => contextJson(result as PhaseContext),
    asciiReply: true,
  },
  {
    method: "GET",
    path: "/twatch/now",
    operationId: "getTwatchNow",
    tier: "public",
    summary: "T-Watch sync: the context, NTP-style receive/transmit times for ?t0=, and a prompt paragraph",
    query: REQUESTS.twatchNow,
    status: 200,
    reply: REPLIES.twatchNow,
    handle: ({ query, receivedMs }, context) => {
      const ctx = servedContext(context, queryZone(query.zone), receivedMs);
      return {
        ctx,
        sync: { t0_unix_ms: queryNumber(query.t0) ?? null, receive_unix_ms: receivedMs, transmit_unix_ms: context.clock() },
        prompt: temporalPrompt(ctx),
      };
    },
  },
  {
    method: "POST",
    path: "/twatch/diff",
    operationId: "twatchDiff",
    tier: "developer",
    summary: "Signed duration between two stamps",
    body: REQUESTS.diff,
    status: 200,
    reply: REPLIES.duration,
    handle: ({ body }) => {
      const { start, end } = body as DiffRequest;
      return diff(start, end);
    },
  },
  {
    method: "GET",
    path: "/core/state",
    operationId: "getState",
    tier: "public",
    summary: "The smallest state a sync node needs",
    query: REQUESTS.none,
    status: 200,
    reply: REPLIES.coreState,
    handle: (_input, context) => coreStateOf(servedContext(context, undefined)),
    serialize: (result) => coreStateJson(result as CoreState),
    asciiReply: true,
  },
  {
    method: "GET",
    path: "/challenge",
    operationId: "getChallenge",
    tier: "developer",
    summary: "A single-use freshness anchor for security/tsae",
    query: REQUESTS.none,
    status: 200,
    reply: REPLIES.challenge,
    handle: (_input, context) => context.authority.issueChallenge({ ttlMs: context.challengeTtlMs }),
  },
  {
    method: "POST",
    path: "/allow",
    operationId: "checkAllow",
    tier: "public",
    summary: "Window gating check, now or at a given instant",
    body: REQUESTS.allow,
    status: 200,
    reply: REPLIES.allow,
    handle: ({ body }, context) => {
      const { window, zone, at_unix_ms } = body as AllowRequest;
      return allowResultOf(servedContext(context, zone, at_unix_ms), window);
    },
    serialize: (result) => allowJson(result as AllowResult),
    asciiReply: true,
  },
  {
    method: "GET",
    path: "/ai/tpe-vector",
    operationId: "getTpeVector",
    tier: "public",
    summary: "TPE Fourier embedding of now, with its layout",
    query: REQUESTS.tpeVector,
    status: 200,
    reply: REPLIES.tpeVector,
    handle: ({ query }, context) => tpeVectorResult(servedContext(context, queryZone(query.zone)), { harmonics: queryNumber(query.harmonics) }),
  },
  {
    method: "GET",
    path: "/quantum/decision",
    operationId: "getQuantumDecision",
    tier: "managed",
    summary: "HS-Bloch quality gate: the current score against ?threshold=",
    query: REQUESTS.decision,
    status: 200,
    reply: REPLIES.decision,
    handle: async ({ query }, context) => {
      const reading = await context.quality();
      return qualityDecision({ ...reading, threshold: queryNumber(query.threshold) ?? DEFAULT_THRESHOLD });
    },
  },
  {
    method: "POST",
    path: "/quantum/schedule",
    operationId: "scheduleQuantum",
    tier: "quantum",
    summary: "Phase-aware scheduling: the earliest (or lowest-carbon) start of each task inside its window",
    body: REQUESTS.schedule,
    status: 200,
    reply: REPLIES.schedule,
    handle: async ({ body, receivedMs }, context) => {
      const request = body as ScheduleRequest;
      const series = await context.carbon().then(
        (reading) => reading.series,
        (error: unknown) => {
          if (request.tasks.some((task) => task.carbon_max !== undefined)) throw error;
          return undefined;
        },
      );
      return scheduleTasks(request, { at_unix_ms: receivedMs, series });
    },
  },
  {
    method: "POST",
    path: "/quantum/verify",
    operationId: "verifyQuantumProof",
    tier: "quantum",
    summary: "Which of signature, inclusion and chain hold for a receipt and its anchor proof",
    body: REQUESTS.verify,
    status: 200,
    reply: REPLIES.verify,
    handle: async ({ body }, context) => {
      const { receipt, proof, result } = body as { receipt: unknown; proof: unknown; result?: unknown };
      const checks = await context.authority.verifyAnchored(receipt, proof);
      if (!("result" in (body as object))) return checks;
      const matches = payloadMatches(result, receipt);
      return { ...checks, result: matches, valid: checks.valid && matches };
    },
  },
  {
    method: "GET",
    path: "/quantum/carbon",
    operationId: "getQuantumCarbon",
    tier: "quantum",
    summary: "Grid carbon intensity now and the best window in the next hours",
    query: REQUESTS.carbon,
    status: 200,
    reply: REPLIES.carbon,
    handle: async ({ query, receivedMs }, context) => {
      const reading = await context.carbon();
      return carbonRecommendation(reading.series, {
        at_unix_ms: receivedMs,
        horizon_hours: queryNumber(query.hours),
        duration_minutes: queryNumber(query.duration_minutes),
        location: reading.location,
        source: reading.source,
      });
    },
  },
  {
    method: "POST",
    path: "/security/tsae",
    operationId: "issueTsae",
    tier: "managed",
    summary: "Issue a signed audit receipt (TSAE), optionally bound to a challenge",
    body: REQUESTS.tsae,
    status: 201,
    reply: REPLIES.receipt,
    handle: ({ body }, context) => {
      const { challenge, ...request } = body as TsaeIssueRequest;
      return context.authority.issueReceipt(request, challenge === undefined ? {} : { challenge });
    },
  },
  {
    method: "GET",
    path: "/clockchain/status",
    operationId: "getClockchainStatus",
    tier: "enterprise",
    summary: "Ledger health: tiles, sizes, the last signed head, whether the chain verifies",
    query: REQUESTS.none,
    status: 200,
    reply: REPLIES.status,
    handle: (_input, context) => context.authority.clockchainStatus(),
  },
  {
    method: "POST",
    path: "/clockchain/anchor",
    operationId: "anchorTsaeHash",
    tier: "enterprise",
    summary: "Anchor a receipt (verified first); durable when answered; with quorum or timeout_ms, answered once FINAL or the wait ran out (PROVISIONAL)",
    body: REQUESTS.anchor,
    status: 200,
    reply: REPLIES.anchorProof,
    handle: ({ body }, context) => anchorAndWait(context.authority, body as { receipt: Receipt; quorum?: number; timeout_ms?: number }),
  },
  {
    method: "GET",
    path: "/clockchain/proof",
    operationId: "getAnchorProof",
    tier: "enterprise",
    summary: "Inclusion proof by ?receipt_hash=, or consistency proof by ?tile_id=&first=&second=",
    query: REQUESTS.proof,
    status: 200,
    reply: REPLIES.proof,
    handle: async ({ query }, context) => {
      const { receipt_hash, tile_id, first, second } = query;
      if (receipt_hash !== undefined && tile_id === undefined && first === undefined && second === undefined) {
        // The query schema admits receipt_hash only as text.
        const proof = await context.authority.getAnchorProof(receipt_hash as string);
        if (proof === undefined) throw new HttpError(404, "ANCHOR_NOT_FOUND", `no anchored receipt has hash ${receipt_hash as string}`);
        return proof;
      }
      if (receipt_hash === undefined && tile_id !== undefined && first !== undefined && second !== undefined) {
        return context.authority.getConsistencyProof(Number(tile_id), Number(first), Number(second));
      }
      throw new HttpError(400, "VALIDATION_FAILED", "give either receipt_hash (an inclusion proof) or tile_id, first and second (a consistency proof)", {
        details: [{ field: "query", problem: "needs receipt_hash alone, or tile_id, first and second together" }],
      });
    },
  },
  {
    method: "GET",
    path: "/clockchain/anchors",
    operationId: "getAnchors",
    tier: "public",
    summary: "Anchors of a tile, a page at a time (?tile_id=&offset=&limit=)",
    query: REQUESTS.anchors,
    status: 200,
    reply: REPLIES.anchors,
    handle: ({ query }, context) => context.authority.listAnchorPage(Number(query.tile_id), { offset: queryNumber(query.offset), limit: queryNumber(query.limit) }),
  },
  {
    method: "GET",
    path: "/keys",
    operationId: "getKeys",
    tier: "public",
    summary: "The service's Ed25519 public keys by key id, the signing key and the retired keys it rotated from, as JWKs (receipts and heads) and as note verifier keys (checkpoints)",
    query: REQUESTS.none,
    status: 200,
    reply: REPLIES.keys,
    handle: async (_input, context) => {
      return { keys: await context.authority.publicKeys(), note_verifier_keys: await context.authority.noteVerifierKeys() };
    },
  },
  {
    method: "GET",
    path: "/openapi.json",
    operationId: "getOpenApi",
    tier: "public",
    summary: "This API as an OpenAPI 3.1 document",
    query: REQUESTS.none,
    status: 200,
    reply: REPLIES.openapi,
    handle: (_input, context) => context.openapi(),
  },
  ...ZTT_ROUTES,
];

/** `payload`'s RFC 8785 canonical JSON hashes to the receipt's `action_hash_hex` (false for anything that cannot be hashed). */
function payloadMatches(payload: unknown, receipt: unknown): boolean {
  const expected = typeof receipt === "object" && receipt !== null ? (receipt as { action_hash_hex?: unknown }).action_hash_hex : undefined;
  try {
    return typeof expected === "string" && sha256Hex(canonicalJson(payload)) === expected;
  } catch {
    return false; // not plain JSON (only undefined can arrive here, as JSON bodies are plain), so not what was hashed
  }
}

/** A wait that runs out still anchored the receipt: the answer is its PROVISIONAL proof, which the client turns into its own `FINALITY_TIMEOUT`. */
async function anchorAndWait(authority: ServiceAuthority, body: { receipt: Receipt; quorum?: number; timeout_ms?: number }): Promise<AnchorProof> {
  const wait = body.quorum === undefined && body.timeout_ms === undefined ? undefined : { quorum: body.quorum, timeoutMs: body.timeout_ms };
  try {
    return await authority.anchor(body.receipt, wait);
  } catch (error) {
    if (error instanceof FinalityTimeoutError) return error.proof;
    throw error;
  }
}
