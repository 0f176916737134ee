import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FULL_CYCLE, intersectTicks, satisfiablePrefix, TICKS_PER_DEGREE, windowTicks, type TickInterval } from "../src/phase-windows.js";

/**
 * Brute-force model: a phase in [0, 360) sampled every 0.001 degree (k is the
 * sample index); a bound of 360 is the point 0, but [0, 360] is everything.
 */
const SAMPLES = 360_000;
const TICKS_PER_SAMPLE = TICKS_PER_DEGREE / 1000;

function modelContains(startMilli: number, endMilli: number, k: number): boolean {
  if (startMilli === 0 && endMilli === SAMPLES) return true;
  const from = startMilli % SAMPLES;
  const to = endMilli % SAMPLES;
  return from <= to ? k >= from && k <= to : k >= from || k <= to;
}

function ticksContain(intervals: readonly TickInterval[], tick: number): boolean {
  return intervals.some(([low, high]) => tick >= low && tick <= high);
}

const bound = fc.oneof(fc.integer({ min: 0, max: 360_000 }), fc.constantFrom(0, 1, 180_000, 359_999, 360_000));

describe("phase window math", () => {
  it("windowTicks holds exactly the model's phases", () => {
    fc.assert(
      fc.property(bound, bound, (a, b) => {
        const ticks = windowTicks(a / 1000, b / 1000);
        for (let k = 0; k < SAMPLES; k++) {
          if (ticksContain(ticks, k * TICKS_PER_SAMPLE) !== modelContains(a, b, k)) return false;
        }
        return true;
      }),
      { numRuns: 60 },
    );
  });

  it("intersection is empty exactly when no sampled phase is in every window", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(bound, bound), { minLength: 2, maxLength: 4 }), (windows) => {
        const intersection = windows.map(([a, b]) => windowTicks(a / 1000, b / 1000)).reduce((acc, w) => intersectTicks(acc, w));
        let modelNonEmpty = false;
        for (let k = 0; k < SAMPLES && !modelNonEmpty; k++) {
          modelNonEmpty = windows.every(([a, b]) => modelContains(a, b, k));
        }
        return intersection.length > 0 === modelNonEmpty;
      }),
      { numRuns: 150 },
    );
  });

  it("treats 360 as the point 0 except in [0, 360]", () => {
    expect(windowTicks(300, 360)).toEqual([
      [0, 0],
      [72_000_000, 86_399_999],
    ]);
    expect(windowTicks(0, 360)).toEqual([[0, 86_399_999]]);
    expect(windowTicks(360, 30)).toEqual([[0, 7_200_000]]);
  });

  it("keeps boundaries given to 0.001 degree exact", () => {
    expect(windowTicks(300.001, 30.002)).toEqual([
      [0, 7_200_480],
      [72_000_240, 86_399_999],
    ]);
  });
});

/** The quadratic reference the sweep replaced: intersect window after window until nothing is open. */
function referencePrefix(windows: readonly (readonly TickInterval[])[]): number {
  let open: TickInterval[] = FULL_CYCLE;
  for (const [index, window] of windows.entries()) {
    open = intersectTicks(open, window);
    if (open.length === 0) return index;
  }
  return windows.length;
}

describe("satisfiablePrefix", () => {
  // Coarse bounds (whole degrees, a few values) so random sets often touch, share an end or close the cycle.
  const coarseWindow = fc.tuple(fc.integer({ min: 0, max: 36 }), fc.integer({ min: 0, max: 36 })).map(([a, b]) => windowTicks(a * 10, b * 10));
  const fineWindow = fc.tuple(bound, bound).map(([a, b]) => windowTicks(a / 1000, b / 1000));

  it("equals intersecting the windows one by one, on random window sets", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(coarseWindow, fineWindow), { maxLength: 30 }), (windows) => {
        expect(satisfiablePrefix(windows)).toBe(referencePrefix(windows));
      }),
      { numRuns: 2000 },
    );
  });

  it("finds the window that closes the last gap, with windows touching at one tick", () => {
    expect(satisfiablePrefix([])).toBe(0);
    expect(satisfiablePrefix([[[0, 10]], [[10, 20]], [[11, 20]]])).toBe(2);
    expect(satisfiablePrefix([windowTicks(300, 30), windowTicks(20, 310), windowTicks(100, 200)])).toBe(2);
  });

  it("stays fast where the one-by-one intersection is quadratic: 20,000 windows each missing its own small gap", () => {
    // Every window is the cycle minus a gap of its own, so the open set has one piece per window so far.
    const windows = Array.from({ length: 20_000 }, (_, k) => windowTicks((k + 1) * 0.017, k * 0.017 + 0.008));
    const started = performance.now();
    expect(satisfiablePrefix(windows)).toBe(windows.length);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
