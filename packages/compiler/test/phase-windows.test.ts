import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { intersectTicks, TICKS_PER_DEGREE, windowTicks, type TickInterval } from "../src/phase-windows.js";

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
