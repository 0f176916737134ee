import type { MissionInfo, MissionModel } from "@temporal/compiler";
import {
  allow,
  allowInTimeZone,
  contextAt,
  firstOffsetChange,
  missionNextOpenAll,
  TICKS_PER_DAY,
  TICKS_PER_DEGREE,
  utcOffsetMinutes,
  type MissionZone,
  type Window,
} from "@temporal/agent-sdk";
import { degreesToClock, fileZone, phaseAt, zoneLabel } from "./clock.js";
import { dialClockText } from "./dial-text.js";

/**
 * The 24-hour dial of a file's missions as plain data, for `temporalc show`
 * and the playground alike (`dialSvg` draws it). Degrees are those of the
 * anchored zone's clock (0 is midnight there, 15 an hour), as the file's
 * windows are written. Whether a mission is open and when that changes are
 * the runtime's answers (`allow` / `allowInTimeZone`, and `missionNextOpenAll`,
 * which `evaluate` reports `next_open_unix_ms` by); the arcs are the intersection of the mission's
 * windows, since compiled code allows only when every window holds.
 */

export interface DialOptions {
  /** The instant the dial shows ("now"). */
  at: Date | number;
  /** The viewer's IANA time zone, for the ring of local hours. */
  viewerTimeZone: string;
}

/** A file's dial: its anchor, "now", three rings of hours, its missions and the daylight-saving changes ahead. */
export interface FileDial {
  /** The anchor: an SWT zone number or an IANA time zone name. */
  zone: MissionZone;
  /** `Z1 (UTC+2)` or the IANA name. */
  zoneLabel: string;
  /** The instant shown, Unix milliseconds. */
  at: number;
  /** Where "now" is on the anchored clock, degrees in [0, 360). */
  nowDeg: number;
  /** The anchored zone's hours, UTC's and the viewer's, in that order. */
  rings: HourRing[];
  missions: MissionDial[];
  /** For an IANA anchor: its next two daylight-saving changes (within a year of `at`) and what they do to the windows. Empty for SWT zones. */
  dstNotes: DstNote[];
}

export interface HourRing {
  kind: "anchor" | "utc" | "local";
  /** `Z1 (UTC+2)`, `UTC`, or the viewer's IANA zone. */
  label: string;
  /** How far this clock's midnight sits from the anchored clock's at `at`, degrees in [0, 360): an hour's label `h` is at `(15 h + rotationDeg) mod 360`. */
  rotationDeg: number;
  hours: { hour: number; deg: number }[];
}

/** An arc of the anchored clock, `startDeg` to `endDeg` clockwise, bounds included; `endDeg < startDeg` wraps through midnight. */
export interface DialArc {
  startDeg: number;
  endDeg: number;
}

export interface MissionDial {
  name: string;
  /** The mission's `require phase` windows as written (normalised degrees). */
  windows: DialArc[];
  /** What the runtime allows: the intersection of the windows (all day for a mission without one). Empty when they never hold together. */
  arcs: DialArc[];
  /** Open all day. */
  alwaysOpen: boolean;
  /** Whether the windows allow the mission at `at`. */
  open: boolean;
  /** The next change at or after `at`: when it closes (if open) or opens (if closed); null when it never changes. */
  next: DialTransition | null;
  /** Measures decided only when the mission runs (`carbon < 200`), so the dial shows the phase alone. */
  measures: string[];
}

export interface DialTransition {
  kind: "opens" | "closes";
  /** Unix milliseconds. */
  at: number;
  /** The clock time on the anchored clock, `HH:MM`. */
  clock: string;
}

export interface DstNote {
  kind: "forward" | "back";
  /** Unix milliseconds of the change. */
  at: number;
  /** The local date of the change, `YYYY-MM-DD`. */
  date: string;
  /** How far the clocks move, minutes. */
  minutes: number;
  /** In words: what happens and what it does to the windows. */
  text: string;
}

/**
 * The dial of every mission in a checked file's model, at `options.at`.
 * Null when the file's anchor is an IANA name this runtime does not know
 * (the checker reports it). A mission whose windows have unusable bounds
 * (the checker reports them) is left out.
 */
export function missionDials(model: MissionModel, options: DialOptions): FileDial | null {
  const zone = fileZone(model);
  if (zone === undefined) return null;
  const at = typeof options.at === "number" ? options.at : options.at.getTime();
  const nowDeg = roundDeg(phaseAt(at, zone));
  const missions = model.missions.flatMap((mission) => {
    const dial = missionDial(mission, zone, at);
    return dial === undefined ? [] : [dial];
  });
  return {
    zone,
    zoneLabel: zoneLabel(zone),
    at,
    nowDeg,
    rings: [ring("anchor", zoneLabel(zone), 0), ring("utc", "UTC", rotation(nowDeg, at, "UTC")), ring("local", options.viewerTimeZone, rotation(nowDeg, at, options.viewerTimeZone))],
    missions,
    dstNotes: typeof zone === "string" ? dstNotes(zone, at, missions) : [],
  };
}

function missionDial(mission: MissionInfo, zone: MissionZone, at: number): MissionDial | undefined {
  const windows: Window[] = [];
  for (const w of mission.windows) {
    if (w.normalized === null) return undefined;
    windows.push([w.start, w.end]);
  }
  const arcs = allowedArcs(windows);
  const alwaysOpen = arcs.length === 1 && arcs[0]!.startDeg === 0 && arcs[0]!.endDeg === 360;
  const open = windows.every((window) => isOpen(zone, at, window));
  const nextAt = open ? nextClose(zone, at, windows) : missionNextOpenAll(zone, at, windows);
  return {
    name: mission.name,
    windows: mission.windows.map((w) => ({ startDeg: w.normalized!.start, endDeg: w.normalized!.end })),
    arcs,
    alwaysOpen,
    open,
    next: nextAt === undefined ? null : { kind: open ? "closes" : "opens", at: nextAt, clock: dialClockText(phaseAt(nextAt, zone)) },
    measures: [
      ...(mission.carbon === undefined ? [] : [`carbon ${mission.carbon.operator} ${mission.carbon.threshold.raw}`]),
      ...(mission.hsBloch === undefined ? [] : [`hs_bloch ${mission.hsBloch.operator} ${mission.hsBloch.threshold.raw}`]),
    ],
  };
}

/**
 * Whether a point of the anchored day (degrees, 0 to 360) lies on one of
 * the arcs, read to the tick as `allow` reads windows: bounds included,
 * `endDeg < startDeg` wraps through midnight, `[0, 360]` is all day.
 */
export function arcsContain(arcs: readonly DialArc[], degrees: number): boolean {
  const ticks = Math.round(degrees * TICKS_PER_DEGREE) % TICKS_PER_DAY;
  return arcs.some(({ startDeg, endDeg }) => {
    const from = Math.round(startDeg * TICKS_PER_DEGREE);
    const to = endDeg === 360 ? TICKS_PER_DAY - 1 : Math.round(endDeg * TICKS_PER_DEGREE);
    return from <= to ? ticks >= from && ticks <= to : ticks >= from || ticks <= to;
  });
}

/** What compiled code checks: `allow` on an SWT zone's context, `allowInTimeZone` on an IANA zone's clock. */
function isOpen(zone: MissionZone, at: number, window: Window): boolean {
  return typeof zone === "string" ? allowInTimeZone(contextAt(at), window, zone) : allow(contextAt(at, { zone }), window);
}

/**
 * When an open mission closes: the first instant one of its windows is
 * closed, which is when that window's complement (the ticks after its end
 * up to before its start) next opens, by the runtime's own search.
 */
function nextClose(zone: MissionZone, at: number, windows: readonly Window[]): number | undefined {
  const closings = windows.flatMap((window) => {
    const rest = complement(window);
    const closes = rest === undefined ? undefined : missionNextOpenAll(zone, at, [rest]);
    return closes === undefined ? [] : [closes];
  });
  return closings.length === 0 ? undefined : Math.min(...closings);
}

/** The ticks a window leaves closed, as a window; undefined when it is open all day. */
function complement(window: Window): Window | undefined {
  const [start, end] = windowTicksOf(window);
  if (start === 0 && end === TICKS_PER_DAY) return undefined;
  const after = (end + 1) % TICKS_PER_DAY;
  const before = (start + TICKS_PER_DAY - 1) % TICKS_PER_DAY;
  // A wrapping window whose end is the tick before its start covers the whole day.
  if (after === start % TICKS_PER_DAY) return undefined;
  return [after / TICKS_PER_DEGREE, before / TICKS_PER_DEGREE];
}

/** A window's bounds in ticks, rounded to the nearest as `allow` rounds them. */
function windowTicksOf(window: Window): [number, number] {
  return [Math.round(window[0] * TICKS_PER_DEGREE), Math.round(window[1] * TICKS_PER_DEGREE)];
}

type TickSpan = [from: number, to: number];

/** The inclusive spans of the day, in ticks within [0, TICKS_PER_DAY), that a window allows, by `allow`'s rules (360 is 0, `[0, 360]` is all day). */
function spansOf(window: Window): TickSpan[] {
  const [start, end] = windowTicksOf(window);
  if (start === 0 && end === TICKS_PER_DAY) return [[0, TICKS_PER_DAY - 1]];
  const from = start % TICKS_PER_DAY;
  const to = end % TICKS_PER_DAY;
  return from <= to
    ? [[from, to]]
    : ([
        [from, TICKS_PER_DAY - 1],
        [0, to],
      ].sort((a, b) => a[0]! - b[0]!) as TickSpan[]);
}

function intersect(a: readonly TickSpan[], b: readonly TickSpan[]): TickSpan[] {
  const spans: TickSpan[] = [];
  for (const [fromA, toA] of a) {
    for (const [fromB, toB] of b) {
      const from = Math.max(fromA, fromB);
      const to = Math.min(toA, toB);
      if (from <= to) spans.push([from, to]);
    }
  }
  return spans.sort((x, y) => x[0] - y[0]);
}

/** The arcs every window allows at once; a span reaching the end of the day joins one starting at midnight into one arc through midnight. */
function allowedArcs(windows: readonly Window[]): DialArc[] {
  const spans = windows.reduce<TickSpan[]>((kept, window) => intersect(kept, spansOf(window)), [[0, TICKS_PER_DAY - 1]]);
  if (spans.length === 1 && spans[0]![0] === 0 && spans[0]![1] === TICKS_PER_DAY - 1) return [{ startDeg: 0, endDeg: 360 }];
  const first = spans[0];
  const last = spans[spans.length - 1];
  if (spans.length > 1 && first![0] === 0 && last![1] === TICKS_PER_DAY - 1) {
    spans.pop();
    spans[0] = [last![0], first![1]];
  }
  return spans.map(([from, to]) => ({ startDeg: from / TICKS_PER_DEGREE, endDeg: to === TICKS_PER_DAY - 1 ? 360 : to / TICKS_PER_DEGREE }));
}

/** A clock's midnight relative to the anchored clock's, at `at`. */
function rotation(anchorDeg: number, at: number, timeZone: string): number {
  return roundDeg((((anchorDeg - phaseAt(at, timeZone)) % 360) + 360) % 360);
}

function ring(kind: HourRing["kind"], label: string, rotationDeg: number): HourRing {
  return { kind, label, rotationDeg, hours: Array.from({ length: 24 }, (_, hour) => ({ hour, deg: roundDeg((hour * 15 + rotationDeg) % 360) })) };
}

/** Degrees to a millionth: enough for a tick (1/240,000 degree) to show, and stable across engines. */
function roundDeg(degrees: number): number {
  return Math.round(degrees * 1e6) / 1e6;
}

const MS_PER_MINUTE = 60_000;
const WEEK_MS = 7 * 24 * 60 * MS_PER_MINUTE;
const YEAR_MS = 366 * 24 * 60 * MS_PER_MINUTE;

/**
 * The anchor's next two daylight-saving changes (one each way) in the year after `at`. The windows
 * keep their wall-clock times, so after a change they fall at other UTC
 * times; a bound in a skipped hour is passed over that day, one in a
 * repeated hour comes round twice (`allowInTimeZone`'s rules).
 */
function dstNotes(timeZone: string, at: number, missions: readonly MissionDial[]): DstNote[] {
  const notes: DstNote[] = [];
  let before = at;
  let offsetBefore = utcOffsetMinutes(timeZone, before);
  while (before < at + YEAR_MS && notes.length < 2) {
    const after = before + WEEK_MS;
    const offsetAfter = utcOffsetMinutes(timeZone, after);
    if (offsetAfter !== offsetBefore) notes.push(dstNote(timeZone, firstOffsetChange(timeZone, before, after), offsetBefore, offsetAfter, missions));
    before = after;
    offsetBefore = offsetAfter;
  }
  return notes;
}

function dstNote(timeZone: string, change: number, offsetBefore: number, offsetAfter: number, missions: readonly MissionDial[]): DstNote {
  const forward = offsetAfter > offsetBefore;
  const minutes = Math.abs(offsetAfter - offsetBefore);
  const localBefore = change + offsetBefore * MS_PER_MINUTE;
  const date = new Date(localBefore).toISOString().slice(0, 10);
  const amount = minutes % 60 === 0 ? `${minutes / 60} h` : `${minutes} min`;
  // The span of the local clock skipped (forward) or repeated (back), in degrees of the day.
  const spanFrom = degreesOfDay(forward ? localBefore : change + offsetAfter * MS_PER_MINUTE);
  const spanTo = spanFrom + minutes / 4;
  const span = `${degreesToClock(spanFrom)} to ${degreesToClock(spanTo % 360)}`;
  const sentences = [
    forward
      ? `Clocks go forward ${amount} on ${date} (${span} is skipped in ${timeZone}): from then on, the windows open and close ${amount} earlier in UTC.`
      : `Clocks go back ${amount} on ${date} (${span} happens twice in ${timeZone}): from then on, the windows open and close ${amount} later in UTC.`,
  ];
  for (const mission of missions) {
    for (const arc of mission.arcs) {
      if (mission.alwaysOpen) continue;
      if (forward && skipsWholeArc(arc, spanFrom, spanTo)) {
        sentences.push(`${mission.name} does not open that day: the clock skips the whole window, ${degreesToClock(arc.startDeg)} to ${degreesToClock(arc.endDeg)}.`);
        continue;
      }
      for (const [bound, degrees] of [
        ["opens", arc.startDeg],
        ["closes", arc.endDeg],
      ] as const) {
        if (!inSpan(degrees % 360, spanFrom, spanTo)) continue;
        sentences.push(
          forward
            ? `${mission.name} ${bound} at ${degreesToClock(degrees)}, which does not exist that day: the clock jumps past it${bound === "opens" ? ", and the window opens at the end of the gap" : ""}.`
            : `${mission.name} ${bound} at ${degreesToClock(degrees)}, which comes round twice that day.`,
        );
      }
    }
  }
  return { kind: forward ? "forward" : "back", at: change, date, minutes, text: sentences.join(" ") };
}

function degreesOfDay(localMs: number): number {
  return (((localMs % TICKS_PER_DAY) + TICKS_PER_DAY) % TICKS_PER_DAY) / TICKS_PER_DEGREE;
}

/** Whether a gap `[from, to)` of the clock holds the whole arc, so it does not open that day: its end too lies before the gap's end (at the end itself, bounds included, it opens for that instant). */
function skipsWholeArc(arc: DialArc, from: number, to: number): boolean {
  const sinceGap = (degrees: number) => (((degrees - from) % 360) + 360) % 360;
  const start = sinceGap(arc.startDeg);
  const end = sinceGap(arc.endDeg);
  return start < end && end < to - from;
}

/** Whether a point of the day lies in `[from, to)`, `to` possibly past 360. */
function inSpan(degrees: number, from: number, to: number): boolean {
  return (degrees >= from && degrees < to) || degrees + 360 < to;
}
