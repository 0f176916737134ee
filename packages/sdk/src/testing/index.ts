/**
 * `@temporal/agent-sdk/testing`: an in-process stand-in for the Temporal Permission Service, for tests of code
 * that calls it through `createClient({ fetch })`. Every endpoint, the same replies and errors byte for byte
 * (it runs the service's own request pipeline), a clock the test sets, API keys per tier, and an in-memory authority.
 * Platform-free: it runs under Node, in browsers and in edge runtimes.
 */
export { createTestService, type KeyedTier, type TestService, type TestServiceOptions } from "./test-service.js";
export { createTestClock, type TestClock } from "./test-clock.js";
export { inProcessFetch, type InProcessEndpoint, type InProcessFetch, type InProcessFetchOptions } from "./fetch-transport.js";
export { HttpError, type CarbonReader, type CarbonReading, type QualityReader, type QualityReading } from "../service/index.js";
