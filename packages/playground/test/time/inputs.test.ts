import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { carbonIntensity, hsBlochScore } from "../../../cli/src/run-options.js";
import { dayAround, fromLocalInput, instantAt, localInputValue, sliderValue } from "../../src/time/day-slider.js";
import { readCarbon, readHsBloch } from "../../src/time/measure-input.js";

const accepts = (parse: (text: string) => number, text: string): number | undefined => {
  try {
    return parse(text);
  } catch {
    return undefined;
  }
};

// Texts near the edge of what a number is: digits, points, signs, exponents, hex, spaces.
const numberish = fc.string({ unit: fc.constantFrom("0", "1", "2", "5", "9", ".", "-", "+", "e", "x", " ", "_"), maxLength: 6 });

describe("the measure fields", () => {
  it("accept exactly what temporalc run accepts for --carbon and --hs-bloch, as the same number", () => {
    fc.assert(
      fc.property(numberish, (text) => {
        fc.pre(text.trim() !== "" && text.trim() === text);
        const carbon = readCarbon(text);
        expect(carbon.ok ? carbon.value : undefined).toBe(accepts(carbonIntensity, text));
        const hsBloch = readHsBloch(text);
        expect(hsBloch.ok ? hsBloch.value : undefined).toBe(accepts(hsBlochScore, text));
      }),
    );
  });

  it("read empty as not measured and say what to type otherwise", () => {
    expect(readCarbon("  ")).toEqual({ ok: true, value: null });
    expect(readHsBloch("")).toEqual({ ok: true, value: null });
    expect(readHsBloch("95")).toMatchObject({ ok: false, message: expect.stringContaining("from 0 to 1") });
    expect(readCarbon("-5")).toMatchObject({ ok: false, message: expect.stringContaining("0 or more") });
  });
});

describe("the day slider", () => {
  const savedTz = process.env["TZ"];
  beforeAll(() => {
    process.env["TZ"] = "Europe/Berlin";
  });
  afterAll(() => {
    if (savedTz === undefined) delete process.env["TZ"];
    else process.env["TZ"] = savedTz;
  });

  it("has one step a minute over the local day, 23 or 25 hours on a daylight-saving change", () => {
    expect(dayAround(Date.parse("2026-11-26T12:00:00Z")).minutes).toBe(1440);
    expect(dayAround(Date.parse("2026-03-29T12:00:00Z")).minutes).toBe(1380);
    expect(dayAround(Date.parse("2026-10-25T12:00:00Z")).minutes).toBe(1500);
    expect(dayAround(Date.parse("2026-11-26T12:00:00Z")).start).toBe(Date.parse("2026-11-25T23:00:00Z"));
  });

  it("puts every instant on the step of its minute, and that step back on the minute", () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.parse("2026-01-01T00:00:00Z"), max: Date.parse("2027-12-31T00:00:00Z") }), (instant) => {
        const day = dayAround(instant);
        const value = sliderValue(instant, day);
        expect(value).toBeGreaterThanOrEqual(0);
        expect(value).toBeLessThan(day.minutes);
        expect(instantAt(value, day)).toBe(Math.floor(instant / 60_000) * 60_000);
      }),
    );
  });

  it("writes and reads the date-time field in the viewer's zone", () => {
    const at = Date.parse("2026-11-26T21:30:00Z");
    expect(localInputValue(at)).toBe("2026-11-26T22:30");
    expect(fromLocalInput("2026-11-26T22:30")).toBe(at);
    expect(fromLocalInput("")).toBeUndefined();
    expect(fromLocalInput("26/11/2026 22:30")).toBeUndefined();
  });
});
