/**
 * `@temporal/server/testing`: kept for compatibility. The stand-in is `@temporal/agent-sdk/testing`; this is it,
 * plus the one thing only a platform that reads files can add: `quality` and `carbon` as the service config's
 * file sources (`{ file }`, `{ forecast_file, location? }`), read as temporal-service reads them.
 */
import { createTestService as createSdkTestService, type TestService, type TestServiceOptions } from "@temporal/agent-sdk/testing";
import type { CarbonSource, QualitySource } from "./config.js";
import { carbonReader, qualityReader } from "./sources.js";

export { createTestClock, type InProcessFetch, type KeyedTier, type TestClock, type TestService } from "@temporal/agent-sdk/testing";

export interface ServerTestServiceOptions extends Omit<TestServiceOptions, "quality" | "carbon"> {
  readonly quality?: TestServiceOptions["quality"] | QualitySource;
  readonly carbon?: TestServiceOptions["carbon"] | CarbonSource;
}

/** `@temporal/agent-sdk/testing`'s `createTestService`, with file sources too. */
export function createTestService(options: ServerTestServiceOptions = {}): TestService {
  const { quality, carbon } = options;
  return createSdkTestService({
    ...options,
    // A file's reading is dated by the file (or its contents), so the start time given here is unused.
    ...(isQualityFile(quality) ? { quality: qualityReader(quality, 0) } : { quality }),
    ...(isCarbonFile(carbon) ? { carbon: carbonReader(carbon) } : { carbon }),
  });
}

function isQualityFile(source: ServerTestServiceOptions["quality"]): source is Extract<QualitySource, { file: string }> {
  return typeof source === "object" && source !== null && "file" in source;
}

function isCarbonFile(source: ServerTestServiceOptions["carbon"]): source is Extract<CarbonSource, { forecast_file: string }> {
  return typeof source === "object" && source !== null && "forecast_file" in source;
}
