import { TemporalError } from "../core/errors.js";
import { contextAt } from "../core/phase.js";
import { clockTicks, contextInTimeZone, nextOpenInTimeZone } from "../core/time-zone.js";
import type { PhaseContext, Window } from "../core/types.js";
import { TICKS_PER_DEGREE } from "../core/units.js";
import { nextOpen } from "../core/window.js";
import type { Decision, MissionZone } from "./types.js";

/**
 * A mission's zone, SWT or IANA, in the three places the runtime needs it:
 * the decision's context, when a window next opens, and what the decision
 * reports of the clock it was made on.
 */

/** The context of an instant for the mission: in its SWT zone, or in the SWT zone nearest to its time zone's offset then. */
export function missionContext(zone: MissionZone, unixMs: number, source: PhaseContext["source"]): PhaseContext {
  return typeof zone === "string" ? contextInTimeZone(unixMs, zone, { source }) : contextAt(unixMs, { zone, source });
}

/** `nextOpen` on the clock the mission's windows are read on. */
export function missionNextOpen(zone: MissionZone, ctx: PhaseContext, window: Window): number {
  return typeof zone === "string" ? nextOpenInTimeZone(ctx, window, zone) : nextOpen(ctx, window);
}

/** `Decision.clock` for a mission anchored to an IANA time zone; nothing for an SWT zone (`ctx.phase_deg` is its clock). */
export function decisionClock(zone: MissionZone, ctx: PhaseContext): Pick<Decision, "clock"> {
  return typeof zone === "string" ? { clock: { time_zone: zone, phase_deg: clockTicks(ctx.unix_ms, zone) / TICKS_PER_DEGREE } } : {};
}

/**
 * The first instant at or after `unixMs` at which every window is open on the mission's clock, as `evaluate` reports
 * it in `next_open_unix_ms`; undefined when none comes before the end of the Date range. Jumping to the latest of the
 * windows' own next openings never passes a common opening, so this converges within a few rounds when one exists.
 */
export function missionNextOpenAll(zone: MissionZone, unixMs: number, windows: readonly Window[]): number | undefined {
  let at = unixMs;
  try {
    for (let round = 0; round <= 4 * windows.length + 4; round++) {
      const here = missionClockContext(zone, at);
      const latest = Math.max(...windows.map((window) => missionNextOpen(zone, here, window)));
      if (latest === at) return at;
      at = latest;
    }
  } catch (error) {
    // In the Date range's last day the window may never open again: no time to give.
    if (error instanceof TemporalError && error.code === "BEYOND_DATE_RANGE") return undefined;
    throw error;
  }
  return undefined;
}

/** A context to search the mission's clock from: its SWT zone's, or any (an IANA clock is read from the instant alone). */
function missionClockContext(zone: MissionZone, unixMs: number): PhaseContext {
  return contextAt(unixMs, typeof zone === "number" ? { zone } : {});
}
