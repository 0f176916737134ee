import { formatClockTime, isKnownTimeZone, type MissionModel } from "@temporal/compiler";
import { clockTicks, contextAt, nextOpen, nextOpenInTimeZone, TICKS_PER_DEGREE, TICKS_PER_ZONE, type MissionZone } from "@temporal/agent-sdk";

/**
 * Clock times of the zone a file is anchored in: an SWT zone Z<n> (the clock
 * of UTC+2n hours) or an IANA time zone (its wall clock, daylight saving
 * included). A phase is that clock's time of day, 15 degrees an hour.
 * Which instant a phase falls on is the runtime's answer (`nextOpen`,
 * `nextOpenInTimeZone`), never worked out here.
 */

/**
 * The zone the file's windows are read in, as the runtime takes it; undefined
 * for an IANA name this runtime does not know (the checker reports it, M206).
 */
export function fileZone(model: MissionModel): MissionZone | undefined {
  if (model.timeZone === null) return model.zone ?? 0;
  return isKnownTimeZone(model.timeZone) ? model.timeZone : undefined;
}

/** A point of the day (0 to 360 degrees) as a clock time: `300` is `20:00`, `360` is `24:00`. */
export function degreesToClock(degrees: number): string {
  return formatClockTime(degrees) ?? `${degrees} degrees`;
}

/** `Z1 (UTC+2)`, or the IANA name. */
export function zoneLabel(zone: MissionZone): string {
  if (typeof zone === "string") return zone;
  const hours = zone * (TICKS_PER_ZONE / 3_600_000);
  const offset = hours > 12 ? hours - 24 : hours;
  return `Z${zone} (UTC${offset === 0 ? "" : offset > 0 ? `+${offset}` : `${offset}`})`;
}

/** Whether the zone's clock is the UTC clock. */
export function isUtc(zone: MissionZone): boolean {
  return zone === 0 || zone === "UTC" || zone === "Etc/UTC";
}

/** The first instant at or after `now` at which the zone's clock reads `degrees` (0 to 360), by the runtime's own search. */
export function nextInstantAt(degrees: number, zone: MissionZone, now: Date): number {
  const window: [number, number] = [degrees, degrees];
  return typeof zone === "string" ? nextOpenInTimeZone(contextAt(now), window, zone) : nextOpen(contextAt(now, { zone }), window);
}

/** The time of day, in degrees, that an instant is on the zone's clock. */
export function phaseAt(instant: number, zone: MissionZone): number {
  return typeof zone === "string" ? clockTicks(instant, zone) / TICKS_PER_DEGREE : contextAt(instant, { zone }).phase_deg;
}

/** An instant's clock time (`HH:MM`) in an IANA time zone. */
export function clockIn(timeZone: string, instant: number): string {
  return formatterFor(timeZone).format(instant);
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

/**
 * The IANA zone this runtime is in (a browser's, or the process's: TZ, else the system's), for the ring of local
 * hours and hover's local times; UTC when the engine cannot name one it knows (an empty TZ gives `Etc/Unknown`).
 */
export function viewerTimeZone(): string {
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return timeZone !== undefined && isKnownTimeZone(timeZone) ? timeZone : "UTC";
}
