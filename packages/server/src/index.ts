/** `@temporal/server`: the Temporal Permission Service over HTTP, a thin layer over `@temporal/agent-sdk` (its request pipeline is `@temporal/agent-sdk/service`). */
export { createService, BODY_LIMIT_BYTES, type ServiceOptions, type TemporalService } from "./service.js";
export {
  ConfigError,
  DEFAULT_CONFIG,
  loadConfig,
  loadConfigFile,
  type ListenSettings,
  type BucketConfig,
  type CarbonSource,
  type ConnectionLimits,
  type QualitySource,
  type ServiceConfig,
} from "./config.js";
export { createApiKey, hashApiKey, type ApiKeyRecord } from "@temporal/agent-sdk/service";
export { openApiDocument, API_PREFIXES, ROUTES, type Route, TIERS, tierAllows } from "@temporal/agent-sdk/service";
export { fileStore, type ServiceAuthority, type ServiceStore, type StoreHealth } from "./store.js";
