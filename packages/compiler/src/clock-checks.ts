import type { AnchorDirective, ClockTimeLiteral, MissionFile, PhaseBound, SourceRange } from "./ast.js";
import type { MissionModel, ResolvedWindow } from "./analyze.js";
import { formatClockTime, paddedClockTime } from "./clock-time.js";
import { replacement, type DiagnosticCode, type DiagnosticDetails } from "./diagnostics.js";
import { degreesToTicks, TICKS_PER_CYCLE, TICKS_PER_DEGREE } from "./phase-windows.js";
import { closestMatch, onlyClosestMatch } from "./suggest.js";
import { clockShifts, inShift, isKnownTimeZone, timeZoneNames, TRANSITION_HORIZON, type ClockShift } from "./time-zones.js";

/**
 * The checks of how a file tells time: its `@anchor` (an SWT zone or an
 * IANA time zone), clock-time bounds, and window edges that a
 * daylight-saving change skips or repeats.
 */

type Report = (code: DiagnosticCode, range: SourceRange, message: string, details?: DiagnosticDetails) => void;

const ZONE_CODES = Array.from({ length: 12 }, (_, n) => `Z${n}`);
const ANCHOR_FORMS = "An anchor is an SWT zone, Z0 to Z11, or an IANA time zone such as `Europe/Paris`";

/** M204 for a `Z<digits>` (or `z<digits>`) code that is not Z0..Z11; M206 for an IANA name this engine does not know. */
export function checkAnchors(anchors: readonly AnchorDirective[], report: Report): void {
  for (const { code, zone, timeZone } of anchors) {
    if (code === null || zone !== null) continue;
    if (timeZone === null) {
      const suggestion = closestMatch(code.name, ZONE_CODES);
      const certain = onlyClosestMatch(code.name, ZONE_CODES);
      report("M204", code.range, `unknown zone \`${code.name}\``, {
        help: suggestion === undefined ? "zones are Z0 to Z11: zone n reads the phase at UTC + 2n hours" : `did you mean \`${suggestion}\`? Zones are Z0 to Z11`,
        ...(certain === undefined ? {} : { fixes: [replacement(code.range, certain)] }),
      });
    } else if (!isKnownTimeZone(timeZone)) {
      const { suggestion, certain } = timeZoneSuggestion(timeZone);
      report("M206", code.range, `unknown time zone \`${timeZone}\``, {
        help: suggestion === undefined ? ANCHOR_FORMS.replace("An", "an") : `did you mean \`${suggestion}\`? ${ANCHOR_FORMS}`,
        ...(certain === undefined ? {} : { fixes: [replacement(code.range, certain)] }),
      });
    }
  }
}

/**
 * The name closest to a misspelt one, and whether it is the only one that
 * close (then a fix may write it): SWT codes and IANA names by edit distance
 * (`Europe/Pari`, `utc`), else IANA names by their city (`Paris`, `new york`).
 */
function timeZoneSuggestion(name: string): { suggestion?: string; certain?: string } {
  const candidates = [...ZONE_CODES, ...timeZoneNames()];
  const suggestion = closestMatch(name, candidates);
  if (suggestion !== undefined) return { suggestion, certain: onlyClosestMatch(name, candidates) };
  const byCity = new Map(timeZoneNames().map((zone) => [zone.slice(zone.lastIndexOf("/") + 1), zone]));
  const city = onlyClosestMatch(name.replace(/ /g, "_"), [...byCity.keys()]);
  const zone = city === undefined ? undefined : byCity.get(city);
  return zone === undefined ? {} : { suggestion: zone, certain: zone };
}

/** M304: a clock time that is not `HH:MM` or `HH:MM:SS` of a real time of day (or `24:00`). */
export function checkClockTimes(ast: MissionFile, report: Report): void {
  for (const mission of ast.missions) {
    for (const item of mission.items) {
      if (item.kind !== "PhaseRequirement") continue;
      for (const bound of [item.start, item.end]) if (isClockTime(bound) && Number.isNaN(bound.value)) reportClockTime(bound, report);
    }
  }
}

function isClockTime(bound: PhaseBound): bound is ClockTimeLiteral {
  return bound.kind === "ClockTime";
}

function reportClockTime(bound: ClockTimeLiteral, report: Report): void {
  const fix = paddedClockTime(bound.raw);
  report("M304", bound.range, `\`${bound.raw}\` is not a clock time`, {
    help:
      fix === undefined
        ? "write HH:MM or HH:MM:SS with two digits each: hours 00 to 23 (or 24:00, the end of the day), minutes and seconds 00 to 59"
        : `did you mean \`${fix}\`? Clock times have two digits a field`,
    ...(fix === undefined ? {} : { fixes: [replacement(bound.range, fix)] }),
  });
}

/**
 * M305: in a file anchored to an IANA time zone, a window that opens or
 * closes at a local time a daylight-saving change skips or repeats, on any
 * change of the ten years `TRANSITION_HORIZON` spans. An edge at the very
 * start of the span is not reported unless it is a start in a gap (which
 * opens an hour late): an end there closes as the clock jumps (`[20:00,
 * 02:00]` in Paris in spring) or reopens for one tick when the clock goes
 * back to it (in autumn), and a start there stays open through the change
 * (`[01:00, 05:00]` in New York when 02:00 goes back to 01:00).
 */
export function checkClockShifts(model: MissionModel, report: Report): void {
  const { timeZone } = model;
  if (timeZone === null || !isKnownTimeZone(timeZone)) return;
  const shifts = clockShifts(timeZone);
  if (shifts.length === 0) return;
  for (const mission of model.missions) {
    for (const window of mission.windows) {
      if (window.normalized === null || window.alwaysOpen || window.start % 360 === window.end % 360) continue;
      checkEdge(window, "start", timeZone, shifts, report);
      checkEdge(window, "end", timeZone, shifts, report);
    }
  }
}

function checkEdge(window: ResolvedWindow, edge: "start" | "end", timeZone: string, shifts: readonly ClockShift[], report: Report): void {
  const ticks = degreesToTicks(window.normalized![edge]) % TICKS_PER_CYCLE;
  const shift = shifts.find((s) => inShift(ticks, s) && !(ticks === s.from && (edge === "end" || s.kind === "overlap")));
  if (shift === undefined) return;
  const bound = window.requirement[edge];
  const verb = edge === "start" ? "opens" : "closes";
  const time = formatClockTime(ticks / TICKS_PER_DEGREE)!;
  const spanStart = clockOf(shift.from);
  const spanEnd = clockOf(shift.to);
  const [what, change, thatDay] =
    shift.kind === "gap"
      ? ["does not exist", `clocks go forward from ${spanStart} to ${spanEnd}`, edge === "start" ? `it opens at ${spanEnd}` : `it closes when clocks jump to ${spanEnd}`]
      : ["happens twice", `clocks go back from ${spanEnd} to ${spanStart}`, `it ${verb} twice`];
  const written = bound.raw === time ? `\`${time}\`` : `\`${bound.raw}\` (${time})`;
  report("M305", bound.range, `the window ${verb} at ${written}, which ${what} in ${timeZone} on the day ${change} (first on ${shift.firstDate}): that day ${thatDay}`, {
    help: `move the bound out of ${spanStart}–${spanEnd}, or anchor the file to an SWT zone (no daylight saving); changes are looked for from ${year(TRANSITION_HORIZON.from)} to ${year(TRANSITION_HORIZON.to) - 1}`,
  });
}

/** A shift's end as a clock time: `24:00` for the end of the day, as people say "at 24:00 clocks go back to 23:00". */
function clockOf(ticks: number): string {
  return formatClockTime((ticks === TICKS_PER_CYCLE ? ticks : ticks % TICKS_PER_CYCLE) / TICKS_PER_DEGREE)!;
}

function year(unixMs: number): number {
  return new Date(unixMs).getUTCFullYear();
}
