import type { AnchorDirective, ClockTimeLiteral, MissionFile, PhaseBound, SourceRange } from "./ast.js";
import type { MissionModel, ResolvedWindow } from "./analyze.js";
import { formatClockTime, paddedClockTime } from "./clock-time.js";
import { replacement, type DiagnosticCode, type DiagnosticDetails, type DiagnosticParams } from "./diagnostics.js";
import { degreesToTicks, TICKS_PER_CYCLE, TICKS_PER_DEGREE } from "./phase-windows.js";
import { closestMatch, closestMatches, onlyClosestMatch } from "./suggest.js";
import { RENAMED_TIME_ZONES, TIME_ZONE_NAMES } from "./time-zone-names.js";
import { clockShifts, inShift, isKnownTimeZone, listedSpelling, TRANSITION_HORIZON, type ClockShift } from "./time-zones.js";

/**
 * The checks of how a file tells time: its `@anchor` (an SWT zone or an
 * IANA time zone), clock-time bounds, and window edges that a
 * daylight-saving change skips or repeats.
 */

/** How a check reports a diagnostic: the checker's reporter, which also collects them. */
export type Report = <C extends DiagnosticCode>(code: C, range: SourceRange, params: DiagnosticParams<C>, details?: DiagnosticDetails<C>) => void;

/** The SWT zones an `@anchor` may name, Z0 to Z11 (the runtime's ZONE_COUNT of two-hour zones): M204's suggestions and completion's list. */
export const SWT_ZONE_CODES: readonly string[] = Array.from({ length: 12 }, (_, n) => `Z${n}`);

/**
 * M204 for a `Z<digits>` (or `z<digits>`) code that is not Z0..Z11; M206 for
 * an IANA name this engine does not know; M207 for one it knows in another
 * letter case than tzdata's; M208 for `Etc/GMT±n`, whose sign is POSIX's.
 */
export function checkAnchors(anchors: readonly AnchorDirective[], report: Report): void {
  for (const { code, zone, timeZone } of anchors) {
    if (code === null || zone !== null) continue;
    if (timeZone === null) {
      const certain = onlyClosestMatch(code.name, SWT_ZONE_CODES);
      report("M204", code.range, { zone: code.name, suggestion: closestMatch(code.name, SWT_ZONE_CODES) }, certain === undefined ? {} : { fixes: [replacement(code.range, certain)] });
    } else if (!isKnownTimeZone(timeZone)) {
      const { suggestion, certain } = timeZoneSuggestion(timeZone);
      report("M206", code.range, { timeZone, suggestion }, certain === undefined ? {} : { fixes: [replacement(code.range, certain)] });
    } else {
      const listed = listedSpelling(timeZone);
      if (listed !== undefined) report("M207", code.range, { timeZone, listed }, { fixes: [replacement(code.range, listed)] });
      const posix = /^etc\/gmt([+-])(\d+)$/i.exec(timeZone);
      if (posix !== null) report("M208", code.range, { timeZone, offset: `UTC${posix[1] === "+" ? "−" : "+"}${posix[2]}` });
    }
  }
}

/**
 * The name closest to a misspelt one, and whether it is the only one that
 * close (then a fix may write it): SWT codes and IANA names by edit distance
 * (`Europe/Pari`, `utc`), else IANA names by their city (`Paris`, `new_york`).
 */
function timeZoneSuggestion(name: string): { suggestion?: string; certain?: string } {
  const { candidates, byCity } = zoneSuggestionLists();
  const matches = closestMatches(name, candidates);
  if (matches.length > 0) return { suggestion: currentName(matches[0]), certain: matches.length === 1 ? currentName(matches[0]) : undefined };
  const city = byCity.has(name) ? name : onlyClosestMatch(name, [...byCity.keys()]);
  const zone = city === undefined ? undefined : byCity.get(city);
  return zone === undefined ? {} : { suggestion: zone, certain: zone };
}

/** Old names are candidates too (`Asia/Calcuta`), suggested as their new name. */
function currentName(zone: string | undefined): string | undefined {
  return zone === undefined ? undefined : (RENAMED_TIME_ZONES.get(zone) ?? zone);
}

let suggestionLists: { readonly candidates: readonly string[]; readonly byCity: ReadonlyMap<string, string> } | undefined;

/** What M206 suggests from, built on the first unknown name rather than on every one (or at start-up). */
function zoneSuggestionLists(): NonNullable<typeof suggestionLists> {
  if (suggestionLists === undefined) {
    const cityOf = (zone: string) => zone.slice(zone.lastIndexOf("/") + 1);
    suggestionLists = {
      candidates: [...SWT_ZONE_CODES, ...TIME_ZONE_NAMES, ...RENAMED_TIME_ZONES.keys()],
      byCity: new Map([...TIME_ZONE_NAMES.map((zone) => [cityOf(zone), zone] as const), ...[...RENAMED_TIME_ZONES].map(([old, renamed]) => [cityOf(old), renamed] as const)]),
    };
  }
  return suggestionLists;
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
  const padded = paddedClockTime(bound.raw);
  report("M304", bound.range, { text: bound.raw, padded }, padded === undefined ? {} : { fixes: [replacement(bound.range, padded)] });
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
      const skipped = shifts.find((shift) => skipsWholeWindow(window, shift));
      if (skipped !== undefined) {
        reportEdge(window, "start", timeZone, skipped, "it does not open at all: the clock skips the whole window", report);
        continue;
      }
      checkEdge(window, "start", timeZone, shifts, report);
      checkEdge(window, "end", timeZone, shifts, report);
    }
  }
}

function checkEdge(window: ResolvedWindow, edge: "start" | "end", timeZone: string, shifts: readonly ClockShift[], report: Report): void {
  const ticks = degreesToTicks(window.normalized![edge]) % TICKS_PER_CYCLE;
  const shift = shifts.find((s) => inShift(ticks, s) && !(ticks === s.from && (edge === "end" || s.kind === "overlap")));
  if (shift === undefined) return;
  const to = clockOf(shift.to);
  const verb = edge === "start" ? "opens" : "closes";
  const thatDay = shift.kind === "overlap" ? `it ${verb} twice` : edge === "start" ? `it opens at ${to}` : `it closes when clocks jump to ${to}`;
  reportEdge(window, edge, timeZone, shift, thatDay, report);
}

/** Whether a gap skips every time of the window (`[02:00, 02:30]` in Paris), so that day it never opens. */
function skipsWholeWindow(window: ResolvedWindow, shift: ClockShift): boolean {
  if (shift.kind !== "gap") return false;
  // Both edges as distances past the gap's start, going forward through the day.
  const sinceGap = (edge: "start" | "end") => (degreesToTicks(window.normalized![edge]) - shift.from + 2 * TICKS_PER_CYCLE) % TICKS_PER_CYCLE;
  const start = sinceGap("start");
  const end = sinceGap("end");
  return start < end && end <= shift.to - shift.from;
}

function reportEdge(window: ResolvedWindow, edge: "start" | "end", timeZone: string, shift: ClockShift, thatDay: string, report: Report): void {
  const ticks = degreesToTicks(window.normalized![edge]) % TICKS_PER_CYCLE;
  const bound = window.requirement[edge];
  const time = formatClockTime(ticks / TICKS_PER_DEGREE)!;
  const verb = edge === "start" ? "opens" : "closes";
  const from = clockOf(shift.from);
  const to = clockOf(shift.to);
  report("M305", bound.range, {
    verb,
    written: bound.raw === time ? `\`${time}\`` : `\`${bound.raw}\` (${time})`,
    shift: shift.kind,
    timeZone,
    from,
    to,
    firstDate: shift.firstDate,
    thatDay,
    horizon: `${year(TRANSITION_HORIZON.from)} to ${year(TRANSITION_HORIZON.to) - 1}`,
  });
}

/** A shift's end as a clock time: `24:00` for the end of the day, as people say "at 24:00 clocks go back to 23:00". */
function clockOf(ticks: number): string {
  return formatClockTime((ticks === TICKS_PER_CYCLE ? ticks : ticks % TICKS_PER_CYCLE) / TICKS_PER_DEGREE)!;
}

function year(unixMs: number): number {
  return new Date(unixMs).getUTCFullYear();
}
