import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { allow, allowResult, contextAt, coreState, nextOpen, tpeVector, tpeVectorResult, type PhaseContext, type Window } from "../src/core/index.js";
import { expectError } from "./helpers.js";

const NOON_Z3 = contextAt(Date.UTC(2024, 4, 1, 12, 0, 0, 7), { zone: 3 });

const instant = fc.integer({ min: -1e15, max: 1e15 });
const zone = fc.integer({ min: 0, max: 11 });
const degrees = fc.oneof(
  fc.integer({ min: 0, max: 360_000 }).map((k) => k / 1000),
  fc.constantFrom(0, 360, 90),
);

describe("coreState", () => {
  it("is the instant and its UTC phase, whatever the zone", () => {
    expect(coreState(NOON_Z3)).toStrictEqual({
      kernel_version: "4.6.2",
      unix_ms: NOON_Z3.unix_ms,
      day_index: 19_844,
      phi_ticks: 12 * 3_600_000 + 7,
      phase_deg: (12 * 3_600_000 + 7) / 240_000,
    });
  });

  it("rejects an inconsistent context", () => {
    expectError(() => coreState({ ...NOON_Z3, phi_ticks: 5 }), "INVALID_CONTEXT", "phi_ticks");
    expectError(() => coreState(null as unknown as PhaseContext), "INVALID_CONTEXT", "null");
    expectError(() => coreState({ ...NOON_Z3, source: "gps" } as unknown as PhaseContext), "INVALID_CONTEXT", "ctx.source", '"gps"');
  });
});

describe("allowResult", () => {
  it("reports allow, the zone-local phase and the next opening, with a clean context", () => {
    // 12:00 UTC in Z3 is local phase 270
    const result = allowResult({ ...NOON_Z3, extra: "dropped" } as PhaseContext, [280, 300]);
    expect(result).toStrictEqual({
      allow: false,
      verdict: "DENY",
      phase_deg: (270 * 240_000 + 7) / 240_000,
      next_open_unix_ms: NOON_Z3.unix_ms - 7 + 40 * 60_000,
      ctx: NOON_Z3,
    });
    expect(allowResult(NOON_Z3, [260, 280])).toMatchObject({ allow: true, verdict: "ALLOW", next_open_unix_ms: NOON_Z3.unix_ms });
  });

  it("agrees with allow and nextOpen everywhere", () => {
    fc.assert(
      fc.property(instant, zone, degrees, degrees, fc.constantFrom("local" as const, "remote" as const), (ms, z, a, b, source) => {
        const ctx = contextAt(ms, { zone: z, source });
        const window: Window = [a, b];
        const result = allowResult(ctx, window);
        expect(result.allow).toBe(allow(ctx, window));
        expect(result.verdict).toBe(result.allow ? "ALLOW" : "DENY");
        expect(result.phase_deg).toBe(ctx.phase_deg);
        expect(result.next_open_unix_ms).toBe(nextOpen(ctx, window));
        expect(result.ctx).toStrictEqual(ctx);
      }),
      { numRuns: 500 },
    );
  });

  it("validates the window", () => {
    expectError(() => allowResult(NOON_Z3, [0, 400]), "INVALID_WINDOW", "400");
    expectError(() => allowResult(NOON_Z3, [0] as unknown as Window), "INVALID_WINDOW");
  });
});

describe("tpeVectorResult", () => {
  it("is tpeVector with its layout", () => {
    const result = tpeVectorResult(NOON_Z3, { harmonics: 2 });
    expect(result).toStrictEqual({
      vector: tpeVector(NOON_Z3, { harmonics: 2 }),
      harmonics: 2,
      layout: { cycles: ["daily", "weekly", "yearly"], per_cycle: 4, order: "sin_cos_by_harmonic" },
      ctx: NOON_Z3,
    });
    const byDefault = tpeVectorResult(NOON_Z3);
    expect(byDefault.harmonics).toBe(8);
    expect(byDefault.vector).toHaveLength(3 * byDefault.layout.per_cycle);
    // index layout: daily sin(theta), cos(theta) first; noon is theta = pi
    expect(byDefault.vector[1]).toBeCloseTo(-1, 6);
  });

  it("validates harmonics and options with typed errors", () => {
    expectError(() => tpeVectorResult(NOON_Z3, { harmonics: 0 }), "INVALID_HARMONICS", "0");
    expectError(() => tpeVectorResult(NOON_Z3, { harmonics: 65 }), "INVALID_HARMONICS", "65");
    expectError(() => tpeVectorResult(NOON_Z3, null as unknown as { harmonics: number }), "INVALID_HARMONICS", "null");
    expectError(() => tpeVectorResult({ ...NOON_Z3, swt_zone: 12 }), "INVALID_CONTEXT", "swt_zone");
  });
});
