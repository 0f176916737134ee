/**
 * The HTTP client of the Temporal Permission Service. Browser-safe: it uses
 * only `fetch`, `AbortController`, `URL`, `URLSearchParams` and timers.
 */

import { bytesToBase64, isHash } from "../core/encoding.js";
import { FinalityTimeoutError, finalityWaitOf } from "../core/finality.js";
import { TemporalError, TemporalRangeError, TemporalTypeError, describeIssues, describeValue, type ErrorCode } from "../core/errors.js";
import { isVerifierKey } from "../core/note-key.js";
import { receiptIssues } from "../core/receipt.js";
import { isSignedCheckpoint } from "../core/signed-checkpoint.js";
import type {
  AllowResult,
  AnchorPage,
  CarbonRecommendation,
  Challenge,
  ClockchainStatus,
  ConsistencyProof,
  CoreState,
  KeySet,
  QualityDecision,
  ScheduleRequest,
  ScheduleResult,
  TpeVectorResult,
  TsaeIssueRequest,
  TwatchNow,
  VerifyResult,
} from "../core/service-types.js";
import { assertTsaeRequest } from "../core/tsae.js";
import type {
  AnchorOptions,
  AnchorProof,
  AnchorSummary,
  Authority,
  AuthorityNowOptions,
  Duration,
  PhaseContext,
  PublicKeyJwk,
  Receipt,
  TimeStamp,
  TsaeRequest,
  Window,
  ZoneInput,
} from "../core/types.js";
import { toUnixMs } from "../core/phase.js";
import { parseZone } from "../core/zones.js";
import type { ZttBundle, ZttCertificate, ZttSigner, ZttVerification, ZttVerifyOptions } from "../ztt/index.js";
import { certifiesWindow, certificateIssues } from "../ztt/certificate.js";
import { TemporalApiError, type ApiErrorDetails } from "./errors.js";
import { remoteZttSigner, type RemoteZttSignerOptions } from "./ztt-signer.js";

/** The part of a `fetch` response the client reads. */
export interface FetchResponse {
  readonly status: number;
  readonly statusText?: string;
  readonly headers: { get(name: string): string | null };
  text(): Promise<string>;
}

/** The request the client passes to `fetch`. */
export interface FetchInit {
  readonly method: "GET" | "POST";
  readonly headers: Record<string, string>;
  readonly body?: string;
  readonly signal: AbortSignal;
}

/** `globalThis.fetch`, or anything that accepts the same call. */
export type FetchFunction = (url: string, init: FetchInit) => Promise<FetchResponse>;

export interface ClientOptions {
  /** Origin of the service with an optional path prefix, e.g. `http://127.0.0.1:8787`; requests go to `<baseUrl>/api/v1/...`. */
  readonly baseUrl: string | URL;
  /** Sent as `Authorization: Bearer <apiKey>`. */
  readonly apiKey?: string;
  /** Defaults to `globalThis.fetch`. */
  readonly fetch?: FetchFunction;
  /** Per attempt, from sending the request to reading the whole reply; default 10,000. */
  readonly timeoutMs?: number;
  /** Extra attempts for GET requests after a network error, timeout, 429, 502, 503 or 504; default 2. POST requests are never retried. */
  readonly retries?: number;
  /** Backoff before the first retry, doubled for each later one, with jitter (a random 50-100% of it); default 250. */
  readonly retryDelayMs?: number;
  /** Ceiling on any wait between attempts, including a `Retry-After`; default 5,000. A `Retry-After` above it is not waited for: the error is thrown. */
  readonly maxRetryDelayMs?: number;
}

export interface ContextQuery {
  readonly zone?: ZoneInput;
}

export interface TwatchNowQuery {
  /** The client's send time, Unix ms (an integer); echoed as `sync.t0_unix_ms`. */
  readonly t0?: number;
  readonly zone?: ZoneInput;
}

export interface AllowOptions {
  readonly zone?: ZoneInput;
  /** Decide for this instant instead of now (sent as `at_unix_ms`): a what-if check. */
  readonly at?: number | Date;
}

export interface TpeVectorQuery {
  readonly zone?: ZoneInput;
  /** Harmonics per cycle (the service's default when omitted). */
  readonly harmonics?: number;
}

export interface QuantumDecisionQuery {
  readonly threshold?: number;
}

export interface QuantumCarbonQuery {
  /** Horizon in hours. */
  readonly hours?: number;
  readonly duration_minutes?: number;
}

export interface ClientIssueOptions {
  /** A challenge from `getChallenge()`; the receipt then carries its nonce as `challenge_nonce`. */
  readonly challenge?: Challenge;
}

export interface AnchorsQuery {
  readonly offset?: number;
  readonly limit?: number;
}

const DEFAULTS = { timeoutMs: 10_000, retries: 2, retryDelayMs: 250, maxRetryDelayMs: 5_000 } as const;
const OPTION_NAMES = new Set(["baseUrl", "apiKey", "fetch", "timeoutMs", "retries", "retryDelayMs", "maxRetryDelayMs"]);
const MAX_TIMER_MS = 2_147_483_647;
const MAX_RETRIES = 10;
/** Visible ASCII: what an HTTP header value can carry without being mangled or refused. */
const TOKEN = /^[\x21-\x7e]+$/;
const RETRYABLE_STATUS = new Set([429, 502, 503, 504]);
const SNIPPET_LENGTH = 200;

type QueryValue = string | number | undefined;
type Query = Record<string, QueryValue>;

interface Reply {
  readonly method: string;
  readonly url: string;
  readonly status: number;
  readonly value: unknown;
}

/**
 * A client of the service: one typed method per endpoint, and an `Authority`
 * (`kind: "remote"`) that compiled missions can use like the local one.
 * Creating it does no I/O.
 */
export class TemporalClient implements Authority {
  readonly kind = "remote";
  /** The normalised base URL: origin and path prefix, no trailing slash. */
  readonly baseUrl: string;
  readonly #api: string;
  readonly #headers: Readonly<Record<string, string>>;
  readonly #fetch: FetchFunction;
  readonly #timeoutMs: number;
  readonly #retries: number;
  readonly #retryDelayMs: number;
  readonly #maxRetryDelayMs: number;
  #closed = false;
  /** Requests not yet settled, which `close` waits for. */
  readonly #pending = new Set<Promise<unknown>>();
  /** Waits between attempts, which `close` cuts short. */
  readonly #wakers = new Set<() => void>();

  constructor(options: ClientOptions) {
    if (typeof options !== "object" || options === null) {
      throw new TemporalTypeError("INVALID_CLIENT_OPTIONS", `client options must be an object with a baseUrl, got ${describeValue(options)}`);
    }
    for (const name of Object.keys(options)) {
      if (!OPTION_NAMES.has(name)) {
        throw new TemporalTypeError("INVALID_CLIENT_OPTIONS", `unknown client option ${JSON.stringify(name)}; the options are ${[...OPTION_NAMES].join(", ")}`);
      }
    }
    this.baseUrl = normaliseBaseUrl(options.baseUrl);
    this.#api = `${this.baseUrl}/api/v1/`;
    const headers: Record<string, string> = { accept: "application/json" };
    if (options.apiKey !== undefined) {
      if (typeof options.apiKey !== "string") {
        throw new TemporalTypeError("INVALID_CLIENT_OPTIONS", `apiKey must be a string, got ${typeof options.apiKey}`);
      }
      // The key itself is never put in a message.
      if (!TOKEN.test(options.apiKey)) {
        throw new TemporalRangeError(
          "INVALID_CLIENT_OPTIONS",
          `apiKey must be a non-empty string of visible ASCII characters (no spaces or line breaks); got ${options.apiKey.length} characters`,
        );
      }
      headers.authorization = `Bearer ${options.apiKey}`;
    }
    this.#headers = Object.freeze(headers);
    const fetchFunction = options.fetch ?? globalThis.fetch;
    if (typeof fetchFunction !== "function") {
      throw new TemporalTypeError(
        "INVALID_CLIENT_OPTIONS",
        options.fetch === undefined ? "this runtime has no global fetch; pass options.fetch" : `fetch must be a function, got ${describeValue(options.fetch)}`,
      );
    }
    // Called as a plain function: browsers refuse `fetch` invoked as a method of another object.
    this.#fetch = (url, init) => fetchFunction(url, init);
    this.#timeoutMs = numberOption("timeoutMs", options.timeoutMs, DEFAULTS.timeoutMs, 1, MAX_TIMER_MS, false);
    this.#retries = numberOption("retries", options.retries, DEFAULTS.retries, 0, MAX_RETRIES, true);
    this.#retryDelayMs = numberOption("retryDelayMs", options.retryDelayMs, DEFAULTS.retryDelayMs, 0, MAX_TIMER_MS, false);
    this.#maxRetryDelayMs = numberOption("maxRetryDelayMs", options.maxRetryDelayMs, DEFAULTS.maxRetryDelayMs, 0, MAX_TIMER_MS, false);
  }

  get closed(): boolean {
    return this.#closed;
  }

  // --- Endpoints ---------------------------------------------------------

  /** `GET context`: the phase context now, in a zone (default Z0). */
  async getContext(options: ContextQuery = {}): Promise<PhaseContext> {
    return object(await this.#get("context", { zone: zoneParam(options.zone) }));
  }

  /** `GET twatch/now`: the context plus NTP-style receive/transmit times; see `syncClock`. */
  async getTwatchNow(options: TwatchNowQuery = {}): Promise<TwatchNow> {
    const t0 = integerParam("t0", options.t0, 0);
    const reply = await this.#get("twatch/now", { t0, zone: zoneParam(options.zone) });
    const now = object<TwatchNow>(reply);
    const sync = now.sync as Partial<TwatchNow["sync"]> | null | undefined;
    if (typeof sync !== "object" || sync === null || !Number.isFinite(sync.receive_unix_ms) || !Number.isFinite(sync.transmit_unix_ms)) {
      throw invalid(reply, "expected sync.receive_unix_ms and sync.transmit_unix_ms to be numbers");
    }
    return now;
  }

  /** `POST twatch/diff`: the duration from `start` to `end` (only `day_index` and `phi_ticks` are sent, so a `PhaseContext` will do). */
  async twatchDiff(start: TimeStamp, end: TimeStamp): Promise<Duration> {
    return object(await this.#post("twatch/diff", { start: stamp("start", start), end: stamp("end", end) }));
  }

  /** `GET core/state`. */
  async getState(): Promise<CoreState> {
    return object(await this.#get("core/state"));
  }

  /** `GET challenge`: a signed single-use nonce to put in `issueTsae`. */
  async getChallenge(): Promise<Challenge> {
    return object(await this.#get("challenge"));
  }

  /** `POST allow`: the service's verdict on `window` now, or at `options.at`. */
  async checkAllow(window: Window, options: AllowOptions = {}): Promise<AllowResult> {
    const zone = zoneParam(options.zone);
    const at = options.at === undefined ? undefined : toUnixMs(options.at);
    // The window is sent as given: the service validates it (400 with details).
    const body = { window, ...(zone === undefined ? {} : { zone }), ...(at === undefined ? {} : { at_unix_ms: at }) };
    return object(await this.#post("allow", body));
  }

  /** `GET ai/tpe-vector`. */
  async getTpeVector(options: TpeVectorQuery = {}): Promise<TpeVectorResult> {
    const harmonics = integerParam("harmonics", options.harmonics);
    return object(await this.#get("ai/tpe-vector", { zone: zoneParam(options.zone), harmonics }));
  }

  /** `GET quantum/decision`: the HS-Bloch quality gate against `threshold` (the service's default when omitted). */
  async getQuantumDecision(options: QuantumDecisionQuery = {}): Promise<QualityDecision> {
    return object(await this.#get("quantum/decision", { threshold: numberParam("threshold", options.threshold) }));
  }

  /** `GET quantum/carbon`: the lowest-carbon window of `duration_minutes` within `hours`. */
  async getQuantumCarbon(options: QuantumCarbonQuery = {}): Promise<CarbonRecommendation> {
    const query = { hours: numberParam("hours", options.hours), duration_minutes: numberParam("duration_minutes", options.duration_minutes) };
    return object(await this.#get("quantum/carbon", query));
  }

  /** `POST quantum/schedule`. */
  async scheduleQuantum(request: ScheduleRequest): Promise<ScheduleResult> {
    return object(await this.#post("quantum/schedule", request));
  }

  /**
   * `POST quantum/verify`: whether the receipt, its inclusion and the head chain check out on the service, and,
   * given the action payload (such as an `orchestrate()` result), whether it is what the receipt's hash names.
   */
  async verifyQuantumProof(receipt: Receipt, proof: AnchorProof, result?: unknown): Promise<VerifyResult> {
    return object(await this.#post("quantum/verify", result === undefined ? { receipt, proof } : { receipt, proof, result }));
  }

  /** `POST security/tsae`: a receipt signed by the service (201). Sent as given; see `issueReceipt` for the checked form. */
  async issueTsae(request: TsaeIssueRequest): Promise<Receipt> {
    return object(await this.#post("security/tsae", request));
  }

  /** `POST clockchain/anchor`: anchors a receipt signed by the service (again: its current proof). */
  async anchorTsaeHash(receipt: Receipt): Promise<AnchorProof> {
    return anchorProof(await this.#post("clockchain/anchor", { receipt }));
  }

  /** `GET clockchain/proof?receipt_hash=`: the proof, or `undefined` when the receipt is not anchored (404 `ANCHOR_NOT_FOUND`). */
  async getAnchorProof(receiptHash: string): Promise<AnchorProof | undefined> {
    if (!isHash(receiptHash)) {
      throw new TemporalRangeError("INVALID_HASH", `a receipt hash is 64 lowercase hex digits, got ${describeValue(receiptHash)}`);
    }
    try {
      return anchorProof(await this.#get("clockchain/proof", { receipt_hash: receiptHash }));
    } catch (error) {
      if (error instanceof TemporalApiError && error.status === 404 && error.code === "ANCHOR_NOT_FOUND") return undefined;
      throw error;
    }
  }

  /** `GET clockchain/proof?tile_id=&first=&second=`: RFC 9162 consistency proof between two sizes of a tile's tree. */
  async getConsistencyProof(tileId: number, first: number, second: number): Promise<ConsistencyProof> {
    const query = { tile_id: tileParam(tileId), first: integerParam("first", first, 0, "INVALID_TREE_SIZE"), second: integerParam("second", second, 0, "INVALID_TREE_SIZE") };
    return object(await this.#get("clockchain/proof", query));
  }

  /** `GET clockchain/anchors`: one page of a tile's anchors; `listAnchors` walks them all. */
  async getAnchors(tileId: number, options: AnchorsQuery = {}): Promise<AnchorPage> {
    const query = { tile_id: tileParam(tileId), offset: integerParam("offset", options.offset, 0, "INVALID_PAGE"), limit: integerParam("limit", options.limit, 1, "INVALID_PAGE") };
    const reply = await this.#get("clockchain/anchors", query);
    const page = object<AnchorPage>(reply);
    const offset = query.offset ?? 0;
    const valid = Array.isArray(page.anchors) && (page.next_offset === null || (Number.isSafeInteger(page.next_offset) && page.next_offset > offset));
    if (!valid) throw invalid(reply, `a page needs an anchors array and a next_offset that is null or past offset ${offset}`);
    return page;
  }

  /** `GET clockchain/status`. */
  async getClockchainStatus(): Promise<ClockchainStatus> {
    const reply = await this.#get("clockchain/status");
    const status = object<ClockchainStatus>(reply);
    if (status.last_checkpoint !== null && !isSignedCheckpoint(status.last_checkpoint)) {
      throw invalid(reply, "expected last_checkpoint: null or a signed tile checkpoint whose fields are its note's body");
    }
    return status;
  }

  /** `GET keys`: the service's public keys by key id, as JWKs and as note verifier keys. */
  async getKeys(): Promise<KeySet> {
    const reply = await this.#get("keys");
    const set = jwkSet<KeySet>(reply);
    const vkeys: unknown = set.note_verifier_keys;
    if (!isMap(vkeys) || !Object.values(vkeys).every(isVerifierKey)) {
      throw invalid(reply, "expected note_verifier_keys: { <key_id>: <name>+<hex key ID>+<base64 key> }");
    }
    return set;
  }

  /** `GET openapi.json`: the service's OpenAPI document. */
  async getOpenApi(): Promise<Record<string, unknown>> {
    return object(await this.#get("openapi.json"));
  }

  /**
   * `POST ztt/sign`: `payload` (text, or bytes sent as base64) signed by the service's ZTT signer in the current
   * opening of its window, as a bundle anyone verifies offline with `verifyZtt` and `getKeys()`. Outside the window:
   * 409 `ZTT_WINDOW_CLOSED` (`retryAfterMs` is the wait); a service without a window: 404 `ZTT_NOT_CONFIGURED`.
   */
  async signZtt(payload: string | Uint8Array): Promise<ZttBundle> {
    return object(await this.#post("ztt/sign", zttPayload(payload)));
  }

  /**
   * `POST ztt/verify`: the service's `verifyZtt` of `bundle` with its keys, as `verifyZtt(bundle, keys, options)`
   * offline: `payload` against the bundle's hash, `witnesses` (with `quorum`, `skewMs`) for the witnessed time,
   * `requireAnchor` to fail a bundle without an anchor, `window` and `zone` for the opening the certificate must be
   * for (`certificate_interval`). The service's keys are both the certifier's and the log's. The witnesses are sent
   * as their vkeys (a `parseWitnesses` set stays in this process).
   */
  async verifyZtt(bundle: ZttBundle, options: Omit<ZttVerifyOptions, "log" | "witnesses"> & { readonly witnesses?: readonly string[] } = {}): Promise<ZttVerification> {
    const { payload, witnesses, quorum, skewMs, requireAnchor, window } = options;
    const zone = zoneParam(options.zone);
    // The window is sent as given: the service validates it (400 with details).
    const body = {
      bundle,
      ...(payload === undefined ? {} : zttPayload(payload)),
      ...(witnesses === undefined ? {} : { witnesses }),
      ...(quorum === undefined ? {} : { quorum }),
      ...(skewMs === undefined ? {} : { skew_ms: skewMs }),
      ...(requireAnchor === undefined ? {} : { require_anchor: requireAnchor }),
      ...(window === undefined ? {} : { window }),
      ...(zone === undefined ? {} : { zone }),
    };
    return object(await this.#post("ztt/verify", body));
  }

  /**
   * `POST ztt/certify`: the service's certificate for the ephemeral Ed25519 public key `ephemeralX` (32 raw bytes as
   * base64url) for the opening of `window` in `zone` that is open now by the service's clock; only the public key is
   * sent. Outside the window: 409 `ZTT_WINDOW_CLOSED` (`nextOpenUnixMs`, `retryAfterMs`); a key that is not a
   * canonical point of large order: 400 `ZTT_KEY_INVALID`. A reply that is not a certificate for exactly this key,
   * window and zone is `INVALID_RESPONSE`. `zttSigner` uses it.
   */
  async certifyZtt(ephemeralX: string, window: Window, zone: ZoneInput): Promise<ZttCertificate> {
    const swtZone = parseZone(zone);
    const reply = await this.#post("ztt/certify", { ephemeral_x: ephemeralX, window, zone: swtZone });
    const certificate = object<ZttCertificate>(reply);
    const issues = certificateIssues(certificate);
    if (issues.length > 0) throw invalid(reply, `expected a window certificate: ${describeIssues(issues)}`);
    const asked = certificate.ephemeral_x === ephemeralX && certificate.swt_zone === swtZone && certifiesWindow(certificate, window);
    if (!asked) throw invalid(reply, "the certificate is not for the key, window and zone asked for");
    return certificate;
  }

  /**
   * A ZTT signer (the `ZttSigner` of `createZttSigner`) whose ephemeral key is generated here, in memory and
   * non-extractable, and whose certificate for each opening the service signs (`certifyZtt`, at the first `sign` of
   * the opening); signing is local. By the service's clock (synced over `GET twatch/now` at the first `sign`) unless
   * given `clock`: the service refuses a window that is closed by its own clock either way (docs/ztt.md, "Remote signing").
   */
  zttSigner(options: RemoteZttSignerOptions): ZttSigner {
    this.#assertOpen();
    return remoteZttSigner(this, options);
  }

  // --- Authority -----------------------------------------------------------

  /**
   * Resolves when the service answers and accepts the API key for issuing
   * (Managed) and anchoring (Enterprise) receipts: `GET clockchain/status`,
   * an Enterprise endpoint that changes nothing. Rejects with its
   * `TemporalApiError`: `NETWORK_ERROR` or `TIMEOUT` (unreachable),
   * `UNAUTHORIZED` (401: no key, or one the service does not know),
   * `FORBIDDEN` (403: a key below Enterprise).
   */
  async ready(): Promise<void> {
    await this.getClockchainStatus();
  }

  /** `getContext`. */
  async now(options: AuthorityNowOptions = {}): Promise<PhaseContext> {
    return this.getContext({ zone: options.zone });
  }

  /**
   * Checks a copy of the request as the local authority does (a
   * `TsaeRequestError` names every bad field, and nothing is sent), then
   * `issueTsae` with exactly the six request fields, plus the challenge
   * given in `options` or in the request's `challenge` field, if any.
   */
  async issueReceipt(request: TsaeRequest | TsaeIssueRequest, options: ClientIssueOptions = {}): Promise<Receipt> {
    this.#assertOpen();
    const { challenge: inRequest, ...snapshot } = plainCopy(request) as TsaeIssueRequest;
    assertTsaeRequest(snapshot);
    const { scope, day_index, phi_action_ticks, swt_zone, tile_id, action_hash_hex } = snapshot;
    const fields = { scope, day_index, phi_action_ticks, swt_zone, tile_id, action_hash_hex };
    const challenge = options.challenge ?? inRequest;
    return this.issueTsae(challenge === undefined ? fields : { ...fields, challenge });
  }

  /**
   * Checks the receipt's shape (`RECEIPT_REJECTED`, nothing sent), then
   * `anchorTsaeHash`; the service checks the signature. With `options`, the service waits until the anchor is `FINAL` (docs/witness.md);
   * a `PROVISIONAL` answer after `timeoutMs` rejects with `FINALITY_TIMEOUT`
   * carrying it; with a `quorum`, a reply that is not FINAL for at least it is
   * `INVALID_RESPONSE`. The request's own timeout is extended by the wait.
   */
  async anchor(receipt: Receipt, options?: AnchorOptions): Promise<AnchorProof> {
    this.#assertOpen();
    const wait = finalityWaitOf(options);
    const snapshot = plainCopy(receipt);
    const issues = receiptIssues(snapshot);
    if (issues.length > 0) throw new TemporalError("RECEIPT_REJECTED", `cannot anchor a malformed receipt: ${describeIssues(issues)}`);
    if (wait === undefined) return this.anchorTsaeHash(snapshot);
    const body = { receipt: snapshot, ...(wait.quorum === undefined ? {} : { quorum: wait.quorum }), timeout_ms: wait.timeoutMs };
    const reply = await this.#post("clockchain/anchor", body, this.#timeoutMs + wait.timeoutMs);
    const proof = anchorProof(reply);
    if (proof.finality === "PROVISIONAL") throw new FinalityTimeoutError(proof, wait.quorum, wait.timeoutMs);
    // Without a quorum asked, a service without witnesses answers without finality: there is nothing to wait for.
    if (wait.quorum === undefined) return proof;
    // A quorum was asked: only a FINAL proof for at least that quorum is an answer to it.
    if (proof.finality !== "FINAL")
      throw invalid(reply, `expected a FINAL or PROVISIONAL anchor proof for the quorum of ${wait.quorum} asked, got finality ${describeValue(proof.finality)}`);
    const witnessed = proof.witnessed?.quorum;
    if (witnessed === undefined || witnessed < wait.quorum) throw invalid(reply, `expected a FINAL proof witnessed by a quorum of at least ${wait.quorum}, got ${describeValue(witnessed)}`);
    return proof;
  }

  /** Every anchor of a tile, following `next_offset` from 0. */
  async listAnchors(tileId: number): Promise<AnchorSummary[]> {
    tileParam(tileId);
    const anchors: AnchorSummary[] = [];
    let offset: number | null = 0;
    while (offset !== null) {
      const page: AnchorPage = await this.getAnchors(tileId, { offset });
      anchors.push(...page.anchors);
      offset = page.next_offset;
    }
    return anchors;
  }

  /** `getKeys().keys`, also from a service that predates `note_verifier_keys`. */
  async publicKeys(): Promise<Record<string, PublicKeyJwk>> {
    return jwkSet<Pick<KeySet, "keys">>(await this.#get("keys")).keys;
  }

  /**
   * Refuses new calls (they reject with `AUTHORITY_CLOSED`), stops pending
   * retries (they reject with their last error) and waits for requests in
   * flight. Idempotent.
   */
  async close(): Promise<void> {
    this.#closed = true;
    for (const wake of [...this.#wakers]) wake();
    await Promise.allSettled([...this.#pending]);
  }

  // --- Transport -----------------------------------------------------------

  #assertOpen(): void {
    if (this.#closed) throw new TemporalError("AUTHORITY_CLOSED", `the client of ${this.baseUrl} is closed`);
  }

  #get(path: string, query?: Query): Promise<Reply> {
    return this.#track(this.#request("GET", path, query, undefined));
  }

  /** `timeoutMs`: this request's bound when it is not the client's (an anchor that waits for finality). */
  #post(path: string, body: unknown, timeoutMs = this.#timeoutMs): Promise<Reply> {
    let json: string;
    try {
      json = JSON.stringify(body);
    } catch (cause) {
      throw new TemporalTypeError("INVALID_ARGUMENT", `the body of POST ${path} cannot be serialised as JSON: ${cause instanceof Error ? cause.message : String(cause)}`);
    }
    return this.#track(this.#request("POST", path, undefined, json, timeoutMs));
  }

  #track<T>(request: Promise<T>): Promise<T> {
    this.#pending.add(request);
    const forget = () => this.#pending.delete(request);
    request.then(forget, forget);
    return request;
  }

  async #request(method: "GET" | "POST", path: string, query: Query | undefined, body: string | undefined, timeoutMs = this.#timeoutMs): Promise<Reply> {
    this.#assertOpen();
    const url = this.#url(path, query);
    const attempts = method === "GET" ? this.#retries + 1 : 1;
    for (let attempt = 1; ; attempt++) {
      let failure: TemporalApiError;
      try {
        return await this.#attempt(method, url, body, timeoutMs);
      } catch (error) {
        if (!(error instanceof TemporalApiError)) throw error;
        failure = error;
      }
      if (attempt >= attempts || !isRetryable(failure)) throw failure;
      const delay = this.#backoff(attempt, failure);
      if (delay === undefined || !(await this.#sleep(delay))) throw failure;
    }
  }

  #url(path: string, query: Query | undefined): string {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined) params.append(name, String(value));
    }
    const search = params.toString();
    return search === "" ? `${this.#api}${path}` : `${this.#api}${path}?${search}`;
  }

  /** One request, bounded by the timeout from sending to the end of the body. */
  async #attempt(method: "GET" | "POST", url: string, body: string | undefined, timeoutMs: number): Promise<Reply> {
    const controller = new AbortController();
    let timedOut = false;
    let onTimeout: (error: TemporalApiError) => void = () => undefined;
    // Also settles the attempt when a custom fetch ignores the signal.
    const deadline = new Promise<never>((_, reject) => {
      onTimeout = reject;
    });
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
      onTimeout(this.#timeout(method, url, timeoutMs, controller.signal.reason));
    }, timeoutMs);
    const headers = body === undefined ? { ...this.#headers } : { ...this.#headers, "content-type": "application/json" };
    const init: FetchInit = body === undefined ? { method, headers, signal: controller.signal } : { method, headers, body, signal: controller.signal };
    let response: FetchResponse;
    let text: string;
    try {
      response = await Promise.race([this.#fetch(url, init), deadline]);
      text = await Promise.race([response.text(), deadline]);
    } catch (cause) {
      if (cause instanceof TemporalApiError) throw cause;
      if (timedOut) throw this.#timeout(method, url, timeoutMs, cause);
      throw new TemporalApiError({ status: 0, code: "NETWORK_ERROR", method, url, message: `${method} ${url} failed: ${describeCause(cause)}`, cause });
    } finally {
      clearTimeout(timer);
    }
    return interpret(method, url, response, text);
  }

  #timeout(method: string, url: string, timeoutMs: number, cause: unknown): TemporalApiError {
    return new TemporalApiError({ status: 0, code: "TIMEOUT", method, url, message: `${method} ${url} timed out after ${timeoutMs} ms`, cause });
  }

  /** The wait before attempt `attempt + 1`, or `undefined` when the service asks for longer than the ceiling. */
  #backoff(attempt: number, failure: TemporalApiError): number | undefined {
    if (failure.retryAfterMs !== undefined) return failure.retryAfterMs <= this.#maxRetryDelayMs ? failure.retryAfterMs : undefined;
    const ceiling = Math.min(this.#maxRetryDelayMs, this.#retryDelayMs * 2 ** (attempt - 1));
    return ceiling / 2 + Math.random() * (ceiling / 2);
  }

  /** Resolves true after `ms`, or false at once if the client is closed meanwhile. */
  #sleep(ms: number): Promise<boolean> {
    if (this.#closed) return Promise.resolve(false);
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.#wakers.delete(wake);
        resolve(false);
      };
      const timer = setTimeout(() => {
        this.#wakers.delete(wake);
        resolve(true);
      }, ms);
      this.#wakers.add(wake);
    });
  }
}

/** A client of the service at `options.baseUrl`; validates the options and does no I/O. */
export function createClient(options: ClientOptions): TemporalClient {
  return new TemporalClient(options);
}

function normaliseBaseUrl(baseUrl: unknown): string {
  if (typeof baseUrl !== "string" && !(typeof URL === "function" && baseUrl instanceof URL)) {
    throw new TemporalTypeError("INVALID_BASE_URL", `baseUrl must be a string such as "http://127.0.0.1:8787", got ${describeValue(baseUrl)}`);
  }
  const text = String(baseUrl);
  let url: URL | undefined;
  try {
    // "localhost:8787" parses, with the scheme "localhost:"; require the "//".
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) url = new URL(text);
  } catch {
    // reported below
  }
  if (url === undefined) {
    throw new TemporalTypeError("INVALID_BASE_URL", `baseUrl ${describeValue(text)} is not an absolute URL; expected something like "http://127.0.0.1:8787"`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new TemporalRangeError("INVALID_BASE_URL", `baseUrl ${describeValue(text)} must use http: or https:, not ${url.protocol}`);
  }
  if (url.username !== "" || url.password !== "") {
    throw new TemporalRangeError("INVALID_BASE_URL", `baseUrl must not contain credentials; pass apiKey instead`);
  }
  if (url.search !== "" || url.hash !== "" || text.includes("?") || text.includes("#")) {
    throw new TemporalRangeError("INVALID_BASE_URL", `baseUrl ${describeValue(text)} must not have a query or fragment; it is an origin with an optional path prefix`);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}

function numberOption(name: string, value: unknown, fallback: number, min: number, max: number, integer: boolean): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number") throw new TemporalTypeError("INVALID_CLIENT_OPTIONS", `${name} must be a number, got ${describeValue(value)}`);
  if (!(value >= min && value <= max) || (integer && !Number.isInteger(value))) {
    throw new TemporalRangeError("INVALID_CLIENT_OPTIONS", `${name} must be ${integer ? "an integer" : "a number"} in [${min}, ${max}], got ${describeValue(value)}`);
  }
  return value;
}

function zoneParam(zone: ZoneInput | undefined): number | undefined {
  return zone === undefined ? undefined : parseZone(zone);
}

function tileParam(tileId: number): number {
  if (!Number.isSafeInteger(tileId) || tileId < 0) {
    throw new TemporalRangeError("INVALID_TILE", `a tile id is a non-negative integer, got ${describeValue(tileId)}`);
  }
  return tileId;
}

function numberParam(name: string, value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isFinite(value)) throw new TemporalTypeError("INVALID_ARGUMENT", `${name} must be a finite number, got ${describeValue(value)}`);
  return value;
}

function integerParam(name: string, value: number | undefined, min = Number.MIN_SAFE_INTEGER, code: ErrorCode = "INVALID_ARGUMENT"): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || value < min) {
    throw new TemporalRangeError(code, `${name} must be an integer${min === 0 ? " >= 0" : min === 1 ? " >= 1" : ""}, got ${describeValue(value)}`);
  }
  return value;
}

function stamp(name: string, value: TimeStamp): TimeStamp {
  if (typeof value !== "object" || value === null) throw new TemporalTypeError("INVALID_ARGUMENT", `${name} must be a time stamp { day_index, phi_ticks }, got ${describeValue(value)}`);
  return { day_index: value.day_index, phi_ticks: value.phi_ticks };
}

function plainCopy<T>(value: T): T {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? { ...value } : value;
}

function isRetryable(error: TemporalApiError): boolean {
  return error.status === 0 ? error.code === "NETWORK_ERROR" || error.code === "TIMEOUT" : RETRYABLE_STATUS.has(error.status);
}

function describeCause(cause: unknown): string {
  if (!(cause instanceof Error)) return describeValue(cause);
  // Node's fetch reports "fetch failed" and puts the socket error (ECONNREFUSED, ...) in `cause`.
  const inner = (cause as { cause?: unknown }).cause;
  if (inner instanceof Error) {
    const code = (inner as { code?: unknown }).code;
    return `${cause.message}: ${inner.message}${typeof code === "string" && !inner.message.includes(code) ? ` (${code})` : ""}`;
  }
  return cause.message;
}

function interpret(method: string, url: string, response: FetchResponse, text: string): Reply {
  const status = response.status;
  let value: unknown;
  let json = true;
  try {
    value = JSON.parse(text);
  } catch {
    json = false;
  }
  if (status >= 200 && status < 300) {
    if (json) return { method, url, status, value };
    const type = response.headers.get("content-type");
    throw new TemporalApiError({
      status,
      code: "INVALID_RESPONSE",
      method,
      url,
      message: `${method} ${url} replied ${status} with a body that is not JSON${type === null ? "" : ` (${type})`}: ${snippet(text)}`,
    });
  }
  const retryAfterMs = parseRetryAfter(response.headers.get("retry-after"));
  const error = json ? errorShape(value) : undefined;
  if (error !== undefined) {
    const { code, details, nextOpenUnixMs } = error;
    return fail({ status, code, method, url, details, retryAfterMs, nextOpenUnixMs, message: `${method} ${url} failed with ${status} ${code}: ${error.message}` });
  }
  const reason = response.statusText ? ` ${response.statusText}` : "";
  return fail({ status, code: `HTTP_${status}`, method, url, retryAfterMs, message: `${method} ${url} failed with ${status}${reason}: ${snippet(text)}` });
}

/** Text as it is; bytes as base64, which JSON can carry. */
function zttPayload(payload: string | Uint8Array): { payload: string; encoding?: "base64" } {
  if (typeof payload === "string") return { payload };
  if (payload instanceof Uint8Array) return { payload: bytesToBase64(payload), encoding: "base64" };
  throw new TemporalTypeError("INVALID_ARGUMENT", `a ZTT payload is a string or a Uint8Array, got ${describeValue(payload)}`);
}

function object<T>(reply: Reply): T {
  const { value } = reply;
  if (!isMap(value)) throw invalid(reply, `expected a JSON object, got ${describeValue(value)}`);
  return value as T;
}

function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A `GET keys` reply with its `keys` map checked. */
function jwkSet<T extends Pick<KeySet, "keys">>(reply: Reply): T {
  const set = object<T>(reply);
  if (!isMap(set.keys)) throw invalid(reply, "expected { keys: { <key_id>: <jwk> } }");
  return set;
}

/**
 * An anchor proof whose checkpoint is a signed tile checkpoint (its fields
 * its note's body): a service still sending JSON heads is refused here
 * rather than failing every verification later. Not verified: that is
 * `verifyAnchorProof`'s job, with a key the caller trusts.
 */
function anchorProof(reply: Reply): AnchorProof {
  const proof = object<AnchorProof>(reply);
  if (!isSignedCheckpoint(proof.checkpoint))
    throw invalid(reply, "expected an anchor proof whose checkpoint is a signed tile checkpoint (C2SP note), as services since ledger format 2 send");
  return proof;
}

function invalid(reply: Reply, problem: string): TemporalApiError {
  const { method, url, status } = reply;
  return new TemporalApiError({ status, code: "INVALID_RESPONSE", method, url, message: `${method} ${url} replied ${status} with an unexpected shape: ${problem}` });
}

function fail(init: ConstructorParameters<typeof TemporalApiError>[0]): never {
  throw new TemporalApiError(init);
}

function errorShape(value: unknown): { code: string; message: string; details?: ApiErrorDetails; nextOpenUnixMs?: number } | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const error = (value as { error?: unknown }).error;
  if (typeof error !== "object" || error === null) return undefined;
  const { code, message, details, next_open_unix_ms: nextOpen } = error as { code?: unknown; message?: unknown; details?: unknown; next_open_unix_ms?: unknown };
  if (typeof code !== "string" || code === "" || typeof message !== "string") return undefined;
  return {
    code,
    message,
    ...(Array.isArray(details) ? { details: details as ApiErrorDetails } : {}),
    ...(Number.isSafeInteger(nextOpen) ? { nextOpenUnixMs: nextOpen as number } : {}),
  };
}

/** `Retry-After` as delay-seconds or an HTTP date, in milliseconds from now. */
function parseRetryAfter(header: string | null): number | undefined {
  if (header === null) return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function snippet(text: string): string {
  if (text === "") return "(empty body)";
  return JSON.stringify(text.length > SNIPPET_LENGTH ? `${text.slice(0, SNIPPET_LENGTH)}...` : text);
}
