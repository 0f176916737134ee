import { PhaseWindowError, TemporalError, TemporalRangeError, describeValue } from "./errors.js";
import { contextUnixMs, localTicks } from "./phase.js";
import type { PhaseContext, Window } from "./types.js";
import { MAX_ABS_UNIX_MS, TICKS_PER_DAY, TICKS_PER_DEGREE } from "./units.js";

/**
 * True when the zone-local phase of `ctx` lies in `window`. Bounds are
 * inclusive and rounded to the nearest tick, 360 is the same point as 0
 * (except that `[0, 360]` is the whole cycle), and `start > end` wraps
 * through 0. Hot path: no allocation, integer comparisons only.
 */
export function allow(ctx: PhaseContext, window: Window): boolean {
  const ticks = localTicks(ctx);
  const [start, end] = windowTicks(window);
  return inWindow(ticks, start, end);
}

/**
 * Throws `PhaseWindowError` when `allow(ctx, window)` is false, or, in the
 * last day of the Date range, `BEYOND_DATE_RANGE` when the window does not
 * open again before the range ends (see `nextOpen`).
 */
export function enforce(ctx: PhaseContext, window: Window): void {
  if (!allow(ctx, window)) {
    const phaseDeg = localTicks(ctx) / TICKS_PER_DEGREE;
    throw new PhaseWindowError(phaseDeg, [window[0], window[1]], nextOpen(ctx, window));
  }
}

/**
 * The least Unix millisecond >= `ctx.unix_ms` at which `allow` holds. When
 * that instant would lie past the end of the Date range (+8.64e15 ms), where
 * no context or `Date` can represent it: `TemporalError` `BEYOND_DATE_RANGE`.
 */
export function nextOpen(ctx: PhaseContext, window: Window): number {
  const unixMs = contextUnixMs(ctx);
  const ticks = localTicks(ctx);
  const [start, end] = windowTicks(window);
  if (inWindow(ticks, start, end)) return unixMs;
  return startReached(unixMs, ticks, start, window);
}

/**
 * The instant a clock reading `ticks` at `unixMs` reaches the window's start,
 * if it runs on without a jump: the next open tick of a closed window (closed
 * means the phase is outside the arc start -> end, so the arc's start comes
 * first). `BEYOND_DATE_RANGE` past the end of the Date range.
 */
export function startReached(unixMs: number, ticks: number, start: number, window: Window): number {
  const next = unixMs + (((start % TICKS_PER_DAY) - ticks + TICKS_PER_DAY) % TICKS_PER_DAY);
  if (next > MAX_ABS_UNIX_MS) {
    throw new TemporalError(
      "BEYOND_DATE_RANGE",
      `window [${window[0]}, ${window[1]}] is closed at phase ${ticks / TICKS_PER_DEGREE} deg (${new Date(unixMs).toISOString()}) and does not open again before the Date range ends at ${new Date(MAX_ABS_UNIX_MS).toISOString()}`,
    );
  }
  return next;
}

/** A window's bounds in ticks, rounded to the nearest; `INVALID_WINDOW` for anything but two numbers in [0, 360]. */
export function windowTicks(window: Window): [start: number, end: number] {
  assertWindowShape(window);
  return [boundTicks(window[0], "start"), boundTicks(window[1], "end")];
}

/** Whether a phase in ticks lies in the window `[start, end]` (ticks), with `allow`'s rules. */
export function inWindow(ticks: number, start: number, end: number): boolean {
  if (start === 0 && end === TICKS_PER_DAY) return true;
  const from = start === TICKS_PER_DAY ? 0 : start;
  const to = end === TICKS_PER_DAY ? 0 : end;
  return from <= to ? ticks >= from && ticks <= to : ticks >= from || ticks <= to;
}

function assertWindowShape(window: Window): void {
  if (!Array.isArray(window) || window.length !== 2) {
    throw new TemporalRangeError("INVALID_WINDOW", `window must be [start_deg, end_deg], got ${describeValue(window)}`);
  }
}

function boundTicks(degrees: number, name: "start" | "end"): number {
  if (typeof degrees !== "number" || !(degrees >= 0 && degrees <= 360)) {
    throw new TemporalRangeError("INVALID_WINDOW", `window ${name} must be a number of degrees in [0, 360], got ${describeValue(degrees)}`);
  }
  return Math.round(degrees * TICKS_PER_DEGREE);
}
