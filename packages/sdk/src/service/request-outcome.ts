import type { Tier } from "../core/index.js";
import type { RequestHead } from "./pipeline.js";
import type { HeaderList } from "./reply-headers.js";

/** Which rate limit turned a request away with 429. */
export type RateLimitScope = "per_ip" | "per_key";

/**
 * What the pipeline reports of each request it answered, for the platform's metrics and request logs.
 * Plain data, so the SDK stays free of any metrics or logging library.
 */
export interface RequestOutcome {
  /** The route's path template without its prefix (`/core/state`), or undefined when no route matched (404, 405) or the request was turned away before routing. */
  readonly route: string | undefined;
  readonly status: number;
  /** From arrival to the reply being handed to the transport, in milliseconds of the monotonic clock (not the service clock, which tests may set). */
  readonly durationMs: number;
  /** The caller's tier: the API key's, or `public` without one (or when the key was not read). */
  readonly tier: Tier;
  /** The id of the caller's API key (never the key), when one was presented and known. */
  readonly keyId: string | undefined;
  /** The limit that answered 429, if one did. */
  readonly rateLimited: RateLimitScope | undefined;
  /** The error code of an error reply (`RATE_LIMITED`, `UNAUTHORIZED`, ...). */
  readonly errorCode: string | undefined;
  /** What the route asked to be kept with the reply for audit (a ZTT certificate's key id, window, zone and day); never a secret. */
  readonly audit?: Readonly<Record<string, unknown>> | undefined;
}

/**
 * Called once per reply, just before it is handed to the transport, with the reply's headers, to which it may add
 * (the platform's request id); it must not throw. Before rather than after the send, so the platform adds its
 * header and records the reply in one call, keeping nothing on the request in between.
 */
export type RequestObserver = (request: RequestHead, outcome: RequestOutcome, headers: HeaderList) => void;

/**
 * The pipeline's record of one request while it is handled, allocated only when an observer is set; completed
 * and handed to the observer as the outcome itself, so a request costs one object.
 */
export interface Exchange {
  route: string | undefined;
  status: number;
  /** The arrival time until the reply is sent, then the duration. */
  durationMs: number;
  tier: Tier;
  keyId: string | undefined;
  rateLimited: RateLimitScope | undefined;
  errorCode: string | undefined;
  audit: Readonly<Record<string, unknown>> | undefined;
}

export function beginExchange(): Exchange {
  return { route: undefined, status: 0, durationMs: performance.now(), tier: "public", keyId: undefined, rateLimited: undefined, errorCode: undefined, audit: undefined };
}

/** Reports `exchange` as about to be answered with `status` and `headers`. */
export function reportExchange(observer: RequestObserver, request: RequestHead, exchange: Exchange, status: number, headers: HeaderList): void {
  exchange.status = status;
  exchange.durationMs = performance.now() - exchange.durationMs;
  observer(request, exchange, headers);
}
