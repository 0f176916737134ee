/**
 * Phase-aware task scheduling (`POST quantum/schedule`): for each task, when
 * to start so that the whole run stays inside its zone-local phase window,
 * and, given a carbon forecast, which such start has the cleanest power.
 */

import { TemporalRangeError, TemporalTypeError, describeValue } from "./errors.js";
import { MS_PER_HOUR, SeriesSlice, assertAtUnixMs, assertCarbonSeries, candidateStarts, lowestRun, type CarbonSeries } from "./carbon-series.js";
import type { ScheduleRequest, ScheduleResult, ScheduleTask, ScheduledTask } from "./service-types.js";
import { TICKS_PER_DAY, TICKS_PER_DEGREE, TICKS_PER_ZONE } from "./units.js";
import { parseZone } from "./zones.js";

export interface ScheduleOptions {
  /** The instant to schedule from ("now"), integer Unix milliseconds. */
  readonly at_unix_ms: number;
  /** A carbon forecast (from `parseCarbonForecast` or `constantCarbonSeries`); without one, tasks start as early as possible. */
  readonly series?: CarbonSeries;
}

export const MAX_TASKS = 100;
export const MAX_TASK_NAME_LENGTH = 128;
export const MAX_TASK_DURATION_MS = TICKS_PER_DAY;
export const MAX_HORIZON_HOURS = 168;
export const DEFAULT_HORIZON_HOURS = 24;

/**
 * Places each task independently (tasks do not compete for capacity).
 *
 * A run `[start, start + duration_ms]` fits its window when the zone-local
 * phase of every millisecond of it is inside the window by the rules of
 * `allow` (bounds inclusive and rounded to the tick, `start > end` wraps
 * through 0, `[0, 360]` is the whole cycle), without leaving and
 * re-entering: a duration longer than the window's length can never fit
 * (`WINDOW_TOO_SHORT`); in a whole-cycle window (or one whose bounds leave
 * no tick out) every start fits. Starts are considered in
 * `[at_unix_ms, at_unix_ms + horizon]`; when none fits: `NO_START_IN_HORIZON`.
 *
 * Without a forecast the earliest fitting start wins. With one, the fitting
 * start whose run has the lowest average intensity wins, among runs the
 * forecast fully covers; ties go to the earliest. The candidates are the
 * first and last fitting start of each opening of the window and every
 * forecast boundary `b` and `b - duration_ms` that fits, which include the
 * best of all millisecond starts. If the forecast covers no fitting run,
 * the earliest fitting start is used, without a `carbon_intensity`.
 *
 * `carbon_max` is a ceiling on the run's average intensity (equal passes).
 * It can only be met by a run whose average is known: when the best
 * covered run is above it, when no fitting run is covered, or when there is
 * no forecast at all, the task is `CARBON_ABOVE_MAX`.
 */
export function scheduleTasks(request: ScheduleRequest, options: ScheduleOptions): ScheduleResult {
  const { tasks, zone, horizonHours } = checkRequest(request);
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw new TemporalTypeError("INVALID_SCHEDULE_REQUEST", `options must be an object { at_unix_ms, series? }, got ${describeValue(options)}`);
  }
  const at = options.at_unix_ms;
  assertAtUnixMs(at, "INVALID_SCHEDULE_REQUEST");
  const series = options.series;
  if (series !== undefined) assertCarbonSeries(series);

  const horizonEnd = at + Math.round(horizonHours * MS_PER_HOUR);
  const longest = Math.max(...tasks.map((t) => t.duration_ms));
  const slice = series === undefined ? undefined : new SeriesSlice(series, at, horizonEnd + longest);
  const boundaries = slice?.boundaries() ?? [];
  return {
    from_unix_ms: at,
    horizon_hours: horizonHours,
    tasks: tasks.map((task) => placeTask(task, { at, horizonEnd, zone, slice, boundaries })),
  };
}

interface Placement {
  readonly at: number;
  readonly horizonEnd: number;
  readonly zone: number;
  readonly slice: SeriesSlice | undefined;
  readonly boundaries: readonly number[];
}

interface CheckedTask {
  readonly name: string;
  readonly duration_ms: number;
  readonly arc: Arc;
  readonly carbon_max: number | undefined;
}

function placeTask(task: CheckedTask, p: Placement): ScheduledTask {
  const { name, duration_ms: duration, arc, carbon_max: carbonMax } = task;
  if (!arc.whole && duration > arc.length) return unschedulable(name, "WINDOW_TOO_SHORT");
  const stretches = fittingStarts(arc, duration, p);
  if (stretches.length === 0) return unschedulable(name, "NO_START_IN_HORIZON");
  const earliest = stretches[0]![0];
  if (p.slice === undefined) {
    return carbonMax === undefined ? scheduled(name, earliest, duration, p.zone) : unschedulable(name, "CARBON_ABOVE_MAX");
  }

  const best = lowestRun(p.slice, candidateStarts(stretches, p.boundaries, duration), duration);
  if (best === undefined) {
    return carbonMax === undefined ? scheduled(name, earliest, duration, p.zone) : unschedulable(name, "CARBON_ABOVE_MAX");
  }
  if (carbonMax !== undefined && best.average > carbonMax) return unschedulable(name, "CARBON_ABOVE_MAX");
  return scheduled(name, best.start, duration, p.zone, best.average);
}

/**
 * The starts in `[at, horizonEnd]` whose run fits the window, as closed
 * stretches `[first, last]`, ascending: one per opening of the window. A
 * run fits when its start lies at most `length - duration` ticks past the
 * window's start bound (measured forward), so in each daily opening the
 * fitting starts are one stretch.
 */
function fittingStarts(arc: Arc, duration: number, p: Placement): [number, number][] {
  if (arc.whole) return [[p.at, p.horizonEnd]];
  const stretches: [number, number][] = [];
  // the latest time at or before `at` when the phase was at the window's start bound
  const opening = p.at - modulo(localTicks(p.at, p.zone) - arc.from, TICKS_PER_DAY);
  for (let open = opening; open <= p.horizonEnd; open += TICKS_PER_DAY) {
    const first = Math.max(open, p.at);
    const last = Math.min(open + arc.length - duration, p.horizonEnd);
    if (first <= last) stretches.push([first, last]);
  }
  return stretches;
}

function scheduled(name: string, start: number, duration: number, zone: number, carbonIntensity?: number): ScheduledTask {
  const result = {
    name,
    status: "SCHEDULED" as const,
    start_unix_ms: start,
    end_unix_ms: start + duration,
    start_phase_deg: localTicks(start, zone) / TICKS_PER_DEGREE,
  };
  return carbonIntensity === undefined ? result : { ...result, carbon_intensity: carbonIntensity };
}

function unschedulable(name: string, reason: NonNullable<ScheduledTask["reason"]>): ScheduledTask {
  return { name, status: "UNSCHEDULABLE", reason };
}

/** The zone-local phase of an instant, in ticks. */
function localTicks(unixMs: number, zone: number): number {
  return modulo(unixMs + zone * TICKS_PER_ZONE, TICKS_PER_DAY);
}

function modulo(value: number, period: number): number {
  const r = value % period;
  return r < 0 ? r + period : r + 0; // + 0 turns -0 into 0
}

/**
 * A window as the arc `allow` tests: from the start bound, `length` ticks
 * forward (both ends included), or the whole cycle.
 */
interface Arc {
  readonly whole: boolean;
  readonly from: number;
  readonly length: number;
}

function checkRequest(request: ScheduleRequest): { tasks: CheckedTask[]; zone: number; horizonHours: number } {
  if (typeof request !== "object" || request === null || Array.isArray(request)) {
    throw new TemporalTypeError("INVALID_SCHEDULE_REQUEST", `request must be an object { tasks, zone?, horizon_hours? }, got ${describeValue(request)}`);
  }
  const { tasks, zone, horizon_hours: horizonHours = DEFAULT_HORIZON_HOURS } = request;
  if (!Array.isArray(tasks) || tasks.length < 1 || tasks.length > MAX_TASKS) {
    throw new TemporalRangeError("INVALID_SCHEDULE_REQUEST", `tasks must be an array of 1..${MAX_TASKS} tasks, got ${describeValue(tasks)}`);
  }
  if (typeof horizonHours !== "number" || !(horizonHours > 0 && horizonHours <= MAX_HORIZON_HOURS)) {
    throw new TemporalRangeError("INVALID_SCHEDULE_REQUEST", `horizon_hours must be a number of hours in (0, ${MAX_HORIZON_HOURS}], got ${describeValue(horizonHours)}`);
  }
  return {
    tasks: tasks.map((task: unknown, i) => checkTask(task, `tasks[${i}]`)),
    zone: zone === undefined ? 0 : parseZone(zone),
    horizonHours,
  };
}

function checkTask(task: unknown, path: string): CheckedTask {
  if (typeof task !== "object" || task === null || Array.isArray(task)) {
    throw new TemporalTypeError("INVALID_SCHEDULE_REQUEST", `${path} must be a task object { name, duration_ms, window, carbon_max? }, got ${describeValue(task)}`);
  }
  const { name, duration_ms: duration, window, carbon_max: carbonMax } = task as ScheduleTask;
  // code points, as JSON Schema's maxLength counts them
  if (typeof name !== "string" || name.length === 0 || [...name].length > MAX_TASK_NAME_LENGTH) {
    throw new TemporalRangeError("INVALID_SCHEDULE_REQUEST", `${path}.name must be a non-empty string of at most ${MAX_TASK_NAME_LENGTH} characters, got ${describeValue(name)}`);
  }
  if (!Number.isInteger(duration) || duration < 1 || duration > MAX_TASK_DURATION_MS) {
    throw new TemporalRangeError("INVALID_SCHEDULE_REQUEST", `${path}.duration_ms must be an integer 1..${MAX_TASK_DURATION_MS}, got ${describeValue(duration)}`);
  }
  if (carbonMax !== undefined && (typeof carbonMax !== "number" || !(carbonMax > 0 && carbonMax < Infinity))) {
    throw new TemporalRangeError("INVALID_SCHEDULE_REQUEST", `${path}.carbon_max must be a finite number of gCO2eq/kWh above 0, got ${describeValue(carbonMax)}`);
  }
  return { name, duration_ms: duration, arc: arcOf(window, `${path}.window`), carbon_max: carbonMax };
}

/** The window's arc, with the bounds rounded to the tick exactly as `allow` does. */
function arcOf(window: unknown, path: string): Arc {
  if (!Array.isArray(window) || window.length !== 2) {
    throw new TemporalRangeError("INVALID_WINDOW", `${path} must be [start_deg, end_deg], got ${describeValue(window)}`);
  }
  const start = boundTicks(window[0], `${path}[0]`);
  const end = boundTicks(window[1], `${path}[1]`);
  if (start === 0 && end === TICKS_PER_DAY) return { whole: true, from: 0, length: TICKS_PER_DAY };
  // 360 is the point 0 except in [0, 360]
  const from = start % TICKS_PER_DAY;
  const to = end % TICKS_PER_DAY;
  const length = modulo(to - from, TICKS_PER_DAY);
  // an arc ending one tick before it starts holds every tick, so no run ever leaves it
  if (length === TICKS_PER_DAY - 1) return { whole: true, from: 0, length: TICKS_PER_DAY };
  return { whole: false, from, length };
}

function boundTicks(degrees: unknown, path: string): number {
  if (typeof degrees !== "number" || !(degrees >= 0 && degrees <= 360)) {
    throw new TemporalRangeError("INVALID_WINDOW", `${path} must be a number of degrees in [0, 360], got ${describeValue(degrees)}`);
  }
  return Math.round(degrees * TICKS_PER_DEGREE);
}
