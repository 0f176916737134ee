import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TPE_CYCLES, contextAt, tpeVector } from "../src/core/index.js";

describe("tpeVector", () => {
  it("has 6 * harmonics entries in the documented layout", () => {
    expect(TPE_CYCLES).toEqual(["daily", "weekly", "yearly"]);
    expect(tpeVector(contextAt(0))).toHaveLength(48);
    expect(tpeVector(contextAt(0), { harmonics: 1 })).toHaveLength(6);
    expect(tpeVector(contextAt(0), { harmonics: 64 })).toHaveLength(384);
  });

  it("encodes Monday 2025-01-06 06:00 UTC by its daily, weekly and yearly angles", () => {
    const at = Date.UTC(2025, 0, 6, 6);
    const v = tpeVector(contextAt(at), { harmonics: 2 });
    const day = (2 * Math.PI * 6) / 24;
    const week = (2 * Math.PI * 0.25) / 7;
    const year = (2 * Math.PI * (5.25 * 86_400_000)) / (365 * 86_400_000);
    const expected = [day, week, year].flatMap((theta) => [Math.sin(theta), Math.cos(theta), Math.sin(2 * theta), Math.cos(2 * theta)]);
    v.forEach((x, i) => expect(x).toBeCloseTo(expected[i] as number, 12));
  });

  it("starts every cycle at angle 0 at its origin (Monday 1 January 2024, 00:00 UTC)", () => {
    const v = tpeVector(contextAt(Date.UTC(2024, 0, 1)), { harmonics: 3 });
    expect(v).toEqual([0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1]);
  });

  it("is deterministic, bounded, and independent of the zone", () => {
    fc.assert(
      fc.property(fc.integer({ min: -8.64e15, max: 8.64e15 }), fc.integer({ min: 0, max: 11 }), fc.integer({ min: 1, max: 16 }), (ms, zone, harmonics) => {
        const v = tpeVector(contextAt(ms, { zone }), { harmonics });
        expect(v).toEqual(tpeVector(contextAt(ms), { harmonics }));
        for (let i = 0; i < v.length; i += 2) {
          expect(Number.isFinite(v[i])).toBe(true);
          expect((v[i] as number) ** 2 + (v[i + 1] as number) ** 2).toBeCloseTo(1, 12);
        }
      }),
      { numRuns: 300 },
    );
  });

  it.each([0, 65, 1.5, Number.NaN])("rejects harmonics %s", (harmonics) => {
    expect(() => tpeVector(contextAt(0), { harmonics })).toThrow(expect.objectContaining({ code: "INVALID_HARMONICS" }));
    expect(() => tpeVector(contextAt(0), { harmonics })).toThrow(RangeError);
  });

  it("rejects a malformed context", () => {
    expect(() => tpeVector({ ...contextAt(0), unix_ms: 5 })).toThrow(TypeError);
  });
});
