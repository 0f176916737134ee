import { degreesToClock } from "./clock.js";
import { dialClockText } from "./dial-text.js";
import type { DialArc, FileDial, HourRing, MissionDial } from "./dial.js";

/**
 * A file's dial (`missionDials`) as a self-contained SVG: the anchored
 * zone's 24 hours around the outside, UTC's and the viewer's hours inside
 * them (rotated as those clocks stand at the dial's instant), one band per
 * mission with its open arcs, the "now" hand, and a legend in words. The
 * output is a function of the dial alone (fixed viewBox, no fonts or CSS
 * from outside, numbers to two decimals), so the same dial gives the same
 * bytes in Node and in a browser.
 */

export interface DialSvgOptions {
  /** The `<title>`; default `Phase windows in <zone>`. */
  title?: string;
}

const SIZE = 400;
const CENTER = SIZE / 2;
const LEGEND_LINE = 18;
// Radii: the anchored zone's hour labels outermost, then UTC's and the viewer's, then the missions' bands.
const RING_RADII = { anchor: 186, utc: 166, local: 146 } as const;
const BANDS_OUTER = 130;
const BANDS_INNER = 40;
// WCAG AA against the white background (text needs 4.5:1, graphics 3:1): text 17.4:1 and 8.9:1, open arcs 6.6:1, the hand 7.3:1, the closed track's outline 3.5:1.
const COLORS = { background: "#ffffff", text: "#1a1a1a", muted: "#4a4a4a", open: "#00695c", track: "#8a8a8a", now: "#b00020" } as const;

export function dialSvg(dial: FileDial, options: DialSvgOptions = {}): string {
  const title = options.title ?? `Phase windows in ${dial.zoneLabel}`;
  const lines = legendLines(dial);
  const height = SIZE + LEGEND_LINE * lines.length;
  const band = (BANDS_OUTER - BANDS_INNER) / Math.max(1, dial.missions.length);
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${SIZE} ${height}" width="${SIZE}" height="${height}" role="img" aria-label="${escapeXml(description(dial))}" font-family="sans-serif">`,
    `<title>${escapeXml(title)}</title>`,
    `<defs><pattern id="dial-open" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="${COLORS.open}"/><rect width="2" height="6" fill="#ffffff" fill-opacity="0.35"/></pattern></defs>`,
    `<rect width="${SIZE}" height="${height}" fill="${COLORS.background}"/>`,
    ...dial.rings.map(ringSvg),
    ...dial.missions.map((mission, index) => missionSvg(mission, BANDS_OUTER - index * band, BANDS_OUTER - (index + 1) * band + 2)),
    nowHand(dial.nowDeg),
    legend(lines),
    "</svg>",
  ];
  return `${parts.join("\n")}\n`;
}

function ringSvg(ring: HourRing): string {
  const radius = RING_RADII[ring.kind];
  // The anchored zone's hours are all labelled; the inner rings every three hours keep the labels apart.
  const labelled = ring.kind === "anchor" ? ring.hours : ring.hours.filter((h) => h.hour % 3 === 0);
  const size = ring.kind === "anchor" ? 11 : 9;
  const labels = labelled.map(({ hour, deg }) => {
    const [x, y] = point(deg, radius);
    return `<text x="${num(x)}" y="${num(y)}" font-size="${size}" text-anchor="middle" dominant-baseline="central" fill="${ring.kind === "anchor" ? COLORS.text : COLORS.muted}">${String(hour).padStart(2, "0")}</text>`;
  });
  const [nameX, nameY] = point(ring.rotationDeg, radius);
  const name = ring.kind === "anchor" ? "" : `<text x="${num(nameX)}" y="${num(nameY + 10)}" font-size="7" text-anchor="middle" fill="${COLORS.muted}">${escapeXml(ring.label)}</text>`;
  return `<g class="ring" data-ring="${ring.kind}" data-label="${escapeXml(ring.label)}" data-rotation-deg="${num(ring.rotationDeg)}">${labels.join("")}${name}</g>`;
}

function missionSvg(mission: MissionDial, outer: number, inner: number): string {
  const track = `<circle cx="${CENTER}" cy="${CENTER}" r="${num((outer + inner) / 2)}" fill="none" stroke="${COLORS.track}" stroke-width="1" stroke-dasharray="3 3"/>`;
  const arcs = mission.arcs.map(
    (arc) =>
      `<path d="${sector(arc, outer, inner)}" fill="url(#dial-open)" stroke="${COLORS.open}" stroke-width="1" data-mission="${escapeXml(mission.name)}" data-start-deg="${deg(arc.startDeg)}" data-end-deg="${deg(arc.endDeg)}"><title>${escapeXml(`${mission.name}: open ${arcText(arc)}`)}</title></path>`,
  );
  // The name sits on the track in the middle of the longest closed stretch (at midnight when open all day), dark on a white halo so it reads over an arc too.
  const [x, y] = point(nameAngle(mission.arcs), (outer + inner) / 2);
  const name = `<text x="${num(x)}" y="${num(y)}" font-size="9" text-anchor="middle" dominant-baseline="central" fill="${COLORS.text}" stroke="${COLORS.background}" stroke-width="3" paint-order="stroke">${escapeXml(mission.name)}</text>`;
  return `<g class="mission" data-mission="${escapeXml(mission.name)}" data-open="${mission.open}">${track}${arcs.join("")}${name}</g>`;
}

/** The middle of the longest stretch between arcs; midnight when there is none (no arc, or open all day). */
function nameAngle(arcs: readonly DialArc[]): number {
  const sorted = [...arcs].sort((a, b) => a.startDeg - b.startDeg);
  let best = { deg: 0, gap: 0 };
  sorted.forEach((arc, index) => {
    const next = sorted[(index + 1) % sorted.length]!;
    const gap = (((next.startDeg - arc.endDeg) % 360) + 360) % 360;
    if (gap > best.gap) best = { deg: (arc.endDeg + gap / 2) % 360, gap };
  });
  return best.deg;
}

function nowHand(nowDeg: number): string {
  const [x, y] = point(nowDeg, BANDS_OUTER + 4);
  return `<g class="now" data-now-deg="${deg(nowDeg)}"><line x1="${CENTER}" y1="${CENTER}" x2="${num(x)}" y2="${num(y)}" stroke="${COLORS.now}" stroke-width="2.5" stroke-linecap="round"/><circle cx="${CENTER}" cy="${CENTER}" r="4" fill="${COLORS.now}"/></g>`;
}

/** The legend under the dial, wrapped to its width (about 68 characters of 11-pixel text). */
function legendLines(dial: FileDial): string[] {
  const paragraphs = [`now ${dialClockText(dial.nowDeg)} in ${dial.zoneLabel}; filled: open, dashed: closed`, ...dial.missions.map(missionText), ...dial.dstNotes.map((n) => n.text)];
  return paragraphs.flatMap((paragraph) => wrap(paragraph, 68));
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line !== "" && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  return [...lines, line];
}

function legend(lines: readonly string[]): string {
  const texts = lines.map((line, index) => `<text x="8" y="${SIZE + LEGEND_LINE * index + 12}" font-size="11" fill="${COLORS.text}">${escapeXml(line)}</text>`);
  return `<g class="legend">${texts.join("")}</g>`;
}

/** What the dial shows, in words: the SVG's `aria-label`. */
function description(dial: FileDial): string {
  const missions = dial.missions.map(missionText);
  return [`24-hour dial in ${dial.zoneLabel}, now ${dialClockText(dial.nowDeg)}`, ...missions].join(". ");
}

function missionText(mission: MissionDial): string {
  const when = mission.alwaysOpen ? "open all day" : mission.arcs.length === 0 ? "never open (its windows do not overlap)" : `open ${mission.arcs.map(arcText).join(" and ")}`;
  const now = mission.open ? "open now" : "closed now";
  const next = mission.next === null ? "" : `, ${mission.next.kind} at ${mission.next.clock}`;
  return `${mission.name}: ${when}; ${now}${next}`;
}

function arcText(arc: DialArc): string {
  return arc.startDeg === 0 && arc.endDeg === 360 ? "all day" : `${degreesToClock(arc.startDeg)} to ${degreesToClock(arc.endDeg)}`;
}

/** An annular sector clockwise from the arc's start to its end; a whole day is two half rings (one SVG arc cannot close on itself). */
function sector(arc: DialArc, outer: number, inner: number): string {
  const span = (((arc.endDeg - arc.startDeg) % 360) + 360) % 360 || (arc.endDeg === arc.startDeg ? 0 : 360);
  if (span === 360) return `${sector({ startDeg: 0, endDeg: 180 }, outer, inner)} ${sector({ startDeg: 180, endDeg: 360 }, outer, inner)}`;
  const large = span > 180 ? 1 : 0;
  const end = arc.startDeg + span;
  const [x1, y1] = point(arc.startDeg, outer);
  const [x2, y2] = point(end, outer);
  const [x3, y3] = point(end, inner);
  const [x4, y4] = point(arc.startDeg, inner);
  return `M${num(x1)} ${num(y1)}A${num(outer)} ${num(outer)} 0 ${large} 1 ${num(x2)} ${num(y2)}L${num(x3)} ${num(y3)}A${num(inner)} ${num(inner)} 0 ${large} 0 ${num(x4)} ${num(y4)}Z`;
}

/** Midnight at the top, clockwise. */
function point(degrees: number, radius: number): [number, number] {
  const radians = (degrees * Math.PI) / 180;
  return [CENTER + radius * Math.sin(radians), CENTER - radius * Math.cos(radians)];
}

/** Two decimals, never `-0`: byte-stable coordinates. */
function num(value: number): string {
  const rounded = Math.round(value * 100) / 100;
  return String(rounded === 0 ? 0 : rounded);
}

/** Degrees in `data-*` attributes: to a millionth, enough to tell ticks apart. */
function deg(value: number): string {
  const rounded = Math.round(value * 1e6) / 1e6;
  return String(rounded === 0 ? 0 : rounded);
}

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}
