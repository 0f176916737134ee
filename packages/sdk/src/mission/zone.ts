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
