/**
 * `@temporal/server/testing`: kept for compatibility. The stand-in is `@temporal/agent-sdk/testing`; this is it,
 * plus what only temporal-service can add: `quality` and `carbon` as the service config's file sources (`{ file }`,
 * `{ forecast_file, location? }`) and its simulator quality source (`{ simulator, noise? }`), read as it reads them.
 */
import { createTestService as createSdkTestService, type TestService, type TestServiceOptions } from "@temporal/agent-sdk/testing";
import type { CarbonSource, QualitySource } from "./config.js";
import { carbonReader, qualityReader } from "./sources.js";

export { createTestClock, type InProcessFetch, type KeyedTier, type TestClock, type TestService } from "@temporal/agent-sdk/testing";

export interface ServerTestServiceOptions extends Omit<TestServiceOptions, "quality" | "carbon"> {
  readonly quality?: TestServiceOptions["quality"] | QualitySource;
  readonly carbon?: TestServiceOptions["carbon"] | CarbonSource;
}

/** `@temporal/agent-sdk/testing`'s `createTestService`, with file and simulator sources too. */
export function createTestService(options: ServerTestServiceOptions = {}): TestService {
  const { quality, carbon } = options;
  return createSdkTestService({
    ...options,
    // A file's reading is dated by the file (or its contents); a simulator's by this start time, the clock's epoch.
    ...(isQualityReadHere(quality) ? { quality: qualityReader(quality, 0) } : { quality }),
    ...(isCarbonFile(carbon) ? { carbon: carbonReader(carbon) } : { carbon }),
  });
}

function isQualityReadHere(source: ServerTestServiceOptions["quality"]): source is Extract<QualitySource, { file: string } | { simulator: string }> {
  return typeof source === "object" && source !== null && ("file" in source || "simulator" in source);
}

function isCarbonFile(source: ServerTestServiceOptions["carbon"]): source is Extract<CarbonSource, { forecast_file: string }> {
  return typeof source === "object" && source !== null && "forecast_file" in source;
}
