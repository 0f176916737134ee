import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { contextAt, diff, type TimeStamp } from "../src/core/index.js";

const D = 86_400_000;
const stamp = fc.record({ day_index: fc.integer({ min: -30_000_000, max: 30_000_000 }), phi_ticks: fc.integer({ min: 0, max: D - 1 }) });

/** Parses the SDK's ISO 8601 durations back to milliseconds. */
function isoToMs(iso: string): number {
  const match = /^(-)?P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d{1,3})?)S)?)?$/.exec(iso);
  if (match === null) throw new Error(`not an ISO 8601 duration: ${iso}`);
  const [, sign, d = "0", h = "0", m = "0", s = "0"] = match;
  const ms = Number(d) * D + Number(h) * 3_600_000 + Number(m) * 60_000 + Math.round(Number(s) * 1000);
  return sign ? -ms : ms;
}

describe("diff", () => {
  it("formats the documented example", () => {
    const start = { day_index: 0, phi_ticks: 0 };
    const end = { day_index: 1, phi_ticks: 2 * 3_600_000 + 3 * 60_000 + 4_005 };
    expect(diff(start, end)).toEqual({ ticks: 93_784_005, ms: 93_784_005, seconds: 93_784.005, iso8601: "P1DT2H3M4.005S" });
    expect(diff(end, start).iso8601).toBe("-P1DT2H3M4.005S");
  });

  it.each([
    [0, "PT0S"],
    [1, "PT0.001S"],
    [500, "PT0.5S"],
    [1_000, "PT1S"],
    [60_000, "PT1M"],
    [3_600_000, "PT1H"],
    [D, "P1D"],
    [D + 10, "P1DT0.01S"],
    [-1_250, "-PT1.25S"],
  ])("renders %i ms as %s", (ms, iso) => {
    const start = { day_index: 10, phi_ticks: 0 };
    const endMs = 10 * D + ms;
    const end = { day_index: Math.floor(endMs / D), phi_ticks: endMs - Math.floor(endMs / D) * D };
    expect(diff(start, end).iso8601).toBe(iso);
  });

  it("works with stamps taken from contexts", () => {
    const a = contextAt(Date.UTC(2025, 0, 1, 23, 59, 59, 999));
    const b = contextAt(Date.UTC(2025, 0, 2, 0, 0, 0, 1));
    expect(diff(a, b)).toMatchObject({ ticks: 2, iso8601: "PT0.002S" });
  });

  it("is antisymmetric: diff(a, b) = -diff(b, a)", () => {
    fc.assert(
      fc.property(stamp, stamp, (a, b) => {
        const forward = diff(a, b);
        const backward = diff(b, a);
        expect(forward.ticks + backward.ticks).toBe(0);
        expect(forward.seconds + backward.seconds).toBe(0);
        expect(isoToMs(forward.iso8601)).toBe(-isoToMs(backward.iso8601));
      }),
      { numRuns: 500 },
    );
  });

  it("adds up over three stamps, and the ISO form encodes the same duration", () => {
    fc.assert(
      fc.property(stamp, stamp, stamp, (a, b, c) => {
        expect(diff(a, b).ticks + diff(b, c).ticks).toBe(diff(a, c).ticks);
        const d = diff(a, c);
        expect(isoToMs(d.iso8601)).toBe(d.ticks);
        expect(d.ms).toBe(d.ticks);
      }),
      { numRuns: 500 },
    );
  });

  it.each([
    [{ day_index: 1.5, phi_ticks: 0 }, "start.day_index", "1.5"],
    [{ day_index: 0, phi_ticks: D }, "start.phi_ticks", "86400000"],
    [{ day_index: 0, phi_ticks: -1 }, "start.phi_ticks", "-1"],
    [{ day_index: "1", phi_ticks: 0 }, "start.day_index", '"1"'],
    [{ day_index: 100_000_001, phi_ticks: 0 }, "start.day_index", "100000001"],
    [null, "start", "null"],
  ])("rejects the invalid stamp %j with a RangeError naming it", (bad, field, named) => {
    const call = () => diff(bad as unknown as TimeStamp, { day_index: 0, phi_ticks: 0 });
    expect(call).toThrow(RangeError);
    expect(call).toThrow(expect.objectContaining({ code: "INVALID_STAMP" }));
    expect(call).toThrow(new RegExp(`^${field.replace(".", "\\.")} .*got ${named.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`));
  });

  it("rejects durations beyond the safe integer range", () => {
    const call = () => diff({ day_index: -100_000_000, phi_ticks: 0 }, { day_index: 100_000_000, phi_ticks: 0 });
    expect(call).toThrow(expect.objectContaining({ code: "DURATION_OUT_OF_RANGE" }));
  });
});
