import { TICKS_PER_DAY, TICKS_PER_ZONE } from "@temporal/agent-sdk";

/**
 * Phases as clock time: a zone's local phase of `d` degrees is `d / 15`
 * hours past its midnight, and zone `Zn` keeps UTC + 2n hours (docs/phase.md).
 */

/** `UTC+2` for Z1, `UTC-4` for Z10 (UTC+20 is UTC-4 on a 24-hour clock), `UTC` for Z0. */
export function utcOffsetLabel(zone: number): string {
  const hours = zone <= 6 ? 2 * zone : 2 * zone - 24;
  return hours === 0 ? "UTC" : `UTC${hours > 0 ? "+" : "-"}${Math.abs(hours)}`;
}

/** The wall-clock time `hh:mm` of an instant in a zone (UTC for Z0). */
export function clockTime(unixMs: number, zone: number): string {
  const ticks = (((unixMs + zone * TICKS_PER_ZONE) % TICKS_PER_DAY) + TICKS_PER_DAY) % TICKS_PER_DAY;
  const minutes = Math.floor(ticks / 60_000);
  return `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
}

/** `35 min`, `14 h 40 min`, `2 d 3 h`: how long until `to`, rounded up to the minute. */
export function timeUntil(from: number, to: number): string {
  const minutes = Math.ceil((to - from) / 60_000);
  if (minutes <= 0) return "now";
  if (minutes < 60) return `in ${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `in ${hours} h${minutes % 60 === 0 ? "" : ` ${minutes % 60} min`}`;
  return `in ${Math.floor(hours / 24)} d${hours % 24 === 0 ? "" : ` ${hours % 24} h`}`;
}
