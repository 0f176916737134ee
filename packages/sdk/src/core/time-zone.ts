import { contextAt, contextUnixMs, toUnixMs, type ContextOptions } from "./phase.js";
import type { PhaseContext, Window } from "./types.js";
import { TICKS_PER_DAY } from "./units.js";
import { inWindow, startReached, windowTicks } from "./window.js";
import { utcOffsetMinutes, zoneFromUtcOffset } from "./zones.js";

/**
 * Windows read on the local clock of an IANA time zone (`@anchor
 * Europe/Paris`), daylight saving included, through `Intl` (browsers and
 * Node alike). The phase is the zone's wall-clock time of day, 15 degrees an
 * hour; contexts, receipts and tiles use the SWT zone nearest to the zone's
 * UTC offset at the instant (`zoneFromUtcOffset`: round(minutes / 120) mod
 * 12, halves towards the zone ahead, so UTC+1 is Z1, UTC-5 is Z10, +05:30 is
 * Z3, +13 is Z7).
 */

/** The UTC offset of `timeZone` at `unixMs`, in whole milliseconds. */
function offsetMs(timeZone: string, unixMs: number): number {
  return Math.round(utcOffsetMinutes(timeZone, unixMs) * 60_000);
}

function dayTicks(localMs: number): number {
  return ((localMs % TICKS_PER_DAY) + TICKS_PER_DAY) % TICKS_PER_DAY;
}

/** Milliseconds since local midnight on the wall clock of `timeZone` at `unixMs`: 20:00 in Paris is 72,000,000. */
export function clockTicks(unixMs: number, timeZone: string): number {
  return dayTicks(unixMs + offsetMs(timeZone, unixMs));
}

/**
 * The phase context of an instant for a mission anchored to `timeZone`: an
 * ordinary SWT context (as `contextAt`) in the zone nearest to the time
 * zone's UTC offset at that instant, so `swt_zone` and `tile_id` follow
 * daylight saving (Paris: Z1 all year; Sydney: Z5 in winter, Z6 in summer).
 */
export function contextInTimeZone(time: number | Date, timeZone: string, options: Omit<ContextOptions, "zone"> = {}): PhaseContext {
  const unixMs = toUnixMs(time);
  return contextAt(unixMs, { ...options, zone: zoneFromUtcOffset(utcOffsetMinutes(timeZone, unixMs)) });
}

/**
 * True when the wall clock of `timeZone` at `ctx.unix_ms` lies in `window`
 * (degrees of the local day, 15 an hour), with `allow`'s rules for bounds.
 * The context's own zone does not matter: only its instant does. A window
 * edge a daylight-saving change skips is passed over that day (the clock
 * jumps past it); one the change repeats is passed twice.
 */
export function allowInTimeZone(ctx: PhaseContext, window: Window, timeZone: string): boolean {
  const unixMs = contextUnixMs(ctx);
  const [start, end] = windowTicks(window);
  return inWindow(clockTicks(unixMs, timeZone), start, end);
}

/**
 * The least Unix millisecond >= `ctx.unix_ms` at which `allowInTimeZone`
 * holds. Within a stretch of constant offset the clock reaches the window's
 * start as an SWT clock would; when the offset changes first, the search
 * goes on from the change (where the jump may land inside the window, as
 * when the start lies in a skipped hour: the window then opens at the end
 * of the gap). `BEYOND_DATE_RANGE` as `nextOpen`.
 */
export function nextOpenInTimeZone(ctx: PhaseContext, window: Window, timeZone: string): number {
  let at = contextUnixMs(ctx);
  const [start, end] = windowTicks(window);
  // Each round ends at an offset change. An offset equal at both ends of a round is taken as unchanged between: no zone changes twice within a day.
  for (let round = 0; ; round++) {
    const offset = offsetMs(timeZone, at);
    const ticks = dayTicks(at + offset);
    if (inWindow(ticks, start, end)) return at;
    const reached = startReached(at, ticks, start, window);
    if (offsetMs(timeZone, reached) === offset || round === MAX_ROUNDS) return reached;
    at = firstChange(timeZone, at, reached, offset);
  }
}

const MAX_ROUNDS = 8;

/**
 * The first millisecond in `(from, to]` at which `timeZone`'s UTC offset
 * differs from its offset at `from`, found by bisection; `to` when there is
 * none (the caller picks a span in which a zone changes at most once).
 */
export function firstOffsetChange(timeZone: string, from: number, to: number): number {
  return firstChange(timeZone, from, to, offsetMs(timeZone, from));
}

function firstChange(timeZone: string, from: number, to: number, offset: number): number {
  let low = from;
  let high = to;
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (offsetMs(timeZone, middle) === offset) low = middle;
    else high = middle;
  }
  return high;
}
