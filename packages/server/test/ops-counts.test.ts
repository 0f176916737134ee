import type { IncomingMessage } from "node:http";
import fc from "fast-check";
import { Histogram, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { ServiceMetrics } from "../src/metrics.js";
import { requestIdOf } from "../src/request-log.js";

const DURATION = "temporal_http_request_duration_seconds";

/** The sample lines of the request-duration histogram in a Prometheus text exposition, sorted. */
async function durationLines(registry: Registry): Promise<string[]> {
  return (await registry.metrics())
    .split("\n")
    .filter((line) => line.startsWith(`${DURATION}_`))
    .sort();
}

describe("the request-duration histogram", () => {
  it("renders exactly what prom-client's own histogram renders for the same durations, per route", async () => {
    const duration = fc.oneof(fc.double({ min: 0, max: 20_000, noNaN: true }), fc.constantFrom(0, 0.5, 1, 2.5, 5, 10_000, 10_000.000001));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.record({ route: fc.constantFrom("/core/state", "/allow"), ms: duration }), { maxLength: 40 }), async (requests) => {
        const metrics = new ServiceMetrics();
        const reference = new Registry();
        const histogram = new Histogram({
          name: DURATION,
          help: "prom-client's own",
          labelNames: ["route"],
          buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
          registers: [reference],
        });
        for (const { route, ms } of requests) {
          metrics.observeRequest("GET", { route, status: 200, durationMs: ms, tier: "public", keyId: undefined, rateLimited: undefined, errorCode: undefined });
          histogram.observe({ route }, ms / 1000);
        }
        expect(await durationLines(metrics.registry)).toEqual(await durationLines(reference));
      }),
      { numRuns: 100 },
    );
  });
});

describe("generated request ids", () => {
  it("are distinct version 8 UUIDs; a valid X-Request-Id is kept as it is", () => {
    const generated = Array.from({ length: 1000 }, () => requestIdOf({ headers: { "x-request-id": "has space" } } as unknown as IncomingMessage));
    for (const id of generated) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(generated).size).toBe(generated.length);
    expect(requestIdOf({ headers: { "x-request-id": "trace-42.a:b" } } as unknown as IncomingMessage)).toBe("trace-42.a:b");
  });
});
