/** `@temporal/server`: the Temporal Permission Service over HTTP, a thin layer over `@temporal/agent-sdk`. */
export { createService, BODY_LIMIT_BYTES, type ServiceOptions, type TemporalService } from "./service.js";
export { ConfigError, DEFAULT_CONFIG, loadConfig, loadConfigFile, type ListenSettings, type BucketConfig, type CarbonSource, type QualitySource, type ServiceConfig } from "./config.js";
export { createApiKey, hashApiKey, type ApiKeyRecord } from "./api-keys.js";
export { openApiDocument, API_PREFIXES } from "./openapi.js";
export { ROUTES, type Route } from "./routes.js";
export { TIERS, tierAllows } from "./tiers.js";
export { fileStore, type ServiceAuthority, type ServiceStore } from "./store.js";
