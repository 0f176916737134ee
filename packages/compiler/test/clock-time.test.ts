import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { analyze, applyFixes, compile, fixAll, formatClockTime, parse, print, windowClockTimes, type Diagnostic } from "../src/index.js";
import { clockTimeDegrees } from "../src/clock-time.js";
import { RENAMED_TIME_ZONES, TIME_ZONE_NAMES } from "../src/time-zone-names.js";
import { validMissionFileArb } from "./arbitraries.js";

const codes = (diagnostics: readonly Diagnostic[]) => diagnostics.map((d) => d.code);

function file(anchor: string, ...windows: string[]): string {
  return `@temporal v4.6.2\n${anchor === "" ? "" : `@anchor ${anchor}\n`}mission m {\n${windows.map((w) => `  require phase ${w}\n`).join("")}  on ALLOW { execute x }\n}\n`;
}

/** Valid clock times, `HH:MM` or `HH:MM:SS`, with `24:00` now and then. */
const clockTimeArb = fc
  .oneof(
    { weight: 20, arbitrary: fc.tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), fc.option(fc.integer({ min: 0, max: 59 }), { nil: undefined })) },
    { weight: 1, arbitrary: fc.constant<[number, number, number | undefined]>([24, 0, undefined]) },
  )
  .map(([h, m, s]) => [h, m, s].flatMap((n) => (n === undefined ? [] : [String(n).padStart(2, "0")])).join(":"));

describe("clock times", () => {
  it("are degrees at 15 an hour, with 24:00 as 360", () => {
    expect(clockTimeDegrees("20:00")).toBe(300);
    expect(clockTimeDegrees("02:00")).toBe(30);
    expect(clockTimeDegrees("09:30")).toBe(142.5);
    expect(clockTimeDegrees("11:45")).toBe(176.25);
    expect(clockTimeDegrees("00:00:01")).toBe(1 / 240);
    expect(clockTimeDegrees("24:00")).toBe(360);
    expect(clockTimeDegrees("24:00:00")).toBe(360);
    for (const bad of ["9:30", "24:01", "24:00:01", "25:00", "20:60", "20:00:60", "020:00", "20:0"]) expect(clockTimeDegrees(bad), bad).toBeNaN();
  });

  it("print back as written from their degrees, and a window's bounds as clock times", () => {
    // Zero seconds are not printed: 20:00:00 prints as 20:00.
    fc.assert(
      fc.property(clockTimeArb, (raw) => {
        expect(formatClockTime(clockTimeDegrees(raw))).toBe(raw.length === 8 && raw.endsWith(":00") ? raw.slice(0, 5) : raw);
      }),
    );
    expect(formatClockTime(1 / 240_000)).toBe("00:00:00.001");
    expect(formatClockTime(360.5)).toBeUndefined();
    expect(windowClockTimes({ start: 300, end: 30 })).toEqual({ start: "20:00", end: "02:00" });
    expect(windowClockTimes({ start: 217.5, end: 360 })).toEqual({ start: "14:30", end: "24:00" });
    expect(windowClockTimes({ start: -1, end: 30 })).toBeUndefined();
  });

  it("compile to exactly the code of their degree forms, in any zone", () => {
    fc.assert(
      fc.property(fc.constantFrom("", "Z1", "Z10", "Europe/Paris", "Asia/Tokyo"), clockTimeArb, clockTimeArb, (anchor, start, end) => {
        const clock = compile(file(anchor, `[${start}, ${end}]`));
        const degrees = compile(file(anchor, `[${clockTimeDegrees(start)}, ${clockTimeDegrees(end)}]`));
        expect(clock.code).toBe(degrees.code);
        expect(codes(clock.diagnostics)).toEqual(codes(degrees.diagnostics));
        const [window] = analyze(clock.ast).missions[0]!.windows;
        expect(window!.ticks).toEqual(analyze(degrees.ast).missions[0]!.windows[0]!.ticks);
      }),
      { numRuns: 200 },
    );
  });

  it("leave SWT-anchored files as they were: allow() on the SWT context, a numeric zone", () => {
    fc.assert(
      fc.property(validMissionFileArb, (ast) => {
        const { code } = compile(print(ast));
        expect(code).toContain("import { allow, defineMission }");
        expect(code).not.toContain("allowInTimeZone");
        expect(code).toMatch(/ {2}zone: \d+,/);
      }),
      { numRuns: 100 },
    );
  });

  it("are checked: two-digit fields and real times (M304), with 9:30 fixed to 09:30", () => {
    const source = file("", "[9:30, 25:00]");
    const { diagnostics } = compile(source);
    expect(codes(diagnostics)).toEqual(["M304", "M304"]);
    expect(diagnostics[0]!.fixes).toEqual([{ title: "write `09:30`", edits: [{ range: diagnostics[0]!.range, newText: "09:30" }] }]);
    expect(diagnostics[1]!.fixes).toBeUndefined();
    expect(applyFixes(source, diagnostics).text).toContain("[09:30, 25:00]");
  });
});

describe("IANA anchors", () => {
  it("parse as time zones, and Z-codes stay SWT zones", () => {
    const zoneOf = (anchor: string) => {
      const model = analyze(parse(file(anchor, "[20:00, 02:00]")).ast);
      return [model.zone, model.timeZone];
    };
    expect(zoneOf("Europe/Paris")).toEqual([null, "Europe/Paris"]);
    expect(zoneOf("America/Argentina/Buenos_Aires")).toEqual([null, "America/Argentina/Buenos_Aires"]);
    expect(zoneOf("Etc/GMT+5")).toEqual([null, "Etc/GMT+5"]);
    expect(zoneOf("UTC")).toEqual([null, "UTC"]);
    expect(zoneOf("Z3")).toEqual([3, null]);
    expect(zoneOf("")).toEqual([0, null]);
  });

  it("compile to allowInTimeZone with the name as written", () => {
    const { code, diagnostics } = compile(file("America/New_York", "[09:30, 16:00]"));
    expect(diagnostics).toEqual([]);
    expect(code).toContain(`import { allowInTimeZone, defineMission } from "@temporal/agent-sdk";`);
    expect(code).toContain(`  zone: "America/New_York",`);
    expect(code).toContain(`if (!allowInTimeZone(ctx, [142.5, 240], "America/New_York"))`);
  });

  it("report unknown names (M206) with the closest name, by spelling or by city", () => {
    const help = (anchor: string) => {
      const [diagnostic] = compile(file(anchor, "[20:00, 02:00]")).diagnostics.filter((d) => d.code === "M206");
      return { help: diagnostic?.help, fix: diagnostic?.fixes?.[0]?.edits[0]?.newText };
    };
    expect(help("Europe/Pariss")).toEqual({ help: expect.stringMatching(/^did you mean `Europe\/Paris`\?/), fix: "Europe/Paris" });
    expect(help("New_York")).toEqual({ help: expect.stringMatching(/^did you mean `America\/New_York`\?/), fix: "America/New_York" });
    expect(help("Mars/Olympus")).toEqual({ help: "an anchor is an SWT zone, Z0 to Z11, or an IANA time zone such as `Europe/Paris`", fix: undefined });
    // Old names suggest the new one, whatever this engine lists (Node 20 lists Asia/Calcutta, not Asia/Kolkata).
    expect(help("Calcutta")).toEqual({ help: expect.stringMatching(/^did you mean `Asia\/Kolkata`\?/), fix: "Asia/Kolkata" });
    expect(help("Asia/Calcuta")).toEqual({ help: expect.stringMatching(/^did you mean `Asia\/Kolkata`\?/), fix: "Asia/Kolkata" });
    expect(help("Kyiv")).toEqual({ help: expect.stringMatching(/^did you mean `Europe\/Kyiv`\?/), fix: "Europe/Kyiv" });
    expect(help("utc")).toEqual({ help: undefined, fix: undefined });
  });

  it("suggest only from the list shipped with the compiler: sorted, canonical, renames pointing into it", () => {
    expect([...TIME_ZONE_NAMES]).toEqual([...TIME_ZONE_NAMES].sort());
    expect(TIME_ZONE_NAMES).toEqual(expect.arrayContaining(["UTC", "Asia/Kolkata", "Europe/Kyiv", "America/Nuuk", "Asia/Ho_Chi_Minh"]));
    expect(TIME_ZONE_NAMES).not.toContain("Asia/Calcutta");
    for (const renamed of RENAMED_TIME_ZONES.values()) expect(TIME_ZONE_NAMES).toContain(renamed);
  });

  it("report a name in another letter case than tzdata's (M207), with a fix to the listed spelling", () => {
    const [diagnostic, ...others] = compile(file("europe/paris", "[20:00, 02:00]")).diagnostics;
    expect(others).toEqual([]);
    expect(diagnostic).toMatchObject({ code: "M207", severity: "warning", message: "`europe/paris` is spelt `Europe/Paris` in the IANA time-zone database" });
    expect(fixAll(file("europe/paris", "[20:00, 02:00]"), "a.mission")).toMatchObject({ text: file("Europe/Paris", "[20:00, 02:00]"), applied: 1, diagnostics: [] });
    expect(codes(compile(file("utc", "[20:00, 02:00]")).diagnostics)).toEqual(["M207"]);
  });

  it("show the real offset of a POSIX-style Etc/GMT name (M208)", () => {
    const messages = (anchor: string) => compile(file(anchor, "[20:00, 02:00]")).diagnostics.map((d) => `${d.code} ${d.message}`);
    expect(messages("Etc/GMT+5")).toEqual(["M208 `Etc/GMT+5` is UTC−5: in `Etc/GMT` names the sign is the opposite of the offset's (POSIX style)"]);
    expect(messages("Etc/GMT-14")).toEqual(["M208 `Etc/GMT-14` is UTC+14: in `Etc/GMT` names the sign is the opposite of the offset's (POSIX style)"]);
    expect(messages("Etc/UTC")).toEqual([]);
  });

  it("warn about window edges in a daylight-saving gap or overlap (M305), whatever today's date", () => {
    const warnings = (anchor: string, window: string) =>
      compile(file(anchor, window))
        .diagnostics.filter((d) => d.code === "M305")
        .map((d) => d.message);
    expect(warnings("Europe/Paris", "[02:30, 05:00]")).toEqual([
      "the window opens at `02:30`, which does not exist in Europe/Paris on the day clocks go forward from 02:00 to 03:00 (first on 2026-03-29): that day it opens at 03:00",
    ]);
    expect(warnings("America/New_York", "[20:00, 01:30]")).toEqual([
      "the window closes at `01:30`, which happens twice in America/New_York on the day clocks go back from 02:00 to 01:00 (first on 2026-11-01): that day it closes twice",
    ]);
    // A window the gap skips entirely: one warning, that it does not open.
    expect(warnings("Europe/Paris", "[02:00, 02:30]")).toEqual([
      "the window opens at `02:00`, which does not exist in Europe/Paris on the day clocks go forward from 02:00 to 03:00 (first on 2026-03-29): that day it does not open at all: the clock skips the whole window",
    ]);
    expect(warnings("Europe/Paris", "[02:15, 03:00]")).toHaveLength(1);
    // Southern hemisphere: Sydney goes back in April and forward in October, both between 02:00 and 03:00.
    expect(warnings("Australia/Sydney", "[37.5, 90]")).toEqual([
      "the window opens at `37.5` (02:30), which happens twice in Australia/Sydney on the day clocks go back from 03:00 to 02:00 (first on 2026-04-05): that day it opens twice",
    ]);
    // Edges that change nothing, zones without daylight saving, and SWT zones: no warning.
    expect(warnings("Europe/Paris", "[20:00, 02:00]")).toEqual([]);
    expect(warnings("America/New_York", "[01:00, 05:00]")).toEqual([]);
    expect(warnings("Asia/Tokyo", "[02:30, 05:00]")).toEqual([]);
    expect(warnings("Z1", "[02:30, 05:00]")).toEqual([]);
  });
});
