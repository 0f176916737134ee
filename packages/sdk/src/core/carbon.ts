/**
 * Grid carbon intensity: reading a forecast in the Carbon Aware SDK's shape
 * and recommending when to run (`GET quantum/carbon`). Intensities are
 * gCO2eq/kWh throughout.
 */

import { TemporalRangeError, TemporalTypeError, describeValue } from "./errors.js";
import { parseIsoInstant } from "./iso-instant.js";
import { MS_PER_HOUR, SeriesSlice, assertAtUnixMs, assertCarbonSeries, candidateStarts, invalidIntensity, isIntensity, lowestRun, sealSeries, type CarbonSeries } from "./carbon-series.js";
import type { CarbonRecommendation, CarbonWindow } from "./service-types.js";
import { MAX_ABS_UNIX_MS } from "./units.js";

const MS_PER_MINUTE = 60_000;

export interface ParseForecastOptions {
  /**
   * Keep only the forecasts for this location. Without it, every forecast
   * in the input must be for the same location (or name none).
   */
  readonly location?: string;
}

/**
 * Reads a forecast as the Carbon Aware SDK's `GET /emissions/forecasts/current`
 * returns it: an array of `{ location, generatedAt, forecastData: [{ timestamp,
 * duration, value }], ... }` (or one such object), where `timestamp` is an
 * ISO 8601 instant with a UTC offset, `duration` the point's length in
 * minutes and `value` its intensity in gCO2eq/kWh. Only `location` and
 * `forecastData` are read; the other fields are the SDK's summary of the
 * same data. A bare number is a static intensity: `constantCarbonSeries`.
 *
 * Returns the points sorted by start. Points may leave gaps but must not
 * overlap. Anything malformed throws `INVALID_FORECAST` naming the path of
 * the bad field, for example `$[0].forecastData[3].timestamp`.
 */
export function parseCarbonForecast(json: unknown, options: ParseForecastOptions = {}): CarbonSeries {
  if (typeof options !== "object" || options === null) {
    throw new TemporalTypeError("INVALID_FORECAST", `options must be an object such as { location: "westus" }, got ${describeValue(options)}`);
  }
  const wanted = options.location;
  if (wanted !== undefined && typeof wanted !== "string") {
    throw new TemporalTypeError("INVALID_FORECAST", `options.location must be a string, got ${describeValue(wanted)}`);
  }
  if (typeof json === "number") return constantSeries(json, "$");
  const forecasts = Array.isArray(json) ? json.map((f: unknown, i) => ({ forecast: f, path: `$[${i}]` })) : [{ forecast: json, path: "$" }];
  if (forecasts.length === 0) throw new TemporalRangeError("INVALID_FORECAST", "$ must hold at least one forecast, got []");

  const chosen: { forecast: Record<string, unknown>; path: string }[] = [];
  let firstLocation: { name: string; path: string } | undefined;
  for (const { forecast, path } of forecasts) {
    if (typeof forecast !== "object" || forecast === null || Array.isArray(forecast)) {
      throw new TemporalTypeError("INVALID_FORECAST", `${path} must be a forecast object { location, forecastData, ... }, got ${describeValue(forecast)}`);
    }
    const record = forecast as Record<string, unknown>;
    const location = record.location;
    if (location !== undefined && location !== null && typeof location !== "string") {
      throw new TemporalTypeError("INVALID_FORECAST", `${path}.location must be a string, got ${describeValue(location)}`);
    }
    if (wanted !== undefined) {
      if (location === wanted) chosen.push({ forecast: record, path });
      continue;
    }
    if (typeof location === "string") {
      if (firstLocation === undefined) firstLocation = { name: location, path };
      else if (location !== firstLocation.name) {
        throw new TemporalRangeError(
          "INVALID_FORECAST",
          `${path}.location ${describeValue(location)} differs from ${firstLocation.path}.location ${describeValue(firstLocation.name)}: pass { location } to choose one forecast`,
        );
      }
    }
    chosen.push({ forecast: record, path });
  }
  if (chosen.length === 0) throw new TemporalRangeError("INVALID_FORECAST", `$ holds no forecast for location ${describeValue(wanted)}`);

  const points: { point: CarbonWindow; path: string }[] = [];
  for (const { forecast, path } of chosen) {
    const data = forecast.forecastData;
    if (!Array.isArray(data)) {
      throw new TemporalTypeError("INVALID_FORECAST", `${path}.forecastData must be an array of { timestamp, duration, value } points, got ${describeValue(data)}`);
    }
    data.forEach((raw: unknown, i) => points.push({ point: parsePoint(raw, `${path}.forecastData[${i}]`), path: `${path}.forecastData[${i}]` }));
  }
  if (points.length === 0) throw new TemporalRangeError("INVALID_FORECAST", `the forecastData of ${chosen.map((c) => c.path).join(", ")} holds no points`);

  points.sort((a, b) => a.point.start_unix_ms - b.point.start_unix_ms);
  for (let i = 1; i < points.length; i++) {
    const previous = points[i - 1]!;
    const current = points[i]!;
    if (current.point.start_unix_ms < previous.point.end_unix_ms) {
      throw new TemporalRangeError(
        "INVALID_FORECAST",
        `${current.path} (starting ${iso(current.point.start_unix_ms)}) overlaps ${previous.path} (${iso(previous.point.start_unix_ms)} to ${iso(previous.point.end_unix_ms)})`,
      );
    }
  }
  return sealSeries(points.map((p) => p.point));
}

/** A static intensity as a series: one point covering the whole Date range. */
export function constantCarbonSeries(intensity: number): CarbonSeries {
  return constantSeries(intensity, "intensity");
}

function constantSeries(intensity: unknown, path: string): CarbonSeries {
  if (!isIntensity(intensity)) throw invalidIntensity(path, intensity);
  return sealSeries([{ start_unix_ms: -MAX_ABS_UNIX_MS, end_unix_ms: MAX_ABS_UNIX_MS, intensity: intensity + 0 }]);
}

function parsePoint(raw: unknown, path: string): CarbonWindow {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new TemporalTypeError("INVALID_FORECAST", `${path} must be a { timestamp, duration, value } point, got ${describeValue(raw)}`);
  }
  const { timestamp, duration, value } = raw as Record<string, unknown>;
  const start = typeof timestamp === "string" ? parseIsoInstant(timestamp) : undefined;
  if (start === undefined || Math.abs(start) > MAX_ABS_UNIX_MS) {
    throw new TemporalRangeError("INVALID_FORECAST", `${path}.timestamp must be an ISO 8601 instant with a UTC offset, such as "2024-05-01T12:00:00Z", got ${describeValue(timestamp)}`);
  }
  const durationMs = typeof duration === "number" ? Math.round(duration * MS_PER_MINUTE) : Number.NaN;
  if (!(durationMs >= 1 && start + durationMs <= MAX_ABS_UNIX_MS)) {
    throw new TemporalRangeError("INVALID_FORECAST", `${path}.duration must be a positive number of minutes, got ${describeValue(duration)}`);
  }
  if (!isIntensity(value)) throw invalidIntensity(`${path}.value`, value);
  return { start_unix_ms: start, end_unix_ms: start + durationMs, intensity: value + 0 };
}

export interface CarbonOptions {
  /** The instant the recommendation is for ("now"), integer Unix milliseconds. */
  readonly at_unix_ms: number;
  /** Runs may start up to this many hours after `at_unix_ms`: an integer 1..168, default 24. */
  readonly horizon_hours?: number;
  /** Length of the run, minutes: an integer 1..1440, default 60. */
  readonly duration_minutes?: number;
  /** Echoed in the reply; default null. */
  readonly location?: string | null;
  readonly source: CarbonRecommendation["source"];
}

/**
 * `current` is the intensity of the point covering `at_unix_ms`; if no
 * point covers it (the forecast starts later, has ended, or has a gap
 * there) this throws `FORECAST_NOT_CURRENT` rather than guess.
 *
 * `best_window` is the run of `duration_minutes` starting in
 * `[at, at + horizon]` with the lowest time-weighted average intensity,
 * among runs the forecast fully covers; ties go to the earliest start. The
 * average changes slope only where a run's start or end crosses a point
 * boundary, so the candidates `at`, `at + horizon`, every boundary `b` and
 * every `b - duration` include the best of all millisecond starts. If no
 * covered run starts in the horizon: `FORECAST_TOO_SHORT`.
 */
export function carbonRecommendation(series: CarbonSeries, options: CarbonOptions): CarbonRecommendation {
  assertCarbonSeries(series);
  const { at, horizonHours, durationMinutes, location, source } = checkCarbonOptions(options);
  const horizonMs = horizonHours * MS_PER_HOUR;
  const durationMs = durationMinutes * MS_PER_MINUTE;
  const slice = new SeriesSlice(series, at, at + horizonMs + durationMs);

  const current = slice.intensityAt(at);
  if (current === undefined) {
    throw new TemporalRangeError("FORECAST_NOT_CURRENT", `no forecast point covers at_unix_ms ${at} (${iso(at)}); the forecast spans ${coverage(series)}`);
  }

  const best = lowestRun(slice, candidateStarts([[at, at + horizonMs]], slice.boundaries(), durationMs), durationMs);
  if (best === undefined) {
    throw new TemporalRangeError(
      "FORECAST_TOO_SHORT",
      `the forecast covers no ${durationMinutes}-minute run starting between ${iso(at)} and ${iso(at + horizonMs)}; it spans ${coverage(series)}`,
    );
  }
  return {
    unit: "gCO2eq/kWh",
    location,
    current,
    best_window: { start_unix_ms: best.start, end_unix_ms: best.start + durationMs, intensity: best.average },
    horizon_hours: horizonHours,
    duration_minutes: durationMinutes,
    source,
  };
}

function checkCarbonOptions(options: CarbonOptions): { at: number; horizonHours: number; durationMinutes: number; location: string | null; source: CarbonRecommendation["source"] } {
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw new TemporalTypeError("INVALID_CARBON_REQUEST", `options must be an object { at_unix_ms, horizon_hours?, duration_minutes?, location?, source }, got ${describeValue(options)}`);
  }
  const { at_unix_ms: at, horizon_hours: horizonHours = 24, duration_minutes: durationMinutes = 60, location = null, source } = options;
  assertAtUnixMs(at, "INVALID_CARBON_REQUEST");
  if (!(Number.isInteger(horizonHours) && horizonHours >= 1 && horizonHours <= 168)) {
    throw new TemporalRangeError("INVALID_CARBON_REQUEST", `horizon_hours must be an integer 1..168, got ${describeValue(horizonHours)}`);
  }
  if (!(Number.isInteger(durationMinutes) && durationMinutes >= 1 && durationMinutes <= 1440)) {
    throw new TemporalRangeError("INVALID_CARBON_REQUEST", `duration_minutes must be an integer 1..1440, got ${describeValue(durationMinutes)}`);
  }
  if (location !== null && typeof location !== "string") {
    throw new TemporalTypeError("INVALID_CARBON_REQUEST", `location must be a string or null, got ${describeValue(location)}`);
  }
  if (source !== "static" && source !== "file") {
    throw new TemporalRangeError("INVALID_CARBON_REQUEST", `source must be "static" or "file", got ${describeValue(source)}`);
  }
  return { at, horizonHours, durationMinutes, location, source };
}

/** "<first start> to <last end>" of a series, for error messages. */
function coverage(series: CarbonSeries): string {
  return `${iso(series[0]!.start_unix_ms)} to ${iso(series[series.length - 1]!.end_unix_ms)}`;
}

function iso(unixMs: number): string {
  return new Date(unixMs).toISOString();
}
