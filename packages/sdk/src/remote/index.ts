/** The HTTP client of the Temporal Permission Service (browser-safe). */
export {
  TemporalClient,
  createClient,
  type AllowOptions,
  type AnchorsQuery,
  type ClientIssueOptions,
  type ClientOptions,
  type ContextQuery,
  type FetchFunction,
  type FetchInit,
  type FetchResponse,
  type QuantumCarbonQuery,
  type QuantumDecisionQuery,
  type TpeVectorQuery,
  type TwatchNowQuery,
} from "./client.js";
export { TemporalApiError, type ApiErrorDetails, type TemporalApiErrorInit } from "./errors.js";
export type { RemoteZttSignerOptions } from "./ztt-signer.js";
export { syncClock, type ClockSample, type ClockSync, type SyncClockOptions, type TwatchSource } from "./sync-clock.js";
