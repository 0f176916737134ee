import { TICKS_PER_CYCLE, degreesToTicks } from "./phase-windows.js";

/**
 * Clock times in windows: `20:00` is 300 degrees of the anchored zone's day
 * (15 degrees an hour). Written `HH:MM` or `HH:MM:SS`, two digits a field,
 * hours 00 to 24, minutes and seconds 00 to 59; `24:00` (and `24:00:00`) is
 * the end of the day, 360 degrees, as a bound of 360 is. No fractions of a
 * second: a bound that needs them is written in degrees.
 */

const CLOCK_TIME = /^(\d{2}):(\d{2})(?::(\d{2}))?$/;
const SECONDS_PER_DEGREE = 240;
const MS_PER_MINUTE = 60_000;

/** The degrees of a clock time as written, or NaN when it is not a valid one (the checker reports it, M304). */
export function clockTimeDegrees(raw: string): number {
  const match = CLOCK_TIME.exec(raw);
  if (match === null) return Number.NaN;
  const [hours, minutes, seconds] = [match[1], match[2], match[3] ?? "00"].map(Number) as [number, number, number];
  if (hours > 24 || minutes > 59 || seconds > 59 || (hours === 24 && minutes + seconds > 0)) return Number.NaN;
  return (hours * 3600 + minutes * 60 + seconds) / SECONDS_PER_DEGREE;
}

/** `9:30` as `09:30`: the valid clock time a malformed one most likely meant, when padding fields makes one. */
export function paddedClockTime(raw: string): string | undefined {
  const fields = raw.split(":");
  if (fields.some((field) => field.length > 2)) return undefined;
  const padded = fields.map((field) => field.padStart(2, "0")).join(":");
  return padded !== raw && !Number.isNaN(clockTimeDegrees(padded)) ? padded : undefined;
}

/**
 * A point of the daily cycle, in degrees from 0 to 360, as the clock time
 * it is in the anchored zone: `300` is `20:00`, `176.25` is `11:45`, `360`
 * is `24:00`. Seconds appear when not zero, and milliseconds (the tick)
 * when not zero: `0.0041667` is `00:00:01`, 1/240000 degree is
 * `00:00:00.001`. Undefined outside 0 to 360.
 */
export function formatClockTime(degrees: number): string | undefined {
  if (!(degrees >= 0 && degrees <= 360)) return undefined;
  const ticks = degreesToTicks(degrees);
  if (ticks === TICKS_PER_CYCLE) return "24:00";
  const minutes = Math.floor(ticks / MS_PER_MINUTE);
  const ms = ticks % MS_PER_MINUTE;
  const hhmm = `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
  if (ms === 0) return hhmm;
  const seconds = `${hhmm}:${pad(Math.floor(ms / 1000))}`;
  return ms % 1000 === 0 ? seconds : `${seconds}.${String(ms % 1000).padStart(3, "0")}`;
}

function pad(n: number): string {
  return String(n).padStart(2, "0");
}

/**
 * A window's bounds as clock times in the zone it is anchored in (the
 * file's `@anchor`, an SWT zone or an IANA time zone): `[300, 30]` is
 * `{ start: "20:00", end: "02:00" }`. For hovers and inlay hints; undefined
 * when a bound is outside 0 to 360.
 */
export function windowClockTimes(window: { readonly start: number; readonly end: number }): { start: string; end: string } | undefined {
  const start = formatClockTime(window.start);
  const end = formatClockTime(window.end);
  return start === undefined || end === undefined ? undefined : { start, end };
}
