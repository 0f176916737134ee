import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PhaseWindowError, TemporalError, allow, contextAt, enforce, nextOpen, scheduleTasks, type Window } from "../src/core/index.js";
import { defineMission, type MissionSpec } from "../src/mission/index.js";

const MAX = 8.64e15;
const DAY = 86_400_000;

/** Instants in the first and last two days of the Date range, where an opening can fall outside it. */
const nearAnEdge = fc.oneof(fc.integer({ min: MAX - 2 * DAY, max: MAX }), fc.integer({ min: -MAX, max: -MAX + 2 * DAY }));
const degrees = fc.oneof(fc.integer({ min: 0, max: 360 }), fc.double({ min: 0, max: 360, noNaN: true }));
const window = fc.tuple(degrees, degrees) as fc.Arbitrary<Window>;
const zone = fc.integer({ min: 0, max: 11 });

/** What `fn` threw, or `undefined`. */
function thrownBy(fn: () => unknown): unknown {
  try {
    fn();
    return undefined;
  } catch (error) {
    return error;
  }
}

describe("phase windows at the edges of the Date range", () => {
  it("nextOpen returns an instant within the range at which the window is open, or throws BEYOND_DATE_RANGE", () => {
    fc.assert(
      fc.property(nearAnEdge, window, zone, (ms, w, z) => {
        const ctx = contextAt(ms, { zone: z });
        const error = thrownBy(() => nextOpen(ctx, w));
        if (error === undefined) {
          const next = nextOpen(ctx, w);
          expect(next).toBeGreaterThanOrEqual(ms);
          expect(next).toBeLessThanOrEqual(MAX);
          expect(allow(contextAt(next, { zone: z }), w)).toBe(true);
        } else {
          expect(error).toBeInstanceOf(TemporalError);
          expect((error as TemporalError).code).toBe("BEYOND_DATE_RANGE");
          expect(ms).toBeGreaterThan(MAX - DAY);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it("enforce passes, or throws a PhaseWindowError or BEYOND_DATE_RANGE, never a plain RangeError", () => {
    fc.assert(
      fc.property(nearAnEdge, window, zone, (ms, w, z) => {
        const ctx = contextAt(ms, { zone: z });
        const error = thrownBy(() => enforce(ctx, w));
        if (allow(ctx, w)) {
          expect(error).toBeUndefined();
          return;
        }
        expect(error).toBeInstanceOf(TemporalError);
        if (error instanceof PhaseWindowError) expect(error.next_open_unix_ms).toBeLessThanOrEqual(MAX);
        else expect((error as TemporalError).code).toBe("BEYOND_DATE_RANGE");
      }),
      { numRuns: 3000 },
    );
  });

  it("says why in the last hour of the range", () => {
    const ctx = contextAt(MAX - 3_600_000); // 23:00 UTC, phase 345
    const error = thrownBy(() => enforce(ctx, [10, 90]));
    expect(error).toMatchObject({ code: "BEYOND_DATE_RANGE" });
    expect((error as Error).message).toBe(
      "window [10, 90] is closed at phase 345 deg (+275760-09-12T23:00:00.000Z) and does not open again before the Date range ends at +275760-09-13T00:00:00.000Z",
    );
    expect(nextOpen(ctx, [345, 350])).toBe(MAX - 3_600_000);
  });

  it("a mission denied in the range's last day has no next opening rather than an error", async () => {
    const spec: MissionSpec = {
      name: "late",
      kernel_version: "4.6.2",
      zone: 0,
      requires: { phase: [[10, 90]], carbon: null, hs_bloch: null },
      check: (ctx) => (allow(ctx, [10, 90]) ? [] : ["PHASE_OUTSIDE_WINDOW"]),
      on: { ALLOW: [], DENY: [] },
    };
    const decision = await defineMission(spec).evaluate({ clock: () => MAX - 3_600_000 });
    expect(decision).toMatchObject({ verdict: "DENY", reasons: ["PHASE_OUTSIDE_WINDOW"] });
    expect(decision.next_open_unix_ms).toBeUndefined();
  });

  it("scheduleTasks never places a run past the end of the range", () => {
    const at = fc.integer({ min: MAX - 192 * 3_600_000 - DAY, max: MAX - 192 * 3_600_000 });
    fc.assert(
      fc.property(at, window, fc.integer({ min: 1, max: DAY }), fc.integer({ min: 1, max: 168 }), (from, w, duration, hours) => {
        const [task] = scheduleTasks({ tasks: [{ name: "t", duration_ms: duration, window: w }], horizon_hours: hours }, { at_unix_ms: from }).tasks;
        if (task!.status === "SCHEDULED") expect(task!.end_unix_ms!).toBeLessThanOrEqual(MAX);
      }),
      { numRuns: 500 },
    );
  });
});
