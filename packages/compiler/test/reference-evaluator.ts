import { allow, contextAt } from "@temporal/agent-sdk";
import type { CarbonRequirement, HsBlochRequirement, Mission, MissionFile, PhaseRequirement } from "../src/ast.js";

/**
 * An independent model of a mission's verdict, read straight off the AST:
 * every requirement must hold (not only the strictest one).
 */
export function referenceDecision(file: MissionFile, mission: Mission, unixMs: number, carbon: number | undefined, hsBloch: number | undefined) {
  const anchor = file.directives.find((d) => d.kind === "AnchorDirective");
  const timeZone = anchor?.timeZone ?? null;
  // For an IANA anchor, a UTC context of the zone's wall-clock reading: its phase is the local clock.
  const ctx = timeZone === null ? contextAt(unixMs, { zone: anchor?.zone ?? 0 }) : contextAt(wallClock(unixMs, timeZone));
  const phases = mission.items.filter((i): i is PhaseRequirement => i.kind === "PhaseRequirement");
  const carbons = mission.items.filter((i): i is CarbonRequirement => i.kind === "CarbonRequirement");
  const hsBlochs = mission.items.filter((i): i is HsBlochRequirement => i.kind === "HsBlochRequirement");
  const reasons: string[] = [];
  if (!phases.every((p) => allow(ctx, [p.start.value, p.end.value]))) reasons.push("PHASE_OUTSIDE_WINDOW");
  if (carbons.length > 0) {
    if (carbon === undefined) reasons.push("CARBON_UNKNOWN");
    else if (!carbons.every((c) => (c.operator === "<" ? carbon < c.threshold.value : carbon <= c.threshold.value))) reasons.push("CARBON_ABOVE_THRESHOLD");
  }
  if (hsBlochs.length > 0) {
    if (hsBloch === undefined) reasons.push("HS_BLOCH_UNKNOWN");
    else if (!hsBlochs.every((h) => (h.operator === ">=" ? hsBloch >= h.threshold.value : hsBloch > h.threshold.value))) reasons.push("HS_BLOCH_BELOW_THRESHOLD");
  }
  return { verdict: reasons.length === 0 ? "ALLOW" : "DENY", reasons };
}

/** The wall clock of `timeZone` at `unixMs`, read field by field from `Intl` and written as if it were UTC. */
function wallClock(unixMs: number, timeZone: string): number {
  const format = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
    fractionalSecondDigits: 3,
  });
  const part = Object.fromEntries(format.formatToParts(unixMs).map((p) => [p.type, Number(p.value)]));
  return Date.UTC(part["year"]!, part["month"]! - 1, part["day"], part["hour"], part["minute"], part["second"], part["fractionalSecond"]);
}
