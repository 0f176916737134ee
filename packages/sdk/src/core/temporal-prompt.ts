/**
 * A paragraph describing a phase context in words, to put into an AI
 * prompt (`GET twatch/now` returns it as `prompt`). Language models handle
 * "late afternoon in zone Z2" better than a raw phase number, so the
 * paragraph gives both.
 */

import { localTicks } from "./phase.js";
import { checkedContext } from "./service-results.js";
import type { PhaseContext } from "./types.js";
import { TICKS_PER_DAY, TICKS_PER_DEGREE, TICKS_PER_ZONE } from "./units.js";

const TICKS_PER_HOUR = 3_600_000;
const TICKS_PER_MINUTE = 60_000;
const TICKS_PER_SECOND = 1_000;

/** The eight 45-degree (three-hour) parts of the zone-local day, from zone midnight. */
export const DAY_PARTS = ["night", "early morning", "morning", "late morning", "early afternoon", "late afternoon", "evening", "late evening"] as const;

// 1970-01-01, day index 0, was a Thursday.
const WEEKDAYS = ["Thursday", "Friday", "Saturday", "Sunday", "Monday", "Tuesday", "Wednesday"] as const;

/**
 * One paragraph of the temporal context of `ctx`: UTC time and weekday, day
 * index, zone, zone-local phase and the part of the daily cycle it falls in,
 * UTC phase, tile id and kernel version. Built from integer ticks with fixed
 * English wording and no `Intl` or locale-dependent formatting, so the same
 * context always gives the same text. Degrees are truncated (not rounded) to
 * 0.001, so a phase just below 360 never prints as 360.
 */
export function temporalPrompt(ctx: PhaseContext): string {
  const c = checkedContext(ctx);
  const local = localTicks(c);
  const part = Math.floor(local / (45 * TICKS_PER_DEGREE));
  return (
    `Temporal context (kernel ${c.kernel_version}): the time is ${c.utc} (UTC), a ${weekday(c.day_index)}, ` +
    `UTC day index ${c.day_index} (whole days since 1970-01-01). ` +
    `In SWT zone Z${c.swt_zone} (local phase = UTC phase + ${c.swt_zone * 30} degrees, nominally ${zoneOffset(c.swt_zone)}) ` +
    `the local phase is ${degrees(local)} of 360 degrees (zone time ${clock(local)}), ` +
    `which is the ${DAY_PARTS[part]} part of the daily cycle (${part * 45}-${part * 45 + 45} degrees, ` +
    `${pad2(part * 3)}:00-${pad2(part * 3 + 3)}:00 zone time; 0 degrees is zone midnight, 90 is 06:00, 180 is noon, 270 is 18:00). ` +
    `The UTC phase is ${degrees(c.phi_ticks)} degrees. ` +
    `Tile id ${c.tile_id} (day index * 12 + zone). ` +
    `One degree of phase is 4 minutes; phase windows are checked in whole milliseconds.`
  );
}

function weekday(dayIndex: number): string {
  return WEEKDAYS[((dayIndex % 7) + 7) % 7]!;
}

/** Zone n is 2n hours ahead of UTC; shown within (-12 h, +12 h] as a person would say it (Z10 is UTC-4h). */
function zoneOffset(zone: number): string {
  const hours = (zone * TICKS_PER_ZONE) / TICKS_PER_HOUR;
  const signed = hours > 12 ? hours - 24 : hours;
  return signed === 0 ? "UTC" : `UTC${signed > 0 ? "+" : "-"}${Math.abs(signed)}h`;
}

/** Ticks of a phase as degrees truncated to 0.001, always with three decimals. */
function degrees(ticks: number): string {
  const whole = Math.floor(ticks / TICKS_PER_DEGREE);
  const thousandths = Math.floor((ticks - whole * TICKS_PER_DEGREE) / (TICKS_PER_DEGREE / 1000));
  return `${whole}.${String(thousandths).padStart(3, "0")}`;
}

/** Ticks since zone midnight as `HH:MM:SS`. */
function clock(ticks: number): string {
  const t = ticks % TICKS_PER_DAY;
  const h = Math.floor(t / TICKS_PER_HOUR);
  const m = Math.floor((t % TICKS_PER_HOUR) / TICKS_PER_MINUTE);
  const s = Math.floor((t % TICKS_PER_MINUTE) / TICKS_PER_SECOND);
  return `${pad2(h)}:${pad2(m)}:${pad2(s)}`;
}

function pad2(n: number): string {
  return String(n).padStart(2, "0");
}
