/**
 * `@temporal/agent-sdk/service`: the Temporal Permission Service's request handling without HTTP: routes,
 * request validation, tiers, API keys, rate limits, CORS and the one error shape. Platform-free, so
 * temporal-service (node:http) and the in-process stand-in (`@temporal/agent-sdk/testing`) run this same code.
 */
export { BODY_LIMIT_BYTES, createPipeline, type AdmissionHeaders, type BodyDone, type Pipeline, type PipelineOptions, type RequestHead, type Transport } from "./pipeline.js";
export {
  DEFAULT_CONFIG,
  type BucketConfig,
  type ConnectionLimits,
  type CarbonSource,
  type QualitySource,
  type ServiceAuthority,
  type ServiceConfig,
  type ZttConfig,
} from "./service-config.js";
export { staticCarbonReader, staticQualityReader, type CarbonReader, type CarbonReading, type QualityReader, type QualityReading } from "./sources.js";
export { KeyRing, apiKeyRecord, createApiKey, hashApiKey, type ApiKeyRecord, type Caller } from "./api-keys.js";
export { TrustedProxies } from "./client-address.js";
export { HttpError, type FieldProblem } from "./http-error.js";
export { addHeaders, commonHeaders, jsonContentType, type HeaderList } from "./reply-headers.js";
export { parseJson, parseJsonBody, tooLarge, unsupportedEncoding, unsupportedType } from "./json-body.js";
export { duplicateKeyPointer } from "./duplicate-keys.js";
export { API_PREFIXES, openApiDocument } from "./openapi.js";
export type { RateLimitScope, RequestObserver, RequestOutcome } from "./request-outcome.js";
export { ROUTES, type Route, type RouteContext, type RouteInput } from "./routes.js";
export { ANCHOR_PROOF, ERROR_BODY, PHASE_CONTEXT, RECEIPT, REPLIES, REQUESTS, SIGNED_CHECKPOINT } from "./schemas.js";
export { serviceZttSigner } from "./ztt-routes.js";
export { schemaProblems, type SchemaError } from "./schema-problems.js";
export { TIERS, isTier, tierAllows } from "./tiers.js";
export { allowJson, contextJson } from "./reply-json.js";
export { httpErrorFromSdk } from "./sdk-errors.js";
