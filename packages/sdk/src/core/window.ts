import { PhaseWindowError, TemporalRangeError, describeValue } from "./errors.js";
import { contextUnixMs, localTicks } from "./phase.js";
import type { PhaseContext, Window } from "./types.js";
import { TICKS_PER_DAY, TICKS_PER_DEGREE } from "./units.js";

/**
 * True when the zone-local phase of `ctx` lies in `window`. Bounds are
 * inclusive and rounded to the nearest tick, 360 is the same point as 0
 * (except that `[0, 360]` is the whole cycle), and `start > end` wraps
 * through 0. Hot path: no allocation, integer comparisons only.
 */
export function allow(ctx: PhaseContext, window: Window): boolean {
  const ticks = localTicks(ctx);
  assertWindowShape(window);
  return inWindow(ticks, boundTicks(window[0], "start"), boundTicks(window[1], "end"));
}

/** Throws `PhaseWindowError` when `allow(ctx, window)` is false. */
export function enforce(ctx: PhaseContext, window: Window): void {
  if (!allow(ctx, window)) {
    const phaseDeg = localTicks(ctx) / TICKS_PER_DEGREE;
    throw new PhaseWindowError(phaseDeg, [window[0], window[1]], nextOpen(ctx, window));
  }
}

/** The least Unix millisecond >= `ctx.unix_ms` at which `allow` holds. */
export function nextOpen(ctx: PhaseContext, window: Window): number {
  const unixMs = contextUnixMs(ctx);
  const ticks = localTicks(ctx);
  assertWindowShape(window);
  const start = boundTicks(window[0], "start");
  const end = boundTicks(window[1], "end");
  if (inWindow(ticks, start, end)) return unixMs;
  // Closed means the phase is outside the arc start -> end, so the arc's start is the next open tick.
  return unixMs + (((start % TICKS_PER_DAY) - ticks + TICKS_PER_DAY) % TICKS_PER_DAY);
}

function inWindow(ticks: number, start: number, end: number): boolean {
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
