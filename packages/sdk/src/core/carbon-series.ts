/**
 * A carbon-intensity series and the arithmetic on it shared by
 * `carbonRecommendation` and `scheduleTasks`: the average intensity of a
 * run, and the start with the lowest average among candidates.
 */

import { TemporalRangeError, TemporalTypeError, describeValue, type ErrorCode } from "./errors.js";
import type { CarbonWindow } from "./service-types.js";
import { MAX_ABS_UNIX_MS } from "./units.js";

/**
 * Forecast points, each a span `[start_unix_ms, end_unix_ms)` with its
 * average intensity in gCO2eq/kWh: sorted by start, not overlapping, and
 * possibly with gaps (time no point covers).
 */
export type CarbonSeries = readonly CarbonWindow[];

/**
 * The largest intensity accepted, gCO2eq/kWh. Real grids stay below a few
 * thousand; the cap keeps every sum of intensity x milliseconds an exact
 * integer for integer intensities (1e6 x 8 days of ms < 2^53).
 */
export const MAX_INTENSITY = 1_000_000;

export const MS_PER_HOUR = 3_600_000;

/**
 * How far past `at_unix_ms` the carbon and scheduling searches can look:
 * the longest horizon (168 h) plus the longest run (24 h). `at_unix_ms` must
 * leave this much room before the end of the Date range.
 */
export const MAX_LOOKAHEAD_MS = (168 + 24) * MS_PER_HOUR;

/** Series already checked: frozen arrays made by this module's callers, so a second check can be skipped. */
const checkedSeries = new WeakSet<object>();

/** Freezes a series known to be valid and remembers it, so passing it back in costs no re-validation. */
export function sealSeries(points: CarbonWindow[]): CarbonSeries {
  const sealed = Object.freeze(points.map((p) => Object.freeze({ start_unix_ms: p.start_unix_ms, end_unix_ms: p.end_unix_ms, intensity: p.intensity })));
  checkedSeries.add(sealed);
  return sealed;
}

/** Throws `INVALID_FORECAST`, naming `series[i].field`, unless `series` is a valid `CarbonSeries`. */
export function assertCarbonSeries(series: unknown): asserts series is CarbonSeries {
  if (typeof series === "object" && series !== null && checkedSeries.has(series)) return;
  if (!Array.isArray(series)) {
    throw new TemporalTypeError("INVALID_FORECAST", `series must be an array of { start_unix_ms, end_unix_ms, intensity } points, got ${describeValue(series)}`);
  }
  if (series.length === 0) throw new TemporalRangeError("INVALID_FORECAST", "series must hold at least one point, got []");
  let previousEnd = -Infinity;
  series.forEach((point: unknown, i) => {
    const path = `series[${i}]`;
    if (typeof point !== "object" || point === null) {
      throw new TemporalTypeError("INVALID_FORECAST", `${path} must be a { start_unix_ms, end_unix_ms, intensity } point, got ${describeValue(point)}`);
    }
    const { start_unix_ms: start, end_unix_ms: end, intensity } = point as Record<string, unknown>;
    if (!isUnixMs(start)) throw invalidUnixMs(`${path}.start_unix_ms`, start);
    if (!isUnixMs(end)) throw invalidUnixMs(`${path}.end_unix_ms`, end);
    if (end <= start) throw new TemporalRangeError("INVALID_FORECAST", `${path}.end_unix_ms ${end} must be after start_unix_ms ${start}`);
    if (!isIntensity(intensity)) throw invalidIntensity(`${path}.intensity`, intensity);
    if (start < previousEnd) {
      throw new TemporalRangeError("INVALID_FORECAST", `${path}.start_unix_ms ${start} is before the end of series[${i - 1}] (${previousEnd}): points must be sorted and must not overlap`);
    }
    previousEnd = end;
  });
}

export function isUnixMs(value: unknown): value is number {
  return Number.isSafeInteger(value) && Math.abs(value as number) <= MAX_ABS_UNIX_MS;
}

export function isIntensity(value: unknown): value is number {
  return typeof value === "number" && value >= 0 && value <= MAX_INTENSITY;
}

export function invalidUnixMs(path: string, value: unknown): TemporalRangeError {
  return new TemporalRangeError("INVALID_FORECAST", `${path} must be integer Unix milliseconds within +/-${MAX_ABS_UNIX_MS}, got ${describeValue(value)}`);
}

export function invalidIntensity(path: string, value: unknown): TemporalRangeError {
  return new TemporalRangeError("INVALID_FORECAST", `${path} must be an intensity in gCO2eq/kWh, a finite number in [0, ${MAX_INTENSITY}], got ${describeValue(value)}`);
}

/** Checks the `at_unix_ms` of a carbon or scheduling request; `code` is the caller's request code. */
export function assertAtUnixMs(value: unknown, code: ErrorCode): asserts value is number {
  const max = MAX_ABS_UNIX_MS - MAX_LOOKAHEAD_MS;
  if (!(Number.isSafeInteger(value) && (value as number) >= -MAX_ABS_UNIX_MS && (value as number) <= max)) {
    throw new TemporalRangeError(code, `at_unix_ms must be integer Unix milliseconds in [-${MAX_ABS_UNIX_MS}, ${max}], got ${describeValue(value)}`);
  }
}

/**
 * The part of a series inside `[from, to)`, clipped to it, with prefix sums
 * so that the average over any run is two binary searches away. Clipping
 * keeps the sums small (a constant series spans the whole Date range), so
 * they stay exact for integer intensities.
 */
export class SeriesSlice {
  readonly #starts: number[] = [];
  readonly #ends: number[] = [];
  readonly #values: number[] = [];
  /** #sums[i]: the integral (intensity x ms) of the points before i. */
  readonly #sums: number[] = [0];
  /** #gaps[i]: how many uncovered gaps lie between point 0 and point i. */
  readonly #gaps: number[] = [];

  constructor(series: CarbonSeries, from: number, to: number) {
    for (let i = firstEndingAfter(series, from); i < series.length && series[i]!.start_unix_ms < to; i++) {
      const point = series[i]!;
      const start = Math.max(point.start_unix_ms, from);
      const end = Math.min(point.end_unix_ms, to);
      const n = this.#starts.length;
      this.#gaps.push(n === 0 ? 0 : this.#gaps[n - 1]! + (start > this.#ends[n - 1]! ? 1 : 0));
      this.#starts.push(start);
      this.#ends.push(end);
      this.#values.push(point.intensity);
      this.#sums.push(this.#sums[n]! + point.intensity * (end - start));
    }
  }

  /** Every point's start and end, ascending, each once (where points touch, one point's end is the next one's start). */
  boundaries(): number[] {
    const result: number[] = [];
    for (let i = 0; i < this.#starts.length; i++) {
      if (result[result.length - 1] !== this.#starts[i]) result.push(this.#starts[i]!);
      result.push(this.#ends[i]!);
    }
    return result;
  }

  /** The intensity of the point covering instant `t`, or `undefined` when none does. */
  intensityAt(t: number): number | undefined {
    const i = this.#lastStartingAtOrBefore(t);
    return i >= 0 && t < this.#ends[i]! ? this.#values[i] : undefined;
  }

  /**
   * The integral of intensity over `[start, end)` (gCO2eq/kWh x ms), or
   * `undefined` when part of that span is not covered. Requires `start < end`
   * inside the slice's range.
   */
  integral(start: number, end: number): number | undefined {
    const i = this.#lastStartingAtOrBefore(start);
    if (i < 0 || start >= this.#ends[i]!) return undefined;
    const j = this.#lastStartingAtOrBefore(end - 1);
    if (end > this.#ends[j]! || this.#gaps[j] !== this.#gaps[i]) return undefined;
    if (i === j) return this.#values[i]! * (end - start);
    return this.#values[i]! * (this.#ends[i]! - start) + (this.#sums[j]! - this.#sums[i + 1]!) + this.#values[j]! * (end - this.#starts[j]!);
  }

  /** The average intensity over `[start, end)`, or `undefined` when not fully covered. Exact when one point covers the run. */
  average(start: number, end: number): number | undefined {
    const i = this.#lastStartingAtOrBefore(start);
    if (i >= 0 && end <= this.#ends[i]!) return this.#values[i];
    const integral = this.integral(start, end);
    return integral === undefined ? undefined : integral / (end - start);
  }

  #lastStartingAtOrBefore(t: number): number {
    let lo = 0;
    let hi = this.#starts.length; // answer + 1 lies in [lo, hi]
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.#starts[mid]! <= t) lo = mid + 1;
      else hi = mid;
    }
    return lo - 1;
  }
}

/** Index of the first point whose end is after `t` (the first that can overlap `[t, ...)`). */
function firstEndingAfter(series: CarbonSeries, t: number): number {
  let lo = 0;
  let hi = series.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (series[mid]!.end_unix_ms <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Relative difference below which two run integrals count as equal, so that
 * floating-point noise (the same intensities summed in a different order)
 * cannot make a later start win a tie. Integer data over at most eight days
 * differs by far more than this when it differs at all.
 */
const TIE_TOLERANCE = 1e-12;

/**
 * Among `candidates` (ascending starts), the run of `durationMs` with the
 * lowest integral (so the lowest average), counting only runs the slice
 * fully covers; ties go to the earliest start.
 */
export function lowestRun(slice: SeriesSlice, candidates: readonly number[], durationMs: number): { start: number; average: number } | undefined {
  let bestStart: number | undefined;
  let bestIntegral = 0;
  for (const start of candidates) {
    const integral = slice.integral(start, start + durationMs);
    if (integral === undefined) continue;
    if (bestStart === undefined || integral < bestIntegral - TIE_TOLERANCE * bestIntegral) {
      bestStart = start;
      bestIntegral = integral;
    }
  }
  if (bestStart === undefined) return undefined;
  return { start: bestStart, average: slice.average(bestStart, bestStart + durationMs)! };
}

/**
 * The starts worth evaluating within closed stretches `[first, last]`
 * (ascending, disjoint): each stretch's ends, and every boundary `b` and
 * `b - durationMs` inside a stretch, ascending and each once. The average
 * over a run changes slope only where its start or end crosses a boundary,
 * so the lowest (and earliest lowest) average over all starts in the
 * stretches is at one of these.
 */
export function candidateStarts(stretches: readonly (readonly [number, number])[], boundaries: readonly number[], durationMs: number): number[] {
  const result: number[] = [];
  const push = (t: number): void => {
    if (result.length === 0 || result[result.length - 1]! < t) result.push(t);
  };
  for (const [first, last] of stretches) {
    push(first);
    // two ascending sequences within the stretch, merged: b and b - durationMs
    let i = firstAtOrAfter(boundaries, first);
    let j = firstAtOrAfter(boundaries, first + durationMs);
    for (;;) {
      const b = i < boundaries.length && boundaries[i]! <= last ? boundaries[i]! : Infinity;
      const e = j < boundaries.length && boundaries[j]! - durationMs <= last ? boundaries[j]! - durationMs : Infinity;
      if (b === Infinity && e === Infinity) break;
      if (b <= e) {
        push(b);
        i++;
      } else {
        push(e);
        j++;
      }
    }
    push(last);
  }
  return result;
}

function firstAtOrAfter(sorted: readonly number[], t: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
