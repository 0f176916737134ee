import { arcsContain, timeUntilText, type DialArc, type FileDial, type HourRing, type MissionDial } from "@temporal/language-service";
import { windowClockTimes } from "@temporal/compiler";
import { timeZoneClockTime } from "./zone-clock.js";

/**
 * A file's dial (`missionDials`) as text for a terminal: per mission a
 * 24-hour bar on the anchored zone's clock, 48 half-hour cells (`█` open
 * the whole half hour, `▒` part of it, `·` closed), a `^` under "now",
 * rows of hour labels for the anchored zone, UTC and the viewer's zone,
 * and a line saying what is next. Colour (green bar, red marker) is only
 * added on top of those characters, so nothing depends on it.
 */

const CELLS = 48;
const CELL_DEG = 360 / CELLS;
const CELL_MINUTES = (24 * 60) / CELLS;
const LABEL_EVERY_HOURS = 3;

const STYLE = { open: "\u001b[32m", now: "\u001b[1;31m", dim: "\u001b[2m", reset: "\u001b[0m" } as const;

export interface TerminalDialOptions {
  color: boolean;
  /** The file's name as given, for the heading. */
  file: string;
}

export function renderDial(dial: FileDial, options: TerminalDialOptions): string {
  const paint = (style: keyof typeof STYLE, text: string) => (options.color ? `${STYLE[style]}${text}${STYLE.reset}` : text);
  // The anchored zone's hours above the bar, UTC's and the viewer's below.
  const rows = dial.rings;
  const local = rows[2]!;
  const labelWidth = Math.max(...rows.map((r) => r.label.length));
  const pad = " ".repeat(labelWidth + 4);
  const nowCell = Math.min(CELLS - 1, Math.floor(dial.nowDeg / CELL_DEG));
  const lines = [
    `${options.file}: anchored in ${dial.zoneLabel}; at ${new Date(dial.at).toISOString()} (${timeZoneClockTime(dial.at, "UTC")} UTC, ${timeZoneClockTime(dial.at, local.label)} ${local.label})`,
  ];
  for (const mission of dial.missions) {
    const bar = cells(mission.arcs)
      .map((cell) => (cell === "·" ? paint("dim", cell) : paint("open", cell)))
      .join("");
    lines.push(
      "",
      `${mission.name}  ${windowsText(mission)}`,
      `  ${rows[0]!.label.padEnd(labelWidth)}  ${hourLabels(rows[0]!)}`,
      `${pad}${bar}`,
      `${pad}${" ".repeat(nowCell)}${paint("now", "^")} now`,
      ...rows.slice(1).map((ring) => `  ${ring.label.padEnd(labelWidth)}  ${hourLabels(ring)}`),
      `  ${statusText(mission, dial)}`,
    );
  }
  if (dial.missions.length === 0) lines.push("", "no mission to show");
  for (const note of dial.dstNotes) lines.push("", `note: ${note.text}`);
  return `${lines.join("\n")}\n`;
}

/** The bar's cells: `█` when the whole half hour is open, `▒` when part of it is, `·` when none is (read to the minute). */
function cells(arcs: readonly DialArc[]): string[] {
  return Array.from({ length: CELLS }, (_, cell) => {
    let open = 0;
    for (let minute = 0; minute < CELL_MINUTES; minute++) if (arcsContain(arcs, (cell * CELL_MINUTES + minute) / 4)) open++;
    return open === CELL_MINUTES ? "█" : open > 0 ? "▒" : "·";
  });
}

/** Every third hour of a ring, each over the cell its hour falls in on the anchored clock; a label that would overlap the previous one is left out. */
function hourLabels(ring: HourRing): string {
  const row = Array<string>(CELLS + 2).fill(" ");
  let free = 0;
  const labelled = ring.hours.filter((h) => h.hour % LABEL_EVERY_HOURS === 0).sort((a, b) => a.deg - b.deg);
  for (const { hour, deg } of labelled) {
    const cell = Math.floor(deg / CELL_DEG + 1e-9);
    if (cell < free) continue;
    const label = String(hour).padStart(2, "0");
    row[cell] = label[0]!;
    row[cell + 1] = label[1]!;
    free = cell + 3;
  }
  return row.join("").trimEnd();
}

function windowsText(mission: MissionDial): string {
  if (mission.windows.length === 0) return "(no phase window: open all day)";
  return mission.windows
    .map(({ startDeg, endDeg }) => {
      // The exact clock times, as `run` and hover write them (`20:00:30`). missionDials gives only normalised bounds
      // (0 to 360; a mission with a bound out of range is left out), and every such bound has a clock time.
      const times = windowClockTimes({ start: startDeg, end: endDeg })!;
      return `[${times.start}, ${times.end}]`;
    })
    .join(" and ");
}

/** `open now, closes at 02:00 Z1 (UTC+2) (00:00 UTC), in 30 min`, or when it opens; measures the dial cannot know are named. */
function statusText(mission: MissionDial, dial: FileDial): string {
  const measures = mission.measures.length === 0 ? "" : `; and only if ${mission.measures.join(" and ")} when it runs`;
  if (mission.alwaysOpen) return `open all day${measures}`;
  if (mission.arcs.length === 0) return "closed: its windows never hold together, so it is never open";
  const now = mission.open ? "open now" : "closed";
  if (mission.next === null) return `${now}${measures}`;
  return `${now}, ${mission.next.kind} at ${mission.next.clock} ${dial.zoneLabel} (${timeZoneClockTime(mission.next.at, "UTC")} UTC), ${timeUntilText(dial.at, mission.next.at)}${measures}`;
}
