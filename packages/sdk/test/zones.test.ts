import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseZone, zoneFromTimeZone, zoneFromUtcOffset } from "../src/core/index.js";

describe("zones", () => {
  it("maps the documented offsets", () => {
    expect(zoneFromUtcOffset(0)).toBe(0);
    expect(zoneFromUtcOffset(60)).toBe(1);
    expect(zoneFromUtcOffset(-300)).toBe(10);
    expect(zoneFromUtcOffset(330)).toBe(3);
    expect(zoneFromUtcOffset(-60)).toBe(0);
    expect(zoneFromUtcOffset(-61)).toBe(11);
    expect(zoneFromUtcOffset(840)).toBe(7);
    expect(Object.is(zoneFromUtcOffset(-10), 0)).toBe(true);
  });

  it("is round(minutes / 120) mod 12 for every offset", () => {
    fc.assert(
      fc.property(fc.double({ min: -1440, max: 1440, noNaN: true }), (minutes) => {
        const zone = zoneFromUtcOffset(minutes);
        expect(Number.isInteger(zone) && zone >= 0 && zone < 12).toBe(true);
        expect(Math.abs((zone - Math.round(minutes / 120)) % 12)).toBe(0);
      }),
      { numRuns: 500 },
    );
  });

  it.each([Number.NaN, 1441, -Infinity, "60"])("rejects offset %s", (minutes) => {
    expect(() => zoneFromUtcOffset(minutes as number)).toThrow(RangeError);
    expect(() => zoneFromUtcOffset(minutes as number)).toThrow(expect.objectContaining({ code: "INVALID_UTC_OFFSET" }));
  });

  it("reads IANA zones through Intl, following daylight saving", () => {
    expect(zoneFromTimeZone("UTC")).toBe(0);
    expect(zoneFromTimeZone("Asia/Kolkata", new Date("2025-01-15T00:00:00Z"))).toBe(3);
    expect(zoneFromTimeZone("America/New_York", new Date("2025-01-15T00:00:00Z"))).toBe(10);
    expect(zoneFromTimeZone("America/New_York", Date.UTC(2025, 6, 15))).toBe(10); // UTC-4 rounds to -2
    expect(zoneFromTimeZone("Europe/Paris", new Date("2025-01-15T00:00:00Z"))).toBe(1);
    expect(zoneFromTimeZone("Europe/Paris", new Date("2025-07-15T00:00:00Z"))).toBe(1);
    expect(zoneFromTimeZone("Pacific/Kiritimati", new Date("2025-07-15T00:00:00Z"))).toBe(7);
    expect(zoneFromTimeZone("Asia/Tokyo", new Date("2025-07-15T00:00:00Z"))).toBe(5);
  });

  it("rejects unknown time zones and invalid dates, naming them", () => {
    expect(() => zoneFromTimeZone("Mars/Olympus")).toThrow(/"Mars\/Olympus"/);
    expect(() => zoneFromTimeZone("Mars/Olympus")).toThrow(expect.objectContaining({ code: "INVALID_TIME_ZONE" }));
    expect(() => zoneFromTimeZone("")).toThrow(RangeError);
    expect(() => zoneFromTimeZone("UTC", new Date(Number.NaN))).toThrow(expect.objectContaining({ code: "INVALID_TIME" }));
  });

  it("parses zone numbers and codes", () => {
    expect(parseZone(0)).toBe(0);
    expect(parseZone("Z11")).toBe(11);
    expect(() => parseZone("Z01")).toThrow(/"Z01"/);
  });
});
