import { TemporalRangeError, describeValue } from "../core/errors.js";
import { contextAt } from "../core/phase.js";
import type { Window, ZoneInput } from "../core/types.js";
import { MAX_ABS_UNIX_MS, TICKS_PER_DAY, TICKS_PER_ZONE } from "../core/units.js";
import { allow, windowTicks } from "../core/window.js";
import { parseZone } from "../core/zones.js";

/** One opening of a window as absolute UTC milliseconds, both bounds inclusive. */
export interface UtcInterval {
  readonly start_unix_ms: number;
  readonly end_unix_ms: number;
}

/**
 * The opening of `[a, b]` degrees in zone Zn that starts on UTC day `day`:
 * it ends `b - a` degrees later (on the next day when it wraps). `[0, 360]`,
 * the whole cycle, lasts one day less a tick so that openings never overlap.
 */
export function windowInterval(window: Window, zone: ZoneInput, day: number): UtcInterval {
  const [from, length] = arc(window);
  if (!Number.isSafeInteger(day)) throw new TemporalRangeError("INVALID_TIME", `day must be an integer UTC day index, got ${describeValue(day)}`);
  const utcFrom = (((from - parseZone(zone) * TICKS_PER_ZONE) % TICKS_PER_DAY) + TICKS_PER_DAY) % TICKS_PER_DAY;
  const start = day * TICKS_PER_DAY + utcFrom;
  if (Math.abs(start) > MAX_ABS_UNIX_MS || start + length > MAX_ABS_UNIX_MS) {
    throw new TemporalRangeError("INVALID_TIME", `the opening of window [${window[0]}, ${window[1]}] on day ${day} lies outside the Date range`);
  }
  return { start_unix_ms: start, end_unix_ms: start + length };
}

/** The UTC day whose opening of the window contains `unixMs`, or undefined when the window is closed then. */
export function openingDay(unixMs: number, window: Window, zone: ZoneInput): number | undefined {
  const ctx = contextAt(unixMs, { zone });
  if (!allow(ctx, window)) return undefined;
  const [from] = arc(window);
  const localTicks = (ctx.phi_ticks + ctx.swt_zone * TICKS_PER_ZONE) % TICKS_PER_DAY;
  const elapsed = (localTicks - from + TICKS_PER_DAY) % TICKS_PER_DAY;
  return Math.floor((ctx.unix_ms - elapsed) / TICKS_PER_DAY);
}

/** The window's start in zone-local ticks and its length in ticks, with `allow`'s rules (360 is 0, `[0, 360]` is whole). */
function arc(window: Window): [from: number, length: number] {
  const [start, end] = windowTicks(window);
  if (start === 0 && end === TICKS_PER_DAY) return [0, TICKS_PER_DAY - 1];
  const from = start % TICKS_PER_DAY;
  return [from, ((((end % TICKS_PER_DAY) - from) % TICKS_PER_DAY) + TICKS_PER_DAY) % TICKS_PER_DAY];
}
