import { TICKS_PER_DAY, TICKS_PER_ZONE, clockTicks, utcOffsetMinutes } from "@temporal/agent-sdk";

/**
 * Phases as clock time: a zone's local phase of `d` degrees is `d / 15`
 * hours past its midnight, and zone `Zn` keeps UTC + 2n hours (docs/phase.md).
 * A mission anchored to an IANA time zone (`@anchor Europe/Paris`) is read on
 * that zone's wall clock, daylight saving included (the SDK's `clockTicks`).
 */

/** `UTC+2` for Z1, `UTC-4` for Z10 (UTC+20 is UTC-4 on a 24-hour clock), `UTC` for Z0. */
export function utcOffsetLabel(zone: number): string {
  return offsetLabel((zone <= 6 ? 2 * zone : 2 * zone - 24) * 60);
}

/** `UTC+1` for Paris in winter, `UTC+2` in summer, `UTC+5:30` for Asia/Kolkata: the offset of `timeZone` at `unixMs`. */
export function timeZoneOffsetLabel(unixMs: number, timeZone: string): string {
  return offsetLabel(utcOffsetMinutes(timeZone, unixMs));
}

function offsetLabel(offsetMinutes: number): string {
  const minutes = Math.round(Math.abs(offsetMinutes));
  if (minutes === 0) return "UTC";
  const hours = `UTC${offsetMinutes > 0 ? "+" : "-"}${Math.floor(minutes / 60)}`;
  return minutes % 60 === 0 ? hours : `${hours}:${String(minutes % 60).padStart(2, "0")}`;
}

/** The wall-clock time `hh:mm` of an instant in a zone (UTC for Z0). */
export function clockTime(unixMs: number, zone: number): string {
  return hoursAndMinutes((((unixMs + zone * TICKS_PER_ZONE) % TICKS_PER_DAY) + TICKS_PER_DAY) % TICKS_PER_DAY);
}

/** The wall-clock time `hh:mm` of an instant in an IANA time zone: 20:00 in Paris is 19:00 UTC in winter, 18:00 UTC in summer. */
export function timeZoneClockTime(unixMs: number, timeZone: string): string {
  return hoursAndMinutes(clockTicks(unixMs, timeZone));
}

function hoursAndMinutes(ticks: number): string {
  const minutes = Math.floor(ticks / 60_000);
  return `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
}
