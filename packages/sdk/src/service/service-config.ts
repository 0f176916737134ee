import type { ComposedAuthority } from "../authority/index.js";
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
  /** Take the client address from X-Forwarded-For (only behind a proxy you run). */
  readonly trust_proxy: boolean;
  /** The authority name of the clockchain's checkpoint origins (`<name>/tile/<tile id>`); null for `temporal-authority/<key id>`. */
  readonly authority_name: string | null;
}

export const DEFAULT_CONFIG: ServiceConfig = {
  cors: { origins: [] },
  keys: [],
  rate_limit: { per_ip: { burst: 300, per_second: 100 }, per_key: { burst: 1200, per_second: 400 } },
  quality: null,
  carbon: null,
  challenge_ttl_ms: 60_000,
  trust_proxy: false,
  authority_name: null,
};

/** The authority the handlers use: the SDK's, composed of a store, a signer and the service clock. */
export type ServiceAuthority = ComposedAuthority;
