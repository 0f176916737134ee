import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { allow, constantCarbonSeries, scheduleTasks, type CarbonWindow, type PhaseContext, type ScheduleRequest, type ScheduleTask, type Window } from "../src/core/index.js";
import { expectError } from "./helpers.js";

const D = 86_400_000;
const HOUR = 3_600_000;
const MIN = 60_000;
const TICKS_PER_DEGREE = 240_000;
const DAY = 19_844; // 2024-05-01
const T0 = DAY * D; // 2024-05-01T00:00:00Z

/** `allow` reads only the phase and zone of a context, so tests can build one cheaply for any instant. */
function allowedAt(unixMs: number, zone: number, window: Window): boolean {
  const phi = ((unixMs % D) + D) % D;
  return allow({ phi_ticks: phi, swt_zone: zone } as PhaseContext, window);
}

function one(task: ScheduleTask, at: number, extra: Partial<ScheduleRequest> = {}, series?: readonly CarbonWindow[]) {
  const result = scheduleTasks({ tasks: [task], ...extra }, series === undefined ? { at_unix_ms: at } : { at_unix_ms: at, series });
  return result.tasks[0]!;
}

describe("scheduleTasks without a forecast", () => {
  it("starts now when the whole run fits, else at the next opening", () => {
    const task = { name: "job", duration_ms: HOUR, window: [200, 280] as Window }; // 13:20-18:40 UTC in Z0
    // 12:00: closed; next opening 13:20
    expect(one(task, T0 + 12 * HOUR)).toStrictEqual({
      name: "job",
      status: "SCHEDULED",
      start_unix_ms: T0 + 13 * HOUR + 20 * MIN,
      end_unix_ms: T0 + 14 * HOUR + 20 * MIN,
      start_phase_deg: 200,
    });
    // 15:00: open with room for an hour
    expect(one(task, T0 + 15 * HOUR).start_unix_ms).toBe(T0 + 15 * HOUR);
    // 17:40 exactly: the run ends on the inclusive end bound
    expect(one(task, T0 + 17 * HOUR + 40 * MIN).start_unix_ms).toBe(T0 + 17 * HOUR + 40 * MIN);
    // one tick later the run would leave the window: wait for tomorrow's opening
    expect(one(task, T0 + 17 * HOUR + 40 * MIN + 1).start_unix_ms).toBe(T0 + D + 13 * HOUR + 20 * MIN);
  });

  it("reads the window in the request's zone", () => {
    // Z2 is 60 degrees ahead: at 12:00 UTC the local phase is 240, inside [200, 280]
    const result = one({ name: "z", duration_ms: MIN, window: [200, 280] }, T0 + 12 * HOUR, { zone: "Z2" });
    expect(result).toMatchObject({ status: "SCHEDULED", start_unix_ms: T0 + 12 * HOUR, start_phase_deg: 240 });
  });

  it("handles wrapping windows, single points and the whole cycle", () => {
    // [350, 10]: 23:20-00:40 UTC; an 80-minute run fits exactly from 23:20
    expect(one({ name: "w", duration_ms: 80 * MIN, window: [350, 10] }, T0 + 12 * HOUR).start_unix_ms).toBe(T0 + 23 * HOUR + 20 * MIN);
    expect(one({ name: "w", duration_ms: 80 * MIN + 1, window: [350, 10] }, T0).reason).toBe("WINDOW_TOO_SHORT");
    // a single point admits only a run of... zero ticks, which is not a valid duration
    expect(one({ name: "p", duration_ms: 1, window: [90, 90] }, T0).reason).toBe("WINDOW_TOO_SHORT");
    expect(one({ name: "p", duration_ms: 1, window: [90, 90.001] }, T0).start_unix_ms).toBe(T0 + 6 * HOUR);
    // whole cycle: any start, even a full day long
    expect(one({ name: "all", duration_ms: D, window: [0, 360] }, T0 + 123)).toMatchObject({ status: "SCHEDULED", start_unix_ms: T0 + 123, end_unix_ms: T0 + D + 123 });
    // [360, 360] is the point 0, [0, 0] too: not the whole cycle
    expect(one({ name: "zero", duration_ms: 1, window: [360, 360] }, T0).reason).toBe("WINDOW_TOO_SHORT");
    // [10, 9.999]: all but 0.001 degree; a run may not go round and re-enter
    // (from 01:00 it must wait for the phase to come back to 10 degrees, 00:40 tomorrow)
    expect(one({ name: "almost", duration_ms: D - 240, window: [10, 9.999] }, T0 + HOUR).start_unix_ms).toBe(T0 + D + 40 * MIN);
    expect(one({ name: "almost", duration_ms: D - 239, window: [10, 9.999] }, T0 + HOUR).reason).toBe("WINDOW_TOO_SHORT");
    // bounds one tick apart the other way round ([start, start - 1 tick]) hold every tick: the whole cycle
    const oneTick = 1 / TICKS_PER_DEGREE;
    expect(one({ name: "every", duration_ms: D, window: [10 + oneTick, 10] }, T0 + 5)).toMatchObject({ status: "SCHEDULED", start_unix_ms: T0 + 5 });
    expect(one({ name: "every", duration_ms: 1, window: [oneTick / 2, 0] }, T0).start_unix_ms).toBe(T0);
  });

  it("gives up when no start fits within the horizon", () => {
    const task = { name: "late", duration_ms: HOUR, window: [200, 280] as Window };
    expect(one(task, T0 + 12 * HOUR, { horizon_hours: 1 })).toStrictEqual({ name: "late", status: "UNSCHEDULABLE", reason: "NO_START_IN_HORIZON" });
    // the horizon bounds the start, inclusively, not the end
    expect(one(task, T0 + 12 * HOUR, { horizon_hours: 80 / 60 }).start_unix_ms).toBe(T0 + 13 * HOUR + 20 * MIN);
    expect(one(task, T0 + 12 * HOUR, { horizon_hours: 80 / 60 - 1 / HOUR }).reason).toBe("NO_START_IN_HORIZON");
  });

  it("places each task independently and echoes the request's horizon", () => {
    const at = T0 + 12 * HOUR;
    const result = scheduleTasks(
      {
        tasks: [
          { name: "a", duration_ms: HOUR, window: [0, 360] },
          { name: "b", duration_ms: HOUR, window: [200, 280] },
          { name: "a", duration_ms: HOUR, window: [0, 360] },
        ],
        horizon_hours: 2.5,
      },
      { at_unix_ms: at },
    );
    expect(result).toStrictEqual({
      from_unix_ms: at,
      horizon_hours: 2.5,
      tasks: [
        { name: "a", status: "SCHEDULED", start_unix_ms: at, end_unix_ms: at + HOUR, start_phase_deg: 180 },
        { name: "b", status: "SCHEDULED", start_unix_ms: T0 + 13 * HOUR + 20 * MIN, end_unix_ms: T0 + 14 * HOUR + 20 * MIN, start_phase_deg: 200 },
        { name: "a", status: "SCHEDULED", start_unix_ms: at, end_unix_ms: at + HOUR, start_phase_deg: 180 },
      ],
    });
  });

  // --- the brute-force model: step through starts on a grid and test the run with `allow` ---

  /**
   * With window bounds, `at` and the duration on a grid of `step` ticks, a run
   * stays inside iff `allow` holds at every grid point of it and one tick after
   * each (where the phase would first leave through the end bound).
   */
  function gridModel(window: Window, zone: number, at: number, step: number, durationSteps: number, horizonSteps: number): { start?: number; reason?: string } {
    const span = Math.max(horizonSteps, D / step) + durationSteps + 1;
    const onGrid = Array.from({ length: span }, (_, k) => allowedAt(at + k * step, zone, window));
    const afterGrid = Array.from({ length: span }, (_, k) => allowedAt(at + k * step + 1, zone, window));
    const fits = (i: number): boolean => {
      for (let k = i; k <= i + durationSteps; k++) if (!onGrid[k]) return false;
      for (let k = i; k < i + durationSteps; k++) if (!afterGrid[k]) return false;
      return true;
    };
    for (let i = 0; i <= horizonSteps; i++) if (fits(i)) return { start: at + i * step };
    // nothing in the horizon: does anything fit within a whole day?
    for (let i = 0; i < D / step; i++) if (fits(i)) return { reason: "NO_START_IN_HORIZON" };
    return { reason: "WINDOW_TOO_SHORT" };
  }

  const gridCase = fc.constantFrom({ stepDeg: 15, maxHorizonSteps: 48 }, { stepDeg: 1, maxHorizonSteps: 120 }).chain(({ stepDeg, maxHorizonSteps }) => {
    const units = 360 / stepDeg;
    return fc.record({
      step: fc.constant(stepDeg * TICKS_PER_DEGREE),
      window: fc.tuple(fc.integer({ min: 0, max: units }), fc.integer({ min: 0, max: units })).map(([a, b]) => [a * stepDeg, b * stepDeg] as Window),
      zone: fc.integer({ min: 0, max: 11 }),
      atSteps: fc.integer({ min: 0, max: 3 * units }),
      durationSteps: fc.oneof(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: units })),
      horizonSteps: fc.integer({ min: 1, max: maxHorizonSteps }),
    });
  });

  it("finds the earliest start a grid walk checked with allow finds", () => {
    fc.assert(
      fc.property(gridCase, ({ step, window, zone, atSteps, durationSteps, horizonSteps }) => {
        const at = T0 + atSteps * step;
        const expected = gridModel(window, zone, at, step, durationSteps, horizonSteps);
        const result = one({ name: "t", duration_ms: durationSteps * step, window }, at, { zone, horizon_hours: (horizonSteps * step) / HOUR });
        if (expected.start === undefined) {
          expect(result).toStrictEqual({ name: "t", status: "UNSCHEDULABLE", reason: expected.reason });
        } else {
          expect(result).toMatchObject({ status: "SCHEDULED", start_unix_ms: expected.start, end_unix_ms: expected.start + durationSteps * step });
        }
      }),
      { numRuns: 600 },
    );
  });

  // --- any window, any instant: every scheduled run really stays in the window ---

  const degrees = fc.oneof(
    fc.integer({ min: 0, max: 360_000 }).map((k) => k / 1000),
    fc.double({ min: 0, max: 360, noNaN: true }),
    fc.constantFrom(0, 360, 90, 180),
  );
  const anyCase = fc.record({
    window: fc.tuple(degrees, degrees),
    zone: fc.integer({ min: 0, max: 11 }),
    at: fc.integer({ min: -1000 * D, max: 40_000 * D }),
    duration: fc.oneof(fc.integer({ min: 1, max: 5_000 }), fc.integer({ min: 1, max: D })),
    horizonHours: fc.oneof(fc.double({ min: 0.001, max: 168, noNaN: true }), fc.integer({ min: 1, max: 168 })),
  });

  it("keeps every scheduled run inside the window, tick by tick, and could not have started a tick earlier", () => {
    fc.assert(
      fc.property(anyCase, ({ window, zone, at, duration, horizonHours }) => {
        const result = one({ name: "t", duration_ms: duration, window }, at, { zone, horizon_hours: horizonHours });
        if (result.status !== "SCHEDULED") return;
        const start = result.start_unix_ms!;
        expect(result.end_unix_ms).toBe(start + duration);
        expect(start).toBeGreaterThanOrEqual(at);
        expect(start).toBeLessThanOrEqual(at + Math.round(horizonHours * HOUR));
        expect(result.start_phase_deg).toBe(((((start + zone * 7_200_000) % D) + D) % D) / TICKS_PER_DEGREE);
        if (duration <= 5_000) {
          let outside: number | undefined;
          for (let t = start; t <= start + duration && outside === undefined; t++) if (!allowedAt(t, zone, window)) outside = t;
          expect(outside).toBeUndefined();
        } else {
          // the phase can only leave through the window's edges: test allow wherever the run passes them
          const edges = [window[0], window[1]].flatMap((deg) => [-1, 0, 1].map((d) => Math.round(deg * TICKS_PER_DEGREE) + d));
          for (const edge of edges) {
            const first = start + ((((edge - zone * 7_200_000 - start) % D) + D) % D);
            for (let t = first; t <= start + duration; t += D) expect(allowedAt(t, zone, window), `tick ${t}`).toBe(true);
          }
          expect(allowedAt(start, zone, window) && allowedAt(start + duration, zone, window)).toBe(true);
        }
        // one tick earlier, the run would have begun outside the window
        if (start > at) expect(allowedAt(start - 1, zone, window)).toBe(false);
      }),
      { numRuns: 1500 },
    );
  });
});

describe("scheduleTasks with a forecast", () => {
  /** 300 until 14:00, 80 from 14:00 to 15:00, 500 after, then 40 from 20:00 (outside [200, 280] = 13:20-18:40). */
  const series: CarbonWindow[] = [
    { start_unix_ms: T0, end_unix_ms: T0 + 14 * HOUR, intensity: 300 },
    { start_unix_ms: T0 + 14 * HOUR, end_unix_ms: T0 + 15 * HOUR, intensity: 80 },
    { start_unix_ms: T0 + 15 * HOUR, end_unix_ms: T0 + 20 * HOUR, intensity: 500 },
    { start_unix_ms: T0 + 20 * HOUR, end_unix_ms: T0 + 30 * HOUR, intensity: 40 },
  ];
  const task = { name: "q", duration_ms: HOUR, window: [200, 280] as Window };

  it("considers the latest fitting start of an opening (the run ending on the window's end bound)", () => {
    // 300 until 18:00, then 10: the best hour in [200, 280] (13:20-18:40) is 17:40-18:40
    const late = [
      { start_unix_ms: T0, end_unix_ms: T0 + 18 * HOUR, intensity: 300 },
      { start_unix_ms: T0 + 18 * HOUR, end_unix_ms: T0 + 30 * HOUR, intensity: 10 },
    ];
    expect(one(task, T0 + 12 * HOUR, {}, late)).toMatchObject({ start_unix_ms: T0 + 17 * HOUR + 40 * MIN, carbon_intensity: (20 * 300 + 40 * 10) / 60 });
    // a 4-hour horizon stops the starts at 16:00, before the cheap hours: every fitting run averages 300, so the earliest wins
    expect(one(task, T0 + 12 * HOUR, { horizon_hours: 4 }, late)).toMatchObject({ start_unix_ms: T0 + 13 * HOUR + 20 * MIN, carbon_intensity: 300 });
  });

  it("picks the fitting start with the lowest average, reporting it", () => {
    expect(one(task, T0 + 12 * HOUR, {}, series)).toStrictEqual({
      name: "q",
      status: "SCHEDULED",
      start_unix_ms: T0 + 14 * HOUR,
      end_unix_ms: T0 + 15 * HOUR,
      start_phase_deg: 210,
      carbon_intensity: 80,
    });
    // a 90-minute run: best straddles the cheap hour, 13:30-15:00 -> (30 * 300 + 60 * 80) / 90
    expect(one({ ...task, duration_ms: 90 * MIN }, T0 + 12 * HOUR, {}, series)).toMatchObject({ start_unix_ms: T0 + 13.5 * HOUR, carbon_intensity: (30 * 300 + 60 * 80) / 90 });
  });

  it("enforces carbon_max as an inclusive ceiling", () => {
    expect(one({ ...task, carbon_max: 80 }, T0 + 12 * HOUR, {}, series).status).toBe("SCHEDULED");
    expect(one({ ...task, carbon_max: 79.9 }, T0 + 12 * HOUR, {}, series)).toStrictEqual({ name: "q", status: "UNSCHEDULABLE", reason: "CARBON_ABOVE_MAX" });
  });

  it("falls back to the earliest fitting start when the forecast covers no fitting run, but not under a ceiling", () => {
    const short = [{ start_unix_ms: T0, end_unix_ms: T0 + 13 * HOUR, intensity: 100 }];
    expect(one(task, T0 + 12 * HOUR, {}, short)).toStrictEqual({
      name: "q",
      status: "SCHEDULED",
      start_unix_ms: T0 + 13 * HOUR + 20 * MIN,
      end_unix_ms: T0 + 14 * HOUR + 20 * MIN,
      start_phase_deg: 200,
    });
    expect(one({ ...task, carbon_max: 1000 }, T0 + 12 * HOUR, {}, short).reason).toBe("CARBON_ABOVE_MAX");
    // and without any forecast a ceiling cannot be shown to hold
    expect(one({ ...task, carbon_max: 1000 }, T0 + 12 * HOUR).reason).toBe("CARBON_ABOVE_MAX");
  });

  it("with a constant series, starts as early as without one and reports the constant", () => {
    expect(one(task, T0 + 12 * HOUR, {}, constantCarbonSeries(250))).toMatchObject({ start_unix_ms: T0 + 13 * HOUR + 20 * MIN, carbon_intensity: 250 });
  });

  // --- brute force: every whole-minute start, its run checked with allow and averaged minute by minute ---

  interface Piece {
    readonly gap: number;
    readonly minutes: number;
    readonly value: number;
  }

  const forecastCase = fc.record({
    atMinutes: fc.integer({ min: 0, max: 3 * 1440 }),
    zone: fc.integer({ min: 0, max: 11 }),
    window: fc.tuple(fc.integer({ min: 0, max: 360 }), fc.integer({ min: 0, max: 360 })).map(([a, b]) => [a, b] as Window),
    durationMinutes: fc.oneof(fc.integer({ min: 1, max: 30 }), fc.integer({ min: 1, max: 240 })),
    horizonHours: fc.integer({ min: 1, max: 12 }),
    firstOffset: fc.integer({ min: -60, max: 120 }),
    pieces: fc.array(
      fc.record({
        gap: fc.oneof({ weight: 5, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 60 }) }),
        minutes: fc.integer({ min: 1, max: 120 }),
        value: fc.integer({ min: 0, max: 600 }),
      }),
      { minLength: 1, maxLength: 16 },
    ),
    carbonMax: fc.option(fc.integer({ min: 1, max: 600 }), { nil: undefined }),
  });

  it("agrees with a minute-by-minute search", () => {
    fc.assert(
      fc.property(forecastCase, ({ atMinutes, zone, window, durationMinutes, horizonHours, firstOffset, pieces, carbonMax }) => {
        const at = T0 + atMinutes * MIN;
        const points: CarbonWindow[] = [];
        let t = at + firstOffset * MIN;
        for (const p of pieces as Piece[]) {
          t += p.gap * MIN;
          points.push({ start_unix_ms: t, end_unix_ms: t + p.minutes * MIN, intensity: p.value });
          t += p.minutes * MIN;
        }
        const horizonMinutes = horizonHours * 60;
        const span = Math.max(horizonMinutes, 1440) + durationMinutes + 1;
        const onMinute = Array.from({ length: span }, (_, k) => allowedAt(at + k * MIN, zone, window));
        const afterMinute = Array.from({ length: span }, (_, k) => allowedAt(at + k * MIN + 1, zone, window));
        const perMinute = Array.from({ length: span }, (_, k) => points.find((p) => p.start_unix_ms <= at + k * MIN && at + k * MIN < p.end_unix_ms)?.intensity);
        const fits = (i: number): boolean => {
          for (let k = i; k <= i + durationMinutes; k++) if (!onMinute[k]) return false;
          for (let k = i; k < i + durationMinutes; k++) if (!afterMinute[k]) return false;
          return true;
        };
        let earliest: number | undefined;
        let best: { i: number; total: number } | undefined;
        for (let i = 0; i <= horizonMinutes; i++) {
          if (!fits(i)) continue;
          earliest ??= i;
          let total = 0;
          for (let k = i; k < i + durationMinutes && total >= 0; k++) total = perMinute[k] === undefined ? -1 : total + perMinute[k]!;
          if (total >= 0 && (best === undefined || total < best.total)) best = { i, total };
        }
        let anyFit = earliest !== undefined;
        for (let i = 0; !anyFit && i < 1440; i++) anyFit = fits(i);

        const task: ScheduleTask =
          carbonMax === undefined ? { name: "t", duration_ms: durationMinutes * MIN, window } : { name: "t", duration_ms: durationMinutes * MIN, window, carbon_max: carbonMax };
        const result = one(task, at, { zone, horizon_hours: horizonHours }, points);
        if (!anyFit) {
          expect(result.reason).toBe("WINDOW_TOO_SHORT");
          return;
        }
        if (earliest === undefined) {
          expect(result.reason).toBe("NO_START_IN_HORIZON");
          return;
        }
        if (best === undefined) {
          if (carbonMax !== undefined) {
            expect(result.reason).toBe("CARBON_ABOVE_MAX");
            return;
          }
          expect(result).toMatchObject({ status: "SCHEDULED", start_unix_ms: at + earliest * MIN });
          return;
        }
        const average = best.total / durationMinutes;
        if (carbonMax !== undefined && average > carbonMax) {
          expect(result.reason).toBe("CARBON_ABOVE_MAX");
          return;
        }
        expect(result).toMatchObject({ status: "SCHEDULED", start_unix_ms: at + best.i * MIN, carbon_intensity: average });
      }),
      { numRuns: 400 },
    );
  });
});

describe("scheduleTasks validation", () => {
  const ok: ScheduleTask = { name: "ok", duration_ms: 1000, window: [0, 90] };
  const run =
    (request: unknown, options: unknown = { at_unix_ms: T0 }) =>
    () =>
      scheduleTasks(request as ScheduleRequest, options as { at_unix_ms: number });

  it("names the bad field and value", () => {
    expectError(run(null), "INVALID_SCHEDULE_REQUEST", "request");
    expectError(run({ tasks: [] }), "INVALID_SCHEDULE_REQUEST", "tasks", "1..100");
    expectError(run({ tasks: Array.from({ length: 101 }, () => ok) }), "INVALID_SCHEDULE_REQUEST", "tasks");
    expectError(run({ tasks: [ok, 5] }), "INVALID_SCHEDULE_REQUEST", "tasks[1]", "5");
    expectError(run({ tasks: [{ ...ok, name: "" }] }), "INVALID_SCHEDULE_REQUEST", "tasks[0].name", '""');
    expectError(run({ tasks: [{ ...ok, name: "x".repeat(129) }] }), "INVALID_SCHEDULE_REQUEST", "tasks[0].name");
    expect(scheduleTasks({ tasks: [{ ...ok, name: "\u{1F600}".repeat(128) }] }, { at_unix_ms: T0 }).tasks[0]!.status).toBe("SCHEDULED");
    expectError(run({ tasks: [{ ...ok, name: 7 }] }), "INVALID_SCHEDULE_REQUEST", "tasks[0].name", "7");
    expectError(run({ tasks: [{ ...ok, duration_ms: 0 }] }), "INVALID_SCHEDULE_REQUEST", "tasks[0].duration_ms", "0");
    expectError(run({ tasks: [{ ...ok, duration_ms: 1.5 }] }), "INVALID_SCHEDULE_REQUEST", "tasks[0].duration_ms", "1.5");
    expectError(run({ tasks: [{ ...ok, duration_ms: D + 1 }] }), "INVALID_SCHEDULE_REQUEST", "tasks[0].duration_ms", "86400001");
    expectError(run({ tasks: [{ ...ok, carbon_max: 0 }] }), "INVALID_SCHEDULE_REQUEST", "tasks[0].carbon_max", "0");
    expectError(run({ tasks: [{ ...ok, carbon_max: Infinity }] }), "INVALID_SCHEDULE_REQUEST", "tasks[0].carbon_max", "Infinity");
    expectError(run({ tasks: [{ ...ok, carbon_max: null }] }), "INVALID_SCHEDULE_REQUEST", "tasks[0].carbon_max", "null");
    expectError(run({ tasks: [ok, { ...ok, window: [0, 361] }] }), "INVALID_WINDOW", "tasks[1].window[1]", "361");
    expectError(run({ tasks: [{ ...ok, window: [Number.NaN, 1] }] }), "INVALID_WINDOW", "tasks[0].window[0]", "NaN");
    expectError(run({ tasks: [{ ...ok, window: [1, 2, 3] }] }), "INVALID_WINDOW", "tasks[0].window", "[1,2,3]");
    expectError(run({ tasks: [ok], zone: 12 }), "INVALID_ZONE", "12");
    expectError(run({ tasks: [ok], horizon_hours: 0 }), "INVALID_SCHEDULE_REQUEST", "horizon_hours", "0");
    expectError(run({ tasks: [ok], horizon_hours: 168.5 }), "INVALID_SCHEDULE_REQUEST", "horizon_hours", "168.5");
    expectError(run({ tasks: [ok] }, { at_unix_ms: "now" }), "INVALID_SCHEDULE_REQUEST", "at_unix_ms", '"now"');
    expectError(run({ tasks: [ok] }, null), "INVALID_SCHEDULE_REQUEST", "options");
    expectError(run({ tasks: [ok] }, { at_unix_ms: T0, series: [] }), "INVALID_FORECAST", "series");
    expectError(run({ tasks: [ok] }, { at_unix_ms: T0, series: null }), "INVALID_FORECAST", "series");
  });

  it("accepts the limits", () => {
    const result = scheduleTasks(
      { tasks: Array.from({ length: 100 }, (_, i) => ({ name: `t${i}`, duration_ms: D, window: [0, 360] as Window })), zone: 11, horizon_hours: 168 },
      { at_unix_ms: 8.64e15 - 192 * HOUR, series: constantCarbonSeries(0) },
    );
    expect(result.tasks.every((t) => t.status === "SCHEDULED" && t.carbon_intensity === 0)).toBe(true);
  });
});
