import { TICKS_PER_CYCLE } from "./phase-windows.js";
import { RENAMED_TIME_ZONES, TIME_ZONE_NAMES } from "./time-zone-names.js";

/**
 * What the checker knows of IANA time zones, read from the engine's `Intl`
 * time-zone data (ICU), which is platform-free: browsers and Node alike.
 *
 * Output stays a function of the input and the compiler's version: the
 * generated code carries the name as written and never anything read from
 * `Intl`, and names are suggested (and fixed) only from the list shipped
 * with the compiler (`time-zone-names.ts`, generated from tzdata by
 * `scripts/time-zone-names.mjs`). Two diagnostics do depend on the engine's
 * tzdata: whether it accepts a name (M206), and M305, whose span of years is
 * fixed but whose daylight-saving rules are the engine's (a country that
 * changes its rules changes the warnings on engines that know it). Engines
 * only ever add names (tzdata keeps renamed zones as links), so a name that
 * checks on one engine checks on newer ones.
 */

const MS_PER_MINUTE = 60_000;

/** The span M305 looks at: the ten years 2026 to 2035, fixed so the same file gets the same warnings on any date. */
export const TRANSITION_HORIZON = { from: Date.UTC(2026, 0, 1), to: Date.UTC(2036, 0, 1) } as const;

/** Offsets are sampled this often; real zones never change offset twice within a week. */
const SCAN_STEP_MS = 7 * 24 * 60 * MS_PER_MINUTE;

const formatters = new Map<string, Intl.DateTimeFormat | null>();

/** The engine's formatter for a zone's wall clock, or null when the engine does not know the name. */
function wallClock(timeZone: string): Intl.DateTimeFormat | null {
  let formatter = formatters.get(timeZone);
  if (formatter === undefined) {
    try {
      formatter = new Intl.DateTimeFormat("en-US", {
        timeZone,
        hourCycle: "h23",
        year: "numeric",
        month: "numeric",
        day: "numeric",
        hour: "numeric",
        minute: "numeric",
      });
    } catch {
      formatter = null;
    }
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Whether this engine's time-zone data has the name (aliases and any letter case included, as `Intl` accepts them). */
export function isKnownTimeZone(timeZone: string): boolean {
  return wallClock(timeZone) !== null;
}

const LISTED_BY_LOWER_CASE = new Map([...TIME_ZONE_NAMES, ...RENAMED_TIME_ZONES.keys()].map((name) => [name.toLowerCase(), name]));

/** The listed spelling of a name that differs from it in letter case only (`europe/paris`), else undefined. */
export function listedSpelling(timeZone: string): string | undefined {
  const listed = LISTED_BY_LOWER_CASE.get(timeZone.toLowerCase());
  return listed === timeZone ? undefined : listed;
}

/** The zone's UTC offset at `instant`, in whole minutes (the wall clock read to the minute, minus UTC). */
function offsetMinutes(formatter: Intl.DateTimeFormat, instant: number): number {
  const part: Record<string, number> = {};
  for (const { type, value } of formatter.formatToParts(instant)) part[type] = Number(value);
  const wall = Date.UTC(part.year!, part.month! - 1, part.day, part.hour, part.minute);
  return Math.round((wall - Math.floor(instant / MS_PER_MINUTE) * MS_PER_MINUTE) / MS_PER_MINUTE);
}

/**
 * A span of the local clock that a daylight-saving change skips (`gap`:
 * clocks go forward, these times do not exist that day) or repeats
 * (`overlap`: clocks go back, these times happen twice), as ticks of the
 * day `[from, to)` (`to` may pass 86,400,000 when the span crosses
 * midnight), with the first day in the horizon it happens on.
 */
export interface ClockShift {
  kind: "gap" | "overlap";
  from: number;
  to: number;
  /** `YYYY-MM-DD`: the local date of the span's first skipped or repeated time, at the first such change in the horizon. */
  firstDate: string;
}

const shiftsByZone = new Map<string, readonly ClockShift[]>();

/** The distinct gaps and overlaps of a known zone's clock in `TRANSITION_HORIZON`, in the order they first happen. */
export function clockShifts(timeZone: string): readonly ClockShift[] {
  const cached = shiftsByZone.get(timeZone);
  if (cached !== undefined) return cached;
  const formatter = wallClock(timeZone);
  const shifts = new Map<string, ClockShift>();
  if (formatter !== null) {
    let before = TRANSITION_HORIZON.from;
    let offsetBefore = offsetMinutes(formatter, before);
    while (before < TRANSITION_HORIZON.to) {
      const after = Math.min(before + SCAN_STEP_MS, TRANSITION_HORIZON.to);
      const offsetAfter = offsetMinutes(formatter, after);
      if (offsetAfter !== offsetBefore) {
        const shift = shiftAt(formatter, before, after, offsetBefore, offsetAfter);
        const key = `${shift.kind} ${shift.from} ${shift.to}`;
        if (!shifts.has(key)) shifts.set(key, shift);
      }
      before = after;
      offsetBefore = offsetAfter;
    }
  }
  const result = [...shifts.values()];
  shiftsByZone.set(timeZone, result);
  return result;
}

/** The change between two instants with different offsets, found to the minute by bisection. */
function shiftAt(formatter: Intl.DateTimeFormat, low: number, high: number, offsetLow: number, offsetHigh: number): ClockShift {
  let lo = Math.floor(low / MS_PER_MINUTE);
  let hi = Math.floor(high / MS_PER_MINUTE);
  // Invariant: the offset at minute `lo` is offsetLow, at minute `hi` it is not.
  while (hi - lo > 1) {
    const middle = Math.floor((lo + hi) / 2);
    if (offsetMinutes(formatter, middle * MS_PER_MINUTE) === offsetLow) lo = middle;
    else hi = middle;
  }
  const change = hi * MS_PER_MINUTE;
  // The local clock just before and just after the change: the skipped or repeated span lies between them.
  const localBefore = change + offsetLow * MS_PER_MINUTE;
  const localAfter = change + offsetHigh * MS_PER_MINUTE;
  const dayTicks = (local: number) => ((local % TICKS_PER_CYCLE) + TICKS_PER_CYCLE) % TICKS_PER_CYCLE;
  const forward = offsetHigh > offsetLow;
  const spanStart = forward ? localBefore : localAfter;
  const from = dayTicks(spanStart);
  return { kind: forward ? "gap" : "overlap", from, to: from + Math.abs(localAfter - localBefore), firstDate: new Date(spanStart).toISOString().slice(0, 10) };
}

/** Whether a point of the day (ticks in `[0, 86,400,000)`) lies in a shift's span. */
export function inShift(ticks: number, shift: ClockShift): boolean {
  return (ticks >= shift.from && ticks < shift.to) || ticks + TICKS_PER_CYCLE < shift.to;
}
