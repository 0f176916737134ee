import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_INTENSITY, carbonRecommendation, constantCarbonSeries, parseCarbonForecast, type CarbonSeries, type CarbonWindow } from "../src/core/index.js";
import { parseIsoInstant } from "../src/core/iso-instant.js";
import { expectError } from "./helpers.js";

const MIN = 60_000;
const HOUR = 3_600_000;
const T0 = Date.UTC(2024, 4, 1, 12, 0, 0); // 2024-05-01T12:00:00Z

/** A Carbon Aware SDK `/emissions/forecasts/current` reply (one location, 5-minute points). */
function sdkForecast(values: number[], start = T0, location = "westus"): unknown[] {
  return [
    {
      generatedAt: new Date(start).toISOString(),
      requestedAt: new Date(start).toISOString(),
      location,
      dataStartAt: new Date(start).toISOString(),
      dataEndAt: new Date(start + values.length * 5 * MIN).toISOString(),
      windowSize: 5,
      optimalDataPoints: [],
      forecastData: values.map((value, i) => ({
        location,
        // the SDK's .NET serializer writes offsets as +00:00
        timestamp: new Date(start + i * 5 * MIN).toISOString().replace("Z", "+00:00"),
        duration: 5,
        value,
      })),
    },
  ];
}

describe("parseCarbonForecast", () => {
  it("reads the Carbon Aware SDK's forecast array into sorted points", () => {
    const series = parseCarbonForecast(sdkForecast([300, 200.5, 250]));
    expect(series).toEqual([
      { start_unix_ms: T0, end_unix_ms: T0 + 5 * MIN, intensity: 300 },
      { start_unix_ms: T0 + 5 * MIN, end_unix_ms: T0 + 10 * MIN, intensity: 200.5 },
      { start_unix_ms: T0 + 10 * MIN, end_unix_ms: T0 + 15 * MIN, intensity: 250 },
    ]);
    expect(Object.isFrozen(series) && Object.isFrozen(series[0])).toBe(true);
  });

  it("accepts a single forecast object, unsorted points, offsets other than Z, and leaves gaps as gaps", () => {
    const series = parseCarbonForecast({
      location: "eastus",
      forecastData: [
        { timestamp: "2024-05-01T14:30:00+02:00", duration: 30, value: 10 }, // 12:30Z
        { timestamp: "2024-05-01T12:00:00.000Z", duration: 15, value: 20 },
      ],
    });
    expect(series).toEqual([
      { start_unix_ms: T0, end_unix_ms: T0 + 15 * MIN, intensity: 20 },
      { start_unix_ms: T0 + 30 * MIN, end_unix_ms: T0 + 60 * MIN, intensity: 10 },
    ]);
  });

  it("turns a bare number into a constant series covering all time", () => {
    expect(parseCarbonForecast(420)).toEqual(constantCarbonSeries(420));
    const [point] = constantCarbonSeries(420);
    expect(point).toEqual({ start_unix_ms: -8.64e15, end_unix_ms: 8.64e15, intensity: 420 });
  });

  it("chooses one location among several, and refuses to mix them", () => {
    const both = [...sdkForecast([1, 2], T0, "westus"), ...sdkForecast([7, 8], T0, "eastus")];
    expect(parseCarbonForecast(both, { location: "eastus" }).map((p) => p.intensity)).toEqual([7, 8]);
    expectError(() => parseCarbonForecast(both), "INVALID_FORECAST", '$[1].location "eastus"', '$[0].location "westus"');
    expectError(() => parseCarbonForecast(both, { location: "northeurope" }), "INVALID_FORECAST", '"northeurope"');
  });

  it("names the path of the bad field", () => {
    const bad = (patch: Record<string, unknown>) => {
      const json = sdkForecast([1, 2, 3]) as { forecastData: Record<string, unknown>[] }[];
      Object.assign(json[0]!.forecastData[1]!, patch);
      return json;
    };
    expectError(() => parseCarbonForecast(bad({ timestamp: "2024-05-01T12:05:00" })), "INVALID_FORECAST", "$[0].forecastData[1].timestamp", "UTC offset");
    expectError(() => parseCarbonForecast(bad({ timestamp: "2024-02-30T12:05:00Z" })), "INVALID_FORECAST", "$[0].forecastData[1].timestamp");
    expectError(() => parseCarbonForecast(bad({ timestamp: 1714565100000 })), "INVALID_FORECAST", "$[0].forecastData[1].timestamp");
    expectError(() => parseCarbonForecast(bad({ duration: 0 })), "INVALID_FORECAST", "$[0].forecastData[1].duration", "0");
    expectError(() => parseCarbonForecast(bad({ duration: "5" })), "INVALID_FORECAST", "$[0].forecastData[1].duration");
    expectError(() => parseCarbonForecast(bad({ value: -1 })), "INVALID_FORECAST", "$[0].forecastData[1].value", "-1");
    expectError(() => parseCarbonForecast(bad({ value: Number.NaN })), "INVALID_FORECAST", "$[0].forecastData[1].value", "NaN");
    expectError(() => parseCarbonForecast(bad({ value: MAX_INTENSITY + 1 })), "INVALID_FORECAST", "$[0].forecastData[1].value");
    expectError(() => parseCarbonForecast(bad({ duration: 6 })), "INVALID_FORECAST", "$[0].forecastData[2]", "overlaps $[0].forecastData[1]");
    expectError(() => parseCarbonForecast([{ forecastData: [null] }]), "INVALID_FORECAST", "$[0].forecastData[0]");
    expectError(() => parseCarbonForecast({ location: "x" }), "INVALID_FORECAST", "$.forecastData");
    expectError(() => parseCarbonForecast({ location: 3, forecastData: [] }), "INVALID_FORECAST", "$.location");
    expectError(() => parseCarbonForecast([]), "INVALID_FORECAST", "$");
    expectError(() => parseCarbonForecast([{ forecastData: [] }]), "INVALID_FORECAST", "holds no points");
    expectError(() => parseCarbonForecast("300"), "INVALID_FORECAST", "$");
    expectError(() => parseCarbonForecast(null), "INVALID_FORECAST", "$");
    expectError(() => parseCarbonForecast(-5), "INVALID_FORECAST", "$", "-5");
    expectError(() => parseCarbonForecast(Infinity), "INVALID_FORECAST", "$");
  });
});

describe("parseIsoInstant", () => {
  const instant = fc.integer({ min: Date.parse("0000-01-02T00:00:00Z"), max: Date.parse("9999-12-30T23:59:59.999Z") });

  it("agrees with Date for every instant written as toISOString, and with any offset", () => {
    fc.assert(
      fc.property(instant, fc.integer({ min: -23 * 60 - 59, max: 23 * 60 + 59 }), (ms, offsetMinutes) => {
        const text = new Date(ms).toISOString();
        fc.pre(/^\d{4}-/.test(text));
        expect(parseIsoInstant(text)).toBe(ms);
        const local = new Date(ms + offsetMinutes * MIN).toISOString();
        fc.pre(/^\d{4}-/.test(local));
        const abs = Math.abs(offsetMinutes);
        const offset = `${offsetMinutes < 0 ? "-" : "+"}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
        expect(parseIsoInstant(local.replace("Z", offset))).toBe(ms);
      }),
      { numRuns: 2000 },
    );
  });

  it("accepts the common variants and rejects the rest", () => {
    expect(parseIsoInstant("2024-05-01T12:00Z")).toBe(T0);
    expect(parseIsoInstant("2024-05-01t12:00:00z")).toBe(T0);
    expect(parseIsoInstant("2024-05-01T12:00:00.1239999Z")).toBe(T0 + 123);
    expect(parseIsoInstant("2024-05-01T12:00:00,5Z")).toBe(T0 + 500);
    expect(parseIsoInstant("2024-05-01T13:00:00+0100")).toBe(T0);
    expect(parseIsoInstant("2024-02-29T00:00:00Z")).toBe(Date.UTC(2024, 1, 29));
    expect(parseIsoInstant("0001-01-01T00:00:00Z")).toBe(new Date("0001-01-01T00:00:00Z").getTime());
    for (const bad of [
      "2023-02-29T00:00:00Z",
      "2024-05-01T24:00:00Z",
      "2024-05-01T12:60:00Z",
      "2024-05-01T12:00:60Z",
      "2024-13-01T00:00:00Z",
      "2024-05-01 12:00:00Z",
      "2024-05-01T12:00:00",
      "2024-05-01",
      "2024-05-01T12:00:00+24:00",
      " 2024-05-01T12:00:00Z",
    ]) {
      expect(parseIsoInstant(bad), bad).toBeUndefined();
    }
  });
});

// ---- carbonRecommendation against a minute-by-minute model ----

interface Piece {
  readonly gap: number; // minutes of no data before the point
  readonly minutes: number;
  readonly value: number;
}

function buildSeries(firstStart: number, pieces: readonly Piece[]): CarbonWindow[] {
  const points: CarbonWindow[] = [];
  let t = firstStart;
  for (const piece of pieces) {
    t += piece.gap * MIN;
    points.push({ start_unix_ms: t, end_unix_ms: t + piece.minutes * MIN, intensity: piece.value });
    t += piece.minutes * MIN;
  }
  return points;
}

/** Intensity of each minute of `[from, from + minutes)`, or undefined where no point covers it. */
function minuteIntensities(points: readonly CarbonWindow[], from: number, minutes: number): (number | undefined)[] {
  return Array.from({ length: minutes }, (_, k) => points.find((p) => p.start_unix_ms <= from + k * MIN && from + k * MIN < p.end_unix_ms)?.intensity);
}

/** Every whole-minute start in [at, at + horizon]: the covered run with the least total, earliest on ties. */
function bruteForceBest(points: readonly CarbonWindow[], at: number, horizonHours: number, durationMinutes: number): { start: number; total: number } | undefined {
  const horizonMinutes = horizonHours * 60;
  const perMinute = minuteIntensities(points, at, horizonMinutes + durationMinutes);
  let best: { start: number; total: number } | undefined;
  for (let s = 0; s <= horizonMinutes; s++) {
    let total = 0;
    let covered = true;
    for (let m = s; m < s + durationMinutes; m++) {
      const v = perMinute[m];
      if (v === undefined) {
        covered = false;
        break;
      }
      total += v * MIN;
    }
    if (covered && (best === undefined || total < best.total)) best = { start: at + s * MIN, total };
  }
  return best;
}

const pieces = (value: fc.Arbitrary<number>) =>
  fc.array(
    fc.record({ gap: fc.oneof({ weight: 4, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 40 }) }), minutes: fc.integer({ min: 1, max: 90 }), value }),
    { minLength: 1, maxLength: 20 },
  );

const scenario = (value: fc.Arbitrary<number>) =>
  fc.record({
    // minute-aligned instant; the forecast starts up to 2 h before it or 20 min after
    at: fc.integer({ min: 28_000_000, max: 29_000_000 }).map((m) => m * MIN),
    firstOffset: fc.integer({ min: -120, max: 20 }),
    pieces: pieces(value),
    horizonHours: fc.integer({ min: 1, max: 6 }),
    durationMinutes: fc.oneof(fc.integer({ min: 1, max: 30 }), fc.integer({ min: 1, max: 180 })),
  });

describe("carbonRecommendation", () => {
  it("finds the same best window as a minute-by-minute search, and the same current intensity (integer intensities)", () => {
    fc.assert(
      fc.property(scenario(fc.integer({ min: 0, max: 1000 })), ({ at, firstOffset, pieces, horizonHours, durationMinutes }) => {
        const series = buildSeries(at + firstOffset * MIN, pieces);
        const options = { at_unix_ms: at, horizon_hours: horizonHours, duration_minutes: durationMinutes, source: "file" as const };
        const current = minuteIntensities(series, at, 1)[0];
        if (current === undefined) {
          expectError(() => carbonRecommendation(series, options), "FORECAST_NOT_CURRENT");
          return;
        }
        const expected = bruteForceBest(series, at, horizonHours, durationMinutes);
        if (expected === undefined) {
          expectError(() => carbonRecommendation(series, options), "FORECAST_TOO_SHORT");
          return;
        }
        const result = carbonRecommendation(series, options);
        expect(result.current).toBe(current);
        expect(result.best_window).toEqual({
          start_unix_ms: expected.start,
          end_unix_ms: expected.start + durationMinutes * MIN,
          intensity: expected.total / (durationMinutes * MIN),
        });
      }),
      { numRuns: 400 },
    );
  });

  it("reaches the minimum average with fractional intensities too", () => {
    fc.assert(
      fc.property(scenario(fc.double({ min: 0, max: 900, noNaN: true })), ({ at, firstOffset, pieces, horizonHours, durationMinutes }) => {
        const series = buildSeries(at + firstOffset * MIN, pieces);
        const expected = bruteForceBest(series, at, horizonHours, durationMinutes);
        fc.pre(minuteIntensities(series, at, 1)[0] !== undefined && expected !== undefined);
        const { best_window: best } = carbonRecommendation(series, { at_unix_ms: at, horizon_hours: horizonHours, duration_minutes: durationMinutes, source: "file" });
        const minimum = expected.total / (durationMinutes * MIN);
        expect(best.intensity).toBeLessThanOrEqual(minimum + 1e-9 * Math.max(1, minimum));
        expect(best.start_unix_ms).toBeGreaterThanOrEqual(at);
        expect(best.start_unix_ms).toBeLessThanOrEqual(at + horizonHours * HOUR);
        // the reported average is the real average of that run
        const runMinutes = minuteIntensities(series, best.start_unix_ms, durationMinutes);
        fc.pre(best.start_unix_ms % MIN === 0);
        const actual = runMinutes.reduce<number>((sum, v) => sum + v!, 0) / durationMinutes;
        expect(best.intensity).toBeCloseTo(actual, 6);
      }),
      { numRuns: 300 },
    );
  });

  it("considers runs that end on a boundary, not only runs that start on one", () => {
    // 100 until 13:00, then 10 for 30 min, then 500: the best 60-minute run is 12:30-13:30 (avg 55)
    const series = [
      { start_unix_ms: T0 - HOUR, end_unix_ms: T0 + HOUR, intensity: 100 },
      { start_unix_ms: T0 + HOUR, end_unix_ms: T0 + 90 * MIN, intensity: 10 },
      { start_unix_ms: T0 + 90 * MIN, end_unix_ms: T0 + 5 * HOUR, intensity: 500 },
    ];
    const result = carbonRecommendation(series, { at_unix_ms: T0 + 7 * MIN, horizon_hours: 2, duration_minutes: 60, location: "westus", source: "file" });
    expect(result).toEqual({
      unit: "gCO2eq/kWh",
      location: "westus",
      current: 100,
      best_window: { start_unix_ms: T0 + 30 * MIN, end_unix_ms: T0 + 90 * MIN, intensity: 55 },
      horizon_hours: 2,
      duration_minutes: 60,
      source: "file",
    });
  });

  it("with a static value, recommends running now at that value", () => {
    const at = T0 + 12_345;
    expect(carbonRecommendation(constantCarbonSeries(321.7), { at_unix_ms: at, source: "static" })).toEqual({
      unit: "gCO2eq/kWh",
      location: null,
      current: 321.7,
      best_window: { start_unix_ms: at, end_unix_ms: at + HOUR, intensity: 321.7 },
      horizon_hours: 24,
      duration_minutes: 60,
      source: "static",
    });
  });

  it("breaks ties toward the earliest start, even when equal averages are summed differently", () => {
    // equal 1-minute points: every 13-minute run has the same average, but summed in floating point
    // the run from `at` (mid-point) comes out 1 ulp above the run from 12:03
    const v = 589.0805246771587;
    const series = Array.from({ length: 300 }, (_, i) => ({ start_unix_ms: T0 + i * MIN, end_unix_ms: T0 + (i + 1) * MIN, intensity: v }));
    const at = T0 + 42_393;
    const { best_window: best } = carbonRecommendation(series, { at_unix_ms: at, horizon_hours: 3, duration_minutes: 13, source: "file" });
    expect(best.start_unix_ms).toBe(at);
    expect(best.intensity).toBeCloseTo(v, 9);
  });

  it("refuses to guess when the forecast does not cover now, or covers no whole run", () => {
    const series = parseCarbonForecast(sdkForecast([300, 200, 250]));
    expectError(
      () => carbonRecommendation(series, { at_unix_ms: T0 - 1, source: "file" }),
      "FORECAST_NOT_CURRENT",
      "2024-05-01T11:59:59.999Z",
      "2024-05-01T12:00:00.000Z to 2024-05-01T12:15:00.000Z",
    );
    expectError(() => carbonRecommendation(series, { at_unix_ms: T0 + 15 * MIN, source: "file" }), "FORECAST_NOT_CURRENT");
    expectError(() => carbonRecommendation(series, { at_unix_ms: T0, duration_minutes: 16, source: "file" }), "FORECAST_TOO_SHORT", "16-minute");
    expect(carbonRecommendation(series, { at_unix_ms: T0, duration_minutes: 15, source: "file" }).best_window.intensity).toBe(250);
  });

  it("validates its options and the series, naming the field", () => {
    const series = constantCarbonSeries(100);
    const ok = { at_unix_ms: T0, source: "static" as const };
    expectError(() => carbonRecommendation(series, { ...ok, at_unix_ms: 1.5 }), "INVALID_CARBON_REQUEST", "at_unix_ms", "1.5");
    expectError(() => carbonRecommendation(series, { ...ok, at_unix_ms: 8.64e15 }), "INVALID_CARBON_REQUEST", "at_unix_ms");
    expectError(() => carbonRecommendation(series, { ...ok, horizon_hours: 0 }), "INVALID_CARBON_REQUEST", "horizon_hours", "0");
    expectError(() => carbonRecommendation(series, { ...ok, horizon_hours: 169 }), "INVALID_CARBON_REQUEST", "horizon_hours", "169");
    expectError(() => carbonRecommendation(series, { ...ok, horizon_hours: 2.5 }), "INVALID_CARBON_REQUEST", "horizon_hours");
    expectError(() => carbonRecommendation(series, { ...ok, duration_minutes: 1441 }), "INVALID_CARBON_REQUEST", "duration_minutes", "1441");
    expectError(() => carbonRecommendation(series, { ...ok, location: 5 as unknown as string }), "INVALID_CARBON_REQUEST", "location");
    expectError(() => carbonRecommendation(series, { ...ok, source: "db" as "file" }), "INVALID_CARBON_REQUEST", "source", '"db"');
    expectError(() => carbonRecommendation(series, null as unknown as typeof ok), "INVALID_CARBON_REQUEST", "options");
    const raw = (points: unknown) => () => carbonRecommendation(points as CarbonSeries, ok);
    expectError(raw([]), "INVALID_FORECAST", "at least one point");
    expectError(raw({}), "INVALID_FORECAST", "series");
    expectError(raw([{ start_unix_ms: 0, end_unix_ms: 0, intensity: 1 }]), "INVALID_FORECAST", "series[0].end_unix_ms");
    expectError(raw([{ start_unix_ms: 0.5, end_unix_ms: 10, intensity: 1 }]), "INVALID_FORECAST", "series[0].start_unix_ms");
    expectError(raw([{ start_unix_ms: 0, end_unix_ms: 10, intensity: -1 }]), "INVALID_FORECAST", "series[0].intensity");
    expectError(
      raw([
        { start_unix_ms: 0, end_unix_ms: 10, intensity: 1 },
        { start_unix_ms: 5, end_unix_ms: 20, intensity: 1 },
      ]),
      "INVALID_FORECAST",
      "series[1].start_unix_ms",
    );
  });
});
