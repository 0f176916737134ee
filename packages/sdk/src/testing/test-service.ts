/**
 * The service in-process, for tests of code that calls it through the SDK's client. It runs the service's own
 * request pipeline (service/pipeline.ts, the code temporal-service runs) over an in-memory authority, answered
 * by a `fetch` function instead of a socket.
 */
import { createMemoryAuthority, createMemorySigner, type Signer } from "../authority/index.js";
import { TemporalRangeError, TemporalTypeError, type PublicKeyJwk, type Tier } from "../core/index.js";
import { createClient, type ClientOptions, type TemporalClient } from "../remote/index.js";
import {
  DEFAULT_CONFIG,
  apiKeyRecord,
  createApiKey,
  createPipeline,
  serviceZttSigner,
  type CarbonReader,
  type QualityReader,
  type ServiceAuthority,
  type ServiceConfig,
} from "../service/index.js";
import { inProcessFetch, type InProcessFetch } from "./fetch-transport.js";
import { SDK_VERSION } from "./sdk-version.js";
import { createTestClock, type TestClock } from "./test-clock.js";

/** The tiers that have keys (public is what a request without one gets). */
export type KeyedTier = Exclude<Tier, "public">;

export interface TestServiceOptions {
  /** Where the clock starts, pinned: Unix ms or a Date. Without it the clock follows the system clock until `clock.set` or `clock.advance`. */
  readonly now?: number | Date;
  /**
   * The HS-Bloch score for `GET quantum/decision`: a number in 0..1, a static source as in the service config
   * (`{ score }`), or a function read on every request (a score that changes during the test; what it rejects
   * with is answered as the service would); default none (503 `SOURCE_UNCONFIGURED`).
   */
  readonly quality?: number | { readonly score: number } | QualityReader | null;
  /** Grid carbon intensity in gCO2eq/kWh for `quantum/carbon` and `quantum/schedule`: a number, `{ intensity, location? }`, or a function as for `quality`; default none. */
  readonly carbon?: number | { readonly intensity: number; readonly location?: string } | CarbonReader | null;
  /**
   * The rest of the service config: `cors`, `rate_limit` (default: unlimited, since a pinned clock never refills a bucket),
   * `challenge_ttl_ms`, `trust_proxy`, `authority_name` (the checkpoints' origin name, as the real service's), `ztt` (the ZTT signer's window and zone).
   */
  readonly config?: Partial<Omit<ServiceConfig, "keys" | "quality" | "carbon">>;
  /** The API key to accept for some tiers, instead of a new random one: the key your code reads from its environment, say. Visible ASCII, one per tier. */
  readonly apiKeys?: Partial<Record<KeyedTier, string>>;
  /** Signs receipts, heads and challenges; default a new in-memory Ed25519 key. */
  readonly signer?: Signer;
  /** Where unexpected errors (answered 500) are reported; by default they are thrown out of `close()`, so a test notices them. */
  readonly onUnexpectedError?: (error: unknown) => void;
}

export interface TestService {
  /** `fetch`'s call shape, answering requests to `baseUrl` in this process: pass it as `createClient({ fetch })`. */
  readonly fetch: InProcessFetch;
  /** The origin the stand-in answers, `http://temporal-service.test`. */
  readonly baseUrl: string;
  /** One API key per tier; a request without one is public. */
  readonly apiKeys: Readonly<Record<KeyedTier, string>>;
  /** The service's time: receipts, heads, challenges and verdicts all read it. */
  readonly clock: TestClock;
  /** The SDK authority behind the endpoints: `createMemoryAuthority` on the test clock. */
  readonly authority: ServiceAuthority;
  /** The config the pipeline runs with (its `keys` are the hashes of `apiKeys`; a function source shows as null). */
  readonly config: ServiceConfig;
  /** The service's public keys by key id: receipts and proofs it issues verify with them. */
  publicKeys(): Promise<Record<string, PublicKeyJwk>>;
  /** A client of the stand-in holding the key of `tier` (none for public); default enterprise, which may call every endpoint. */
  client(tier?: Tier, options?: Omit<ClientOptions, "baseUrl" | "fetch" | "apiKey">): TemporalClient;
  /** Answers later requests 503 `SHUTTING_DOWN`, waits for those in flight, closes the authority; rejects with an unexpected error seen meanwhile (unless `onUnexpectedError` was given). Idempotent. */
  close(): Promise<void>;
}

const BASE_URL = "http://temporal-service.test";
/** The peer address every in-process request comes from. */
const LOOPBACK = "127.0.0.1";
const UNLIMITED = { burst: Number.MAX_SAFE_INTEGER, per_second: Number.MAX_SAFE_INTEGER };
const KEYED_TIERS: readonly KeyedTier[] = ["developer", "managed", "quantum", "enterprise"];
const OPTION_NAMES = new Set(["now", "quality", "carbon", "config", "apiKeys", "signer", "onUnexpectedError"]);
/** What the client sends in `Authorization: Bearer <key>` unchanged. */
const KEY_TEXT = /^[\x21-\x7e]+$/;

/** An in-process temporal-service: the real request pipeline over an in-memory authority, with a clock the test sets. */
export function createTestService(options: TestServiceOptions = {}): TestService {
  checkOptions(options);
  const clock = createTestClock(options.now);
  const madeAt = new Date(clock.now());
  const created = KEYED_TIERS.map((tier) => {
    const given = options.apiKeys?.[tier];
    return [tier, given === undefined ? createApiKey(tier, `test ${tier}`, madeAt) : { key: given, record: apiKeyRecord(given, tier, `test ${tier}`, madeAt) }] as const;
  });
  const config: ServiceConfig = {
    ...DEFAULT_CONFIG,
    ...options.config,
    rate_limit: { per_ip: UNLIMITED, per_key: UNLIMITED, ...options.config?.rate_limit },
    keys: created.map(([, { record }]) => record),
    quality: typeof options.quality === "function" ? null : typeof options.quality === "number" ? { score: options.quality } : (options.quality ?? null),
    carbon: typeof options.carbon === "function" ? null : typeof options.carbon === "number" ? { intensity: options.carbon } : (options.carbon ?? null),
  };
  // One signer for the authority and the ZTT signer's certificates, as the real service has.
  const signer = options.signer ?? createMemorySigner();
  // The checkpoints' origins carry the configured name, as the real service's do.
  const authority = createMemoryAuthority({
    clock: () => clock.now(),
    signer,
    ...(config.authority_name === null ? {} : { authorityName: config.authority_name }),
  });
  const ztt = serviceZttSigner(config.ztt, signer, authority, () => clock.now());
  const unexpected: unknown[] = [];
  const pipeline = createPipeline({
    config,
    clock: () => clock.now(),
    authority,
    version: SDK_VERSION,
    // A static source is in `config`, which the pipeline reads as the real service's does.
    ...(typeof options.quality === "function" ? { quality: options.quality } : {}),
    ...(typeof options.carbon === "function" ? { carbon: options.carbon } : {}),
    onUnexpectedError: options.onUnexpectedError ?? ((error) => unexpected.push(error)),
    ...(ztt === undefined ? {} : { ztt }),
  });
  const endpoint = inProcessFetch(pipeline, { origin: BASE_URL, remoteAddress: LOOPBACK });
  const apiKeys = Object.freeze(Object.fromEntries(created.map(([tier, { key }]) => [tier, key]))) as Record<KeyedTier, string>;
  let closing: Promise<void> | undefined;

  return {
    fetch: endpoint.fetch,
    baseUrl: BASE_URL,
    apiKeys,
    clock,
    authority,
    config,
    publicKeys: () => authority.publicKeys(),
    client(tier = "enterprise", clientOptions = {}) {
      const apiKey = tier !== "public" && Object.hasOwn(apiKeys, tier) ? apiKeys[tier] : undefined;
      if (tier !== "public" && apiKey === undefined) throw new TemporalTypeError("INVALID_ARGUMENT", `no such tier ${JSON.stringify(tier)}; the tiers are public, ${KEYED_TIERS.join(", ")}`);
      return createClient({ ...clientOptions, baseUrl: BASE_URL, fetch: endpoint.fetch, ...(apiKey === undefined ? {} : { apiKey }) });
    },
    close() {
      pipeline.shutDown();
      ztt?.close();
      closing ??= endpoint
        .idle()
        .then(() => authority.close())
        .then(() => {
          if (unexpected.length > 0) throw new AggregateError(unexpected, `the test service answered ${unexpected.length} request(s) 500 INTERNAL_ERROR: ${String(unexpected[0])}`);
        });
      return closing;
    },
  };
}

function checkOptions(options: TestServiceOptions): void {
  if (typeof options !== "object" || options === null)
    throw new TemporalTypeError("INVALID_ARGUMENT", `createTestService takes an options object, got ${options === null ? "null" : typeof options}`);
  for (const name of Object.keys(options)) {
    if (!OPTION_NAMES.has(name)) throw new TemporalTypeError("INVALID_ARGUMENT", `unknown createTestService option ${JSON.stringify(name)}; the options are ${[...OPTION_NAMES].join(", ")}`);
  }
  checkApiKeys(options.apiKeys);
  // The real service's config schema checks these when the file is loaded; here nothing else would.
  const quality = sourceValue(options.quality, "quality", "score");
  if (quality !== undefined && !(quality >= 0 && quality <= 1)) throw new TemporalRangeError("INVALID_ARGUMENT", `quality is an HS-Bloch score in 0..1, got ${quality}`);
  const carbon = sourceValue(options.carbon, "carbon", "intensity");
  if (carbon !== undefined && !(carbon >= 0 && Number.isFinite(carbon))) throw new TemporalRangeError("INVALID_ARGUMENT", `carbon is an intensity >= 0 in gCO2eq/kWh, got ${carbon}`);
}

/** The static number of a source option (given as it is or as `{ [key]: number }`), undefined for none or a function. */
function sourceValue(source: unknown, name: string, key: string): number | undefined {
  if (source === undefined || source === null || typeof source === "function") return undefined;
  if (typeof source === "number") return source;
  const value = typeof source === "object" ? (source as Record<string, unknown>)[key] : undefined;
  // A file source is temporal-service's: reading files is not platform-free.
  if (typeof value !== "number")
    throw new TemporalTypeError("INVALID_ARGUMENT", `${name} takes a number, { ${key}: <number> } or a function returning a reading; a file source needs @temporal/server/testing`);
  return value;
}

function checkApiKeys(apiKeys: TestServiceOptions["apiKeys"]): void {
  if (apiKeys === undefined) return;
  if (typeof apiKeys !== "object" || apiKeys === null) throw new TemporalTypeError("INVALID_ARGUMENT", 'apiKeys maps tiers to keys, e.g. { enterprise: "tps_test" }');
  const seen = new Set<string>();
  for (const [tier, key] of Object.entries(apiKeys)) {
    if (!(KEYED_TIERS as readonly string[]).includes(tier))
      throw new TemporalTypeError("INVALID_ARGUMENT", `apiKeys has no tier ${JSON.stringify(tier)}; the tiers with keys are ${KEYED_TIERS.join(", ")}`);
    if (key === undefined) continue;
    // The key itself is never put in a message.
    if (typeof key !== "string" || !KEY_TEXT.test(key)) throw new TemporalRangeError("INVALID_ARGUMENT", `apiKeys.${tier} must be a non-empty string of visible ASCII characters`);
    if (seen.has(key)) throw new TemporalRangeError("INVALID_ARGUMENT", `apiKeys.${tier} is the key of another tier; a key has one tier`);
    seen.add(key);
  }
}
