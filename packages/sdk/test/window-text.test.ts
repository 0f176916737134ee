import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { allow, contextAt, parseWindowText, parseZone, parseZoneText } from "../src/core/index.js";
import type { Window } from "../src/core/types.js";

/** A window as a person would type it for `parseWindowText`: `[330, 30]` to `"330,30"`, every bound in plain decimal. */
function formatWindowText(window: Window): string {
  return `${plainDecimal(window[0])},${plainDecimal(window[1])}`;
}

/** `String(n)`, but a tiny number JavaScript writes with an exponent (`1.5e-7`) is spelled out (`0.00000015`): the same digits, so it reads back exactly. */
function plainDecimal(n: number): string {
  const text = String(n);
  const match = /^(\d)(?:\.(\d+))?e-(\d+)$/.exec(text);
  return match === null ? text : `0.${"0".repeat(Number(match[3]) - 1)}${match[1]}${match[2] ?? ""}`;
}

const degrees = fc.double({ min: 0, max: 360, noNaN: true });

describe("parseWindowText", () => {
  it("reads two degrees in 0..360 as start,end, spaces around them allowed", () => {
    expect(parseWindowText("330,30")).toEqual([330, 30]);
    expect(parseWindowText(" 0 , 360 ")).toEqual([0, 360]);
    expect(parseWindowText("12.5,90.25")).toEqual([12.5, 90.25]);
    expect(parseWindowText("360.000,007")).toEqual([360, 7]);
  });

  it.each([
    "330",
    "330,30,60",
    "",
    ",",
    "330,",
    ",30",
    "-1,30",
    "+1,30",
    "1e2,30",
    "0x10,30",
    ".5,30",
    "5.,30",
    "360.001,0",
    "0,400",
    "Infinity,0",
    "NaN,1",
    "330;30",
    "330 30",
    "３３０,30",
  ])("refuses %j", (text) => {
    expect(parseWindowText(text)).toBeUndefined();
  });

  it("reads back every window in 0..360 written as plain decimal text", () => {
    fc.assert(
      fc.property(degrees, degrees, (start, end) => {
        const text = formatWindowText([start, end]);
        // -0 is written and read back as 0: the same degree.
        expect(parseWindowText(text)).toEqual([start + 0, end + 0]);
      }),
      { numRuns: 1000 },
    );
    // Digits far past the point, as the smallest degrees need them.
    expect(parseWindowText(`0.00000015,0.${"0".repeat(323)}5`)).toEqual([1.5e-7, 5e-324]);
  });

  it("accepts only windows the SDK's allow() takes", () => {
    const ctx = contextAt(Date.UTC(2026, 10, 22, 21, 30), { zone: 1 });
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.tuple(fc.double(), fc.double()).map(([a, b]) => `${a},${b}`),
          // Text that parses, so the assertion below is reached on about a third of the runs.
          fc.tuple(degrees, degrees).map(([a, b]) => formatWindowText([a, b])),
        ),
        (text) => {
          const window = parseWindowText(text);
          if (window !== undefined) expect(typeof allow(ctx, window)).toBe("boolean");
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe("parseZoneText", () => {
  it("reads Z0..Z11 and the numbers 0..11, and nothing else", () => {
    for (let zone = 0; zone < 12; zone++) {
      expect(parseZoneText(`Z${zone}`)).toBe(zone);
      expect(parseZoneText(String(zone))).toBe(zone);
    }
    for (const text of ["12", "Z12", "z1", "-1", "1.5", "", " 1", "1 ", "01", "Z01", "007", "Z", "ZZ1", "UTC"]) expect(parseZoneText(text)).toBeUndefined();
  });

  it("reads back Zn for every zone, and agrees with parseZone", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 11 }), (zone) => {
        expect(parseZoneText(`Z${zone}`)).toBe(zone);
      }),
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 4 }), (text) => {
        const zone = parseZoneText(text);
        // parseZone reads "Z1" or the number 1 on its own, an oracle independent of parseZoneText.
        if (zone !== undefined) expect(parseZone(text.startsWith("Z") ? text : Number(text))).toBe(zone);
      }),
      { numRuns: 1000 },
    );
  });
});
