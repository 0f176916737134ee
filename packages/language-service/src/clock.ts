import { contextAt, nextOpen, TICKS_PER_DEGREE, TICKS_PER_ZONE } from "@temporal/agent-sdk/core";

/**
 * Degrees of the daily cycle as clock times. A phase in zone Z<n> is the
 * clock time of UTC+2n hours; 1 degree is 4 minutes (one tick is 1 ms).
 * Which instant a phase falls on is the runtime's answer (`nextOpen`),
 * never worked out here.
 */

const MS_PER_MINUTE = 60_000;

/** `20:00`, `09:30`, `14:30:36` (seconds only when there are any), `24:00` for the end of the day. */
export function degreesToClock(degrees: number): string {
  const seconds = Math.round((degrees * TICKS_PER_DEGREE) / 1000);
  const hh = String(Math.floor(seconds / 3600)).padStart(2, "0");
  const mm = String(Math.floor(seconds / 60) % 60).padStart(2, "0");
  const ss = seconds % 60;
  return ss === 0 ? `${hh}:${mm}` : `${hh}:${mm}:${String(ss).padStart(2, "0")}`;
}

/** `Z1 (UTC+2)`. */
export function zoneLabel(zone: number): string {
  const hours = zone * (TICKS_PER_ZONE / 3_600_000);
  const offset = hours > 12 ? hours - 24 : hours;
  return `Z${zone} (UTC${offset === 0 ? "" : offset > 0 ? `+${offset}` : `${offset}`})`;
}

/** The first instant at or after `now` at which the phase in `zone` is `degrees` (0 to 360), by the runtime's `nextOpen`. */
export function nextInstantAt(degrees: number, zone: number, now: Date): number {
  return nextOpen(contextAt(now, { zone }), [degrees, degrees]);
}

/** An instant's clock time (`HH:MM`) in an IANA time zone. */
export function clockIn(timeZone: string, instant: number): string {
  return formatterFor(timeZone).format(instant);
}

/** Minutes as `35 min`, `2 h 5 min`, `1 d 3 h`. */
export function durationText(ms: number): string {
  const minutes = Math.max(1, Math.ceil(ms / MS_PER_MINUTE));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
  return hours % 24 === 0 ? `${Math.floor(hours / 24)} d` : `${Math.floor(hours / 24)} d ${hours % 24} h`;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The IANA zone this runtime is in (a browser's or the machine's), UTC when it cannot tell. */
export function systemTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone ?? "UTC";
}
