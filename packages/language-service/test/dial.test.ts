import { diagnose } from "@temporal/compiler";
import { allow, allowInTimeZone, contextAt, defineMission, KERNEL_VERSION, TICKS_PER_DAY, TICKS_PER_DEGREE, type MissionZone, type Window } from "@temporal/agent-sdk";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { arcsContain, dialSvg, missionDials, dialClockText, timeUntilText, type DialArc, type FileDial } from "../src/index.js";

/**
 * The dial against brute force: what it says is open, and when that
 * changes, is what the runtime answers instant by instant.
 */

const IANA_ZONES = ["Europe/Paris", "America/New_York", "Australia/Sydney", "Asia/Kolkata", "America/Santiago", "UTC"] as const;
const ZONES: readonly MissionZone[] = [...Array.from({ length: 12 }, (_, n) => n), ...IANA_ZONES];
const FIVE_MINUTES = 300_000;
const STEP = FIVE_MINUTES / 2;
// Days around daylight-saving changes (Europe, the US, Sydney, Santiago) and an ordinary one.
const BASES = ["2027-03-27T12:00:00Z", "2027-10-30T12:00:00Z", "2027-03-13T12:00:00Z", "2027-04-03T00:00:00Z", "2027-10-02T00:00:00Z", "2027-09-04T00:00:00Z", "2026-11-25T00:00:00Z"].map(
  Date.parse,
);

/** Bounds on five-minute marks (1.25 degrees), so that every opening and closing falls on a mark or a millisecond after one. */
const bound = fc.integer({ min: 0, max: 288 }).map((n) => n * 1.25);
const windowArb = fc.oneof({ weight: 8, arbitrary: fc.tuple(bound, bound) }, { weight: 1, arbitrary: fc.constant<[number, number]>([0, 360]) });
const instantArb = fc.tuple(fc.constantFrom(...BASES), fc.integer({ min: 0, max: 2 * 288 })).map(([base, k]) => base + k * FIVE_MINUTES);

function source(zone: MissionZone, windows: readonly Window[]): string {
  const anchor = typeof zone === "string" ? zone : `Z${zone}`;
  const requires = windows.map(([start, end]) => `  require phase [${start}, ${end}]\n`).join("");
  return `@temporal v4.6.2\n@anchor ${anchor}\nmission m {\n${requires}  on ALLOW { execute work }\n}\n`;
}

function dialOf(zone: MissionZone, windows: readonly Window[], at: number, viewerTimeZone = "UTC"): FileDial {
  // Windows that never overlap are an error (M303), yet the dial still shows them: the playground draws files being edited.
  const { model } = diagnose(source(zone, windows), "m.mission");
  const dial = missionDials(model, { at, viewerTimeZone });
  expect(dial).not.toBeNull();
  return dial!;
}

/** The runtime's answer at one instant: every window allows it. */
function runtimeAllows(zone: MissionZone, windows: readonly Window[], at: number): boolean {
  return windows.every((window) => (typeof zone === "string" ? allowInTimeZone(contextAt(at), window, zone) : allow(contextAt(at, { zone }), window)));
}

/** Whether a point of the anchored day (ticks) lies on one of the arcs, read as the dial documents them. */
function onArcs(arcs: readonly DialArc[], ticks: number): boolean {
  return arcs.some(({ startDeg, endDeg }) => {
    if (startDeg === 0 && endDeg === 360) return true;
    const from = Math.round(startDeg * TICKS_PER_DEGREE);
    const to = endDeg === 360 ? TICKS_PER_DAY - 1 : Math.round(endDeg * TICKS_PER_DEGREE);
    return from <= to ? ticks >= from && ticks <= to : ticks >= from || ticks <= to;
  });
}

/** `allow` at a point of the day: the context of Z0 at that many milliseconds after the epoch's midnight has exactly that phase. */
function windowsAllowPhase(windows: readonly Window[], ticks: number): boolean {
  return windows.every((window) => allow(contextAt(ticks, { zone: 0 }), window));
}

/** The arcs as the SVG carries them, read back from its `data-*` attributes. */
function svgArcs(svg: string): (DialArc & { mission: string })[] {
  return [...svg.matchAll(/<path [^>]*data-mission="([^"]*)" data-start-deg="([^"]*)" data-end-deg="([^"]*)"/g)].map(([, mission, start, end]) => ({
    mission: mission!,
    startDeg: Number(start),
    endDeg: Number(end),
  }));
}

describe("missionDials against the runtime", () => {
  it("open at t, the arcs and the next transition agree with allow / allowInTimeZone, evaluate and a scan every 2.5 minutes", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ZONES), fc.array(windowArb, { minLength: 1, maxLength: 3 }), instantArb, async (zone, windows, at) => {
        const dial = dialOf(zone, windows, at);
        const [mission] = dial.missions;
        const open = runtimeAllows(zone, windows, at);
        expect(mission!.open).toBe(open);

        // The runtime's own evaluate (what compiled code runs) decides the same, and finds the same next opening.
        const runtime = defineMission({
          name: "m",
          kernel_version: KERNEL_VERSION,
          zone,
          requires: { phase: [...windows], carbon: null, hs_bloch: null },
          check: (ctx) => (runtimeAllows(zone, windows, ctx.unix_ms) ? [] : ["PHASE_OUTSIDE_WINDOW"]),
          on: { ALLOW: [], DENY: [] },
        });
        const decision = await runtime.evaluate({ clock: () => new Date(at) });
        expect(decision.verdict).toBe(open ? "ALLOW" : "DENY");
        if (!open) expect(mission!.next?.at ?? null).toBe(decision.next_open_unix_ms ?? null);

        // The arcs, in the SVG too, hold exactly the points of the day every window allows: at random points and a tick either side of each bound.
        const arcs = svgArcs(dialSvg(dial)).filter((a) => a.mission === "m");
        expect(arcs.map(({ startDeg, endDeg }) => ({ startDeg, endDeg }))).toEqual(mission!.arcs);
        const points = [...windows.flatMap(([s, e]) => [s, e].flatMap((d) => [-1, 0, 1].map((t) => Math.round(d * TICKS_PER_DEGREE) + t))), 0, TICKS_PER_DAY - 1, at % TICKS_PER_DAY];
        for (const ticks of points.map((t) => (t + TICKS_PER_DAY) % TICKS_PER_DAY)) {
          const allowed = windowsAllowPhase(windows, ticks);
          expect(onArcs(arcs, ticks), `tick ${ticks}`).toBe(allowed);
          expect(arcsContain(mission!.arcs, ticks / TICKS_PER_DEGREE), `tick ${ticks}`).toBe(allowed);
        }

        // Brute force: the first point of a 2.5-minute scan where the answer differs; the transition lies in the step before it.
        let flip: number | undefined;
        for (let t = at + STEP; t <= at + 2 * TICKS_PER_DAY + 2 * 3_600_000; t += STEP) {
          if (runtimeAllows(zone, windows, t) !== open) {
            flip = t;
            break;
          }
        }
        if (flip === undefined) expect(mission!.next).toBeNull();
        else {
          expect(mission!.next?.kind).toBe(open ? "closes" : "opens");
          expect(mission!.next!.at).toBeGreaterThan(flip - STEP);
          expect(mission!.next!.at).toBeLessThanOrEqual(flip);
          // Exactly then: the millisecond before still has the old answer.
          expect(runtimeAllows(zone, windows, mission!.next!.at)).toBe(!open);
          expect(runtimeAllows(zone, windows, mission!.next!.at - 1)).toBe(open);
        }
      }),
      { numRuns: 300 },
    );
  }, 60_000);

  it("rings: UTC and the viewer's hours rotated as their clocks stand against the anchored one", () => {
    // 2026-11-22 23:30 UTC is 01:30 in Z1 (UTC+2) and 18:30 in New York (UTC-5).
    const dial = dialOf(1, [[300, 30]], Date.parse("2026-11-22T23:30:00Z"), "America/New_York");
    expect(dial.nowDeg).toBe(22.5);
    expect(dial.rings.map((r) => [r.kind, r.label, r.rotationDeg])).toEqual([
      ["anchor", "Z1 (UTC+2)", 0],
      ["utc", "UTC", 30],
      ["local", "America/New_York", 105],
    ]);
    // UTC's 23:30 sits at the hand: hour 23 at 23 * 15 + 30 - 360 = 15 degrees, half an hour before 22.5.
    expect(dial.rings[1]!.hours[23]).toEqual({ hour: 23, deg: 15 });
    expect(dial.missions[0]).toMatchObject({
      name: "m",
      arcs: [{ startDeg: 300, endDeg: 30 }],
      open: true,
      next: { kind: "closes", clock: "02:00", at: Date.parse("2026-11-23T00:00:00.001Z") },
    });
  });

  it("the intersection of wrapping windows can be two arcs", () => {
    const dial = dialOf(
      0,
      [
        [300, 60],
        [30, 330],
      ],
      Date.parse("2026-11-25T12:00:00Z"),
    );
    expect(dial.missions[0]!.arcs).toEqual([
      { startDeg: 30, endDeg: 60 },
      { startDeg: 300, endDeg: 330 },
    ]);
    expect(dial.missions[0]!.next).toMatchObject({ kind: "opens", clock: "20:00" });
  });

  it("windows that never hold together: no arc, closed, no next opening", () => {
    const dial = dialOf(
      0,
      [
        [0, 30],
        [60, 90],
      ],
      Date.parse("2026-11-25T12:00:00Z"),
    );
    expect(dial.missions[0]).toMatchObject({ arcs: [], open: false, next: null });
    expect(dialSvg(dial)).toContain("never open");
  });

  it("DST notes for an IANA anchor: the next change each way, and a bound in the skipped hour", () => {
    const dial = dialOf("Europe/Paris", [[15, 37.5]], Date.parse("2027-03-01T00:00:00Z"));
    expect(dial.dstNotes.map((n) => [n.kind, n.date, n.minutes])).toEqual([
      ["forward", "2027-03-28", 60],
      ["back", "2027-10-31", 60],
    ]);
    expect(dial.dstNotes[0]!.at).toBe(Date.parse("2027-03-28T01:00:00Z"));
    expect(dial.dstNotes[0]!.text).toContain("Clocks go forward 1 h on 2027-03-28 (02:00 to 03:00 is skipped in Europe/Paris)");
    expect(dial.dstNotes[0]!.text).toContain("1 h earlier in UTC");
    expect(dial.dstNotes[0]!.text).toContain("m closes at 02:30, which does not exist that day");
    expect(dial.dstNotes[1]!.text).toContain("m closes at 02:30, which comes round twice that day");
    expect(dialOf(1, [[15, 37.5]], Date.parse("2027-03-01T00:00:00Z")).dstNotes).toEqual([]);
  });

  it("DST notes: a window the skipped hour holds whole does not open that day, as the runtime decides", () => {
    const day = Date.parse("2027-03-27T22:00:00Z"); // 2027-03-28 00:00 in Paris
    const openMinutes = (window: Window) => Array.from({ length: 23 * 60 }, (_, m) => day + m * 60_000).filter((t) => allowInTimeZone(contextAt(t), window, "Europe/Paris"));
    const skipped = dialOf("Europe/Paris", [[30, 37.5]], Date.parse("2027-03-01T00:00:00Z")).dstNotes[0]!.text;
    expect(openMinutes([30, 37.5])).toEqual([]);
    expect(skipped).toContain("m does not open that day: the clock skips the whole window, 02:00 to 02:30.");
    expect(skipped).not.toContain("opens at the end of the gap");
    // Ending where the gap ends, bounds included, it opens for the instant 03:00 comes: the note says so.
    const touching = dialOf("Europe/Paris", [[30, 45]], Date.parse("2027-03-01T00:00:00Z")).dstNotes[0]!.text;
    expect(openMinutes([30, 45])).toEqual([Date.parse("2027-03-28T01:00:00Z")]);
    expect(touching).toContain("m opens at 02:00, which does not exist that day: the clock jumps past it, and the window opens at the end of the gap.");
  });

  it("an anchor the engine does not know gives no dial", () => {
    const { model } = diagnose("@temporal v4.6.2\n@anchor Europe/Atlantis\nmission m {\n  on ALLOW { execute work }\n}\n", "m.mission");
    expect(missionDials(model, { at: 0, viewerTimeZone: "UTC" })).toBeNull();
  });
});

describe("dialSvg", () => {
  const file = `@temporal v4.6.2
@anchor Europe/Paris
mission backup {
  require phase [20:00, 02:00]
  on ALLOW { execute snapshot }
}
mission report {
  require phase [08:00, 18:00]
  require carbon < 200
  on ALLOW { execute send }
}
`;
  const dial = missionDials(diagnose(file, "show.mission").model, { at: Date.parse("2027-03-27T23:30:00Z"), viewerTimeZone: "America/New_York" })!;

  it("is byte-stable for a fixed input (the golden file is what temporalc show --svg writes for it)", async () => {
    const svg = dialSvg(dial);
    // The instant given as a Date draws the same bytes as the same instant in milliseconds.
    expect(dialSvg(missionDials(diagnose(file, "show.mission").model, { at: new Date(dial.at), viewerTimeZone: "America/New_York" })!)).toBe(svg);
    await expect(svg).toMatchFileSnapshot("__snapshots__/dial.svg");
  });

  it("says in words what is open when, for screen readers and in the legend", () => {
    const svg = dialSvg(dial);
    expect(svg).toMatch(
      /^<svg [^>]*role="img" aria-label="24-hour dial in Europe\/Paris, now 00:30\. backup: open 20:00 to 02:00; open now, closes at 03:00\. report: open 08:00 to 18:00; closed now, opens at 08:00"/,
    );
    expect(svg).toContain("<title>Phase windows in Europe/Paris</title>");
    expect(svg).toContain('data-now-deg="7.5"');
    expect(svg).toContain('<g class="ring" data-ring="local" data-label="America/New_York" data-rotation-deg="75"');
    expect(svg).not.toMatch(/href=|@import|url\((?!#dial-open)/);
  });

  it("colours meet WCAG AA against the background: 4.5:1 for text, 3:1 for the arcs, the track and the hand", () => {
    const svg = dialSvg(dial);
    const background = /<rect width="400" height="\d+" fill="(#[0-9a-f]{6})"\/>/.exec(svg)![1]!;
    const texts = [...svg.matchAll(/<text [^>]*fill="(#[0-9a-f]{6})"/g)].map((m) => m[1]!);
    const graphics = [...svg.matchAll(/<(?:path|line|circle) [^>]*(?:stroke|fill)="(#[0-9a-f]{6})"/g)].map((m) => m[1]!);
    expect(texts.length).toBeGreaterThan(24);
    expect(graphics.length).toBeGreaterThan(3);
    for (const colour of texts) expect(contrast(colour, background), colour).toBeGreaterThanOrEqual(4.5);
    for (const colour of graphics) expect(contrast(colour, background), colour).toBeGreaterThanOrEqual(3);
  });

  it("escapes names and titles", () => {
    expect(dialSvg(dial, { title: 'a <b> & "c"' })).toContain("<title>a &lt;b&gt; &amp; &quot;c&quot;</title>");
  });
});

/** WCAG 2 contrast ratio of two `#rrggbb` colours. */
function contrast(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r, g, bl] = [1, 3, 5].map((i) => {
      const c = parseInt(hex.slice(i, i + 2), 16) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
}

describe("the dial's times in words", () => {
  const minute = 60_000;
  it("say how long until an instant, to the minute shown beside it, rounding the wait up", () => {
    const from = Date.UTC(2026, 0, 1, 21, 59, 30);
    expect(timeUntilText(from, Date.UTC(2026, 0, 1, 22, 0, 0, 1))).toBe("in 1 min");
    expect(timeUntilText(from, from + 35 * minute)).toBe("in 35 min");
    expect(timeUntilText(from, from + 14 * 60 * minute + 40 * minute)).toBe("in 14 h 40 min");
    expect(timeUntilText(from, from + 51 * 60 * minute)).toBe("in 2 d 3 h");
    expect(timeUntilText(from, from + 48 * 60 * minute)).toBe("in 2 d");
    expect(timeUntilText(from, from)).toBe("now");
  });

  it("read the anchored clock at the minute it has reached, the end of the day as 24:00", () => {
    expect(dialClockText(0)).toBe("00:00");
    expect(dialClockText(329.99)).toBe("21:59");
    expect(dialClockText(330)).toBe("22:00");
    expect(dialClockText(359.999)).toBe("23:59");
    expect(dialClockText(360)).toBe("24:00");
  });
});
