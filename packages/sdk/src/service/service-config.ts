import type { ComposedAuthority } from "../authority/index.js";
import type { Window, ZoneInput } from "../core/index.js";
import type { ApiKeyRecord } from "./api-keys.js";

export interface BucketConfig {
  /** Requests that may arrive at once. */
  readonly burst: number;
  /** Requests per second the bucket refills with. */
  readonly per_second: number;
}

/**
 * A static score, a file the operator updates, or (temporal-service with @temporal/quantum) a simulator
 * backend's HS-Bloch quality, estimated from calibration circuits.
 */
export type QualitySource = { readonly score: number } | { readonly file: string } | { readonly simulator: string; readonly noise?: number; readonly shots?: number; readonly seed?: number };
/** A static intensity, or a forecast file in the Carbon Aware SDK's shape; `location` picks one forecast of several and is echoed in replies. */
export type CarbonSource = { readonly intensity: number; readonly location?: string } | { readonly forecast_file: string; readonly location?: string };

/** Caps and timeouts of the service's connections; docs/service.md says why the defaults are what they are. */
export interface ConnectionLimits {
  /** Open connections at once, over all clients; more are closed as they are accepted. */
  readonly max_connections: number;
  /** Open connections at once from one peer address (the socket's, never X-Forwarded-For); trusted proxies are exempt. */
  readonly max_connections_per_address: number;
  /** Time for a request's headers to arrive whole (Node's `headersTimeout`); then 408 and the connection is closed. */
  readonly headers_timeout_ms: number;
  /** Time for a whole request, headers and body (Node's `requestTimeout`); at least `headers_timeout_ms`. */
  readonly request_timeout_ms: number;
  /** How long an idle kept-alive connection stays open (Node's `keepAliveTimeout`). */
  readonly keep_alive_timeout_ms: number;
}

/**
 * The service configuration, as read from its JSON file (temporal-service's config.ts reads and checks it);
 * relative file paths are resolved against the file's directory. Here, with the pipeline that runs it, so the
 * in-process stand-in runs with the same defaults as the real service.
 */
export interface ServiceConfig {
  readonly cors: { readonly origins: readonly string[] };
  readonly keys: readonly ApiKeyRecord[];
  readonly rate_limit: { readonly per_ip: BucketConfig; readonly per_key: BucketConfig };
  readonly quality: QualitySource | null;
  readonly carbon: CarbonSource | null;
  readonly challenge_ttl_ms: number;
  /**
   * The proxies in front of the service (addresses or CIDR ranges, IPv4 and IPv6): behind one, the client is the
   * rightmost untrusted hop of X-Forwarded-For (client-address.ts). Empty: the header is ignored.
   */
  readonly trust_proxy: readonly string[];
  /** How the node:http server holds connections (temporal-service only: the in-process stand-in has none). */
  readonly limits: ConnectionLimits;
  /** The authority name of the clockchain's checkpoint origins (`<name>/tile/<tile id>`); null for `temporal-authority/<key id>`. */
  readonly authority_name: string | null;
  /** The window the service's ZTT signer signs in (`POST ztt/sign`, docs/ztt.md); null: no signer, and `ztt/sign` answers 404 `ZTT_NOT_CONFIGURED`. */
  readonly ztt: ZttConfig | null;
}

/** One phase window in one SWT zone: the service's ZTT signer certifies a fresh ephemeral key for each of its daily openings. */
export interface ZttConfig {
  readonly window: Window;
  readonly zone: ZoneInput;
}

export const DEFAULT_CONFIG: ServiceConfig = {
  cors: { origins: [] },
  keys: [],
  rate_limit: { per_ip: { burst: 300, per_second: 100 }, per_key: { burst: 1200, per_second: 400 } },
  quality: null,
  carbon: null,
  challenge_ttl_ms: 60_000,
  trust_proxy: [],
  limits: { max_connections: 4096, max_connections_per_address: 256, headers_timeout_ms: 10_000, request_timeout_ms: 30_000, keep_alive_timeout_ms: 5_000 },
  authority_name: null,
  ztt: null,
};

/** The authority the handlers use: the SDK's, composed of a store, a signer and the service clock. */
export type ServiceAuthority = ComposedAuthority;
