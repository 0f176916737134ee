import { describe, expect, it } from "vitest";
import { createMemoryAuthority } from "../src/index.js";
import { DEFAULT_CONFIG, createPipeline, type ServiceConfig } from "../src/service/index.js";

const base = { clock: () => 0, version: "0.0.0", onUnexpectedError: () => {} };

describe("createPipeline's sources", () => {
  it("refuses a file or simulator source it is given no reader for: only the platform reads files and runs simulators", () => {
    const authority = createMemoryAuthority();
    for (const config of [
      { ...DEFAULT_CONFIG, quality: { file: "quality.json" } },
      { ...DEFAULT_CONFIG, quality: { simulator: "statevector" } },
      { ...DEFAULT_CONFIG, carbon: { forecast_file: "forecast.json" } },
    ] as ServiceConfig[]) {
      expect(() => createPipeline({ ...base, config, authority })).toThrow(
        expect.objectContaining({
          name: "TemporalTypeError",
          code: "INVALID_ARGUMENT",
          message: expect.stringMatching(/is not a static value: give the pipeline a (quality|carbon) reader/),
        }),
      );
    }
  });

  it("takes a file source with its reader, and a static source without one", () => {
    const authority = createMemoryAuthority();
    const reader = () => Promise.reject(new Error("unused"));
    expect(() => createPipeline({ ...base, config: { ...DEFAULT_CONFIG, quality: { file: "q.json" } }, authority, quality: reader })).not.toThrow();
    expect(() => createPipeline({ ...base, config: { ...DEFAULT_CONFIG, quality: { score: 0.5 }, carbon: { intensity: 10 } }, authority })).not.toThrow();
  });
});
