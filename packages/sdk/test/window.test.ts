import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PhaseWindowError, TemporalError, allow, contextAt, enforce, nextOpen, type PhaseContext, type Window } from "../src/core/index.js";

const D = 86_400_000;
const TICKS_PER_DEGREE = 240_000;

/** A context whose zone-local phase is `localTick`, on an arbitrary day and zone. */
function ctxAtLocalTick(localTick: number, zone = 0, day = 20_000): PhaseContext {
  const phi = (((localTick - zone * 7_200_000) % D) + D) % D;
  return contextAt(day * D + phi, { zone });
}

/** The model: walk forward from the start bound, one tick at a time, to the end bound. */
function walkModel(tick: number, startUnits: number, endUnits: number, unitsPerCycle: number): boolean {
  if (startUnits === 0 && endUnits === unitsPerCycle) return true;
  for (let p = startUnits % unitsPerCycle; ; p = (p + 1) % unitsPerCycle) {
    if (p === tick) return true;
    if (p === endUnits % unitsPerCycle) return false;
  }
}

/** The same walk in closed form, at tick resolution: is the tick within the forward distance from start to end? */
function arcModel(tick: number, [a, b]: Window): boolean {
  const start = Math.round(a * TICKS_PER_DEGREE);
  const end = Math.round(b * TICKS_PER_DEGREE);
  if (start === 0 && end === D) return true;
  return (tick - (start % D) + D) % D <= ((end % D) - (start % D) + D) % D;
}

const degrees = fc.oneof(
  fc.integer({ min: 0, max: 360_000 }).map((k) => k / 1000),
  fc.double({ min: 0, max: 360, noNaN: true }),
  fc.constantFrom(0, 360, 90, 180, 270),
);

/** A window and a tick that is often exactly on, or one tick either side of, a bound. */
const windowAndTick = fc.tuple(degrees, degrees).chain(([a, b]) => {
  const near = (deg: number) => fc.integer({ min: -2, max: 2 }).map((d) => (((Math.round(deg * TICKS_PER_DEGREE) + d) % D) + D) % D);
  return fc.tuple(fc.constant<Window>([a, b]), fc.oneof(fc.integer({ min: 0, max: D - 1 }), near(a), near(b)), fc.integer({ min: 0, max: 11 }));
});

describe("allow", () => {
  it("agrees with a literal forward walk for every window and phase on a 15-degree grid", () => {
    const units = 24;
    for (let a = 0; a <= units; a++) {
      for (let b = 0; b <= units; b++) {
        for (let t = 0; t < units; t++) {
          const expected = walkModel(t, a, b, units);
          expect(allow(ctxAtLocalTick(t * 15 * TICKS_PER_DEGREE), [a * 15, b * 15])).toBe(expected);
        }
      }
    }
  });

  it("agrees with the forward-walk model for any window, tick and zone, at and around both bounds", () => {
    fc.assert(
      fc.property(windowAndTick, ([window, tick, zone]) => {
        expect(allow(ctxAtLocalTick(tick, zone), window)).toBe(arcModel(tick, window));
      }),
      { numRuns: 3000 },
    );
  });

  it("is exact at bounds given to 0.001 degree", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 359_999 }), fc.integer({ min: 1, max: 1000 }), (k, width) => {
        const a = k / 1000;
        const b = Math.min(k + width, 360_000) / 1000;
        const start = k * 240;
        const end = Math.min(k + width, 360_000) * 240;
        expect(allow(ctxAtLocalTick(start), [a, a])).toBe(true);
        expect(allow(ctxAtLocalTick(start + 1), [a, a])).toBe(false);
        expect(allow(ctxAtLocalTick(start - 1), [a, a])).toBe(false);
        expect(allow(ctxAtLocalTick(start), [a, b])).toBe(true);
        expect(allow(ctxAtLocalTick(start - 1), [a, b])).toBe(false);
        expect(allow(ctxAtLocalTick(end), [a, b])).toBe(true);
        expect(allow(ctxAtLocalTick(end + 1), [a, b])).toBe(end === D && start === 0);
      }),
      { numRuns: 1000 },
    );
  });

  it("handles the full cycle, 360 as 0, single points and wrap-around", () => {
    const at = (deg: number) => ctxAtLocalTick(Math.round(deg * TICKS_PER_DEGREE));
    for (const deg of [0, 0.001, 90, 359.999]) expect(allow(at(deg), [0, 360])).toBe(true);
    expect(allow(at(0), [360, 360])).toBe(true);
    expect(allow(at(0.001), [360, 360])).toBe(false);
    expect(allow(at(0), [350, 360])).toBe(true);
    expect(allow(at(349.999), [350, 360])).toBe(false);
    expect(allow(at(10), [10, 10])).toBe(true);
    expect(allow(at(5), [300, 40])).toBe(true);
    expect(allow(at(300), [300, 40])).toBe(true);
    expect(allow(at(40), [300, 40])).toBe(true);
    expect(allow(at(40.001), [300, 40])).toBe(false);
    expect(allow(at(200), [300, 40])).toBe(false);
    expect(allow(at(0), [360, 0])).toBe(true);
    expect(allow(at(180), [360, 0])).toBe(false);
  });

  it("uses the zone-local phase", () => {
    const ctx = contextAt(Date.UTC(2025, 0, 1, 12), { zone: "Z2" }); // UTC 180 deg, local 240 deg
    expect(allow(ctx, [200, 280])).toBe(true);
    expect(allow(contextAt(ctx.unix_ms), [200, 280])).toBe(false);
  });

  it.each([
    [[10], "[10]"],
    [[1, 2, 3], "[1,2,3]"],
    [[Number.NaN, 10], "NaN"],
    [[-0.1, 10], "-0.1"],
    [[10, 360.0001], "360.0001"],
    [[10, Infinity], "Infinity"],
    [["10", 20], '"10"'],
    ["0,360", '"0,360"'],
    [null, "null"],
  ])("rejects the window %j with a RangeError naming the value", (window, named) => {
    const call = () => allow(contextAt(0), window as unknown as Window);
    expect(call).toThrow(RangeError);
    expect(call).toThrow(expect.objectContaining({ code: "INVALID_WINDOW" }));
    expect(call).toThrow(`got ${named}`);
  });

  it.each([
    [null, "null"],
    [42, "42"],
    [{}, "undefined"],
    [{ ...contextAt(0), phi_ticks: -1 }, "-1"],
    [{ ...contextAt(0), phi_ticks: 1.5 }, "1.5"],
    [{ ...contextAt(0), phi_ticks: "5" }, '"5"'],
    [{ ...contextAt(0), swt_zone: 12 }, "12"],
  ])("rejects the context %j with a TypeError naming the value", (ctx, named) => {
    const call = () => allow(ctx as unknown as PhaseContext, [0, 360]);
    expect(call).toThrow(TypeError);
    expect(call).toThrow(expect.objectContaining({ code: "INVALID_CONTEXT" }));
    expect(call).toThrow(`got ${named}`);
  });
});

describe("enforce", () => {
  it("returns quietly inside the window", () => {
    expect(enforce(ctxAtLocalTick(0), [350, 10])).toBeUndefined();
  });

  it("throws PhaseWindowError with the phase, window and next opening outside it", () => {
    const ctx = ctxAtLocalTick(100 * TICKS_PER_DEGREE, 1);
    const error = (() => {
      try {
        enforce(ctx, [200, 280]);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(PhaseWindowError);
    expect(error).toBeInstanceOf(TemporalError);
    expect(error).toMatchObject({
      code: "PHASE_OUTSIDE_WINDOW",
      phase_deg: 100,
      window: [200, 280],
      next_open_unix_ms: ctx.unix_ms + 100 * TICKS_PER_DEGREE,
    });
    expect((error as Error).message).toContain("phase 100 deg is outside window [200, 280]");
  });
});

describe("nextOpen", () => {
  it("is the least tick at or after now at which allow holds", () => {
    fc.assert(
      fc.property(
        windowAndTick,
        fc.integer({ min: 0, max: 4e12 }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), { maxLength: 20 }),
        ([window, , zone], unixMs, samples) => {
          const ctx = contextAt(unixMs, { zone });
          const open = nextOpen(ctx, window);
          expect(open).toBeGreaterThanOrEqual(unixMs);
          expect(open - unixMs).toBeLessThan(D);
          expect(allow(contextAt(open, { zone }), window)).toBe(true);
          if (open > unixMs) {
            expect(allow(ctx, window)).toBe(false);
            expect(allow(contextAt(open - 1, { zone }), window)).toBe(false);
            for (const s of samples) expect(allow(contextAt(unixMs + Math.floor(s * (open - unixMs)), { zone }), window)).toBe(false);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("crosses midnight and day boundaries", () => {
    const ctx = contextAt(Date.UTC(2025, 0, 1, 23)); // 345 deg
    expect(nextOpen(ctx, [0, 10])).toBe(Date.UTC(2025, 0, 2));
    expect(nextOpen(ctx, [340, 350])).toBe(ctx.unix_ms);
  });

  it("rejects a context whose unix_ms and phi_ticks disagree", () => {
    const ctx = { ...contextAt(1000), unix_ms: 2000 };
    expect(() => nextOpen(ctx, [0, 10])).toThrow(TypeError);
    expect(() => nextOpen(ctx, [0, 10])).toThrow(/does not match/);
  });
});
