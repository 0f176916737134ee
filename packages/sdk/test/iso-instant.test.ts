import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseIsoInstant, requireIsoInstant } from "../src/core/index.js";
import { expectError } from "./helpers.js";

describe("requireIsoInstant", () => {
  it("reads what parseIsoInstant reads, and throws INVALID_TIME exactly where it gives undefined", () => {
    const text = fc.oneof(
      fc.integer({ min: Date.parse("0000-01-02T00:00:00Z"), max: Date.parse("9999-12-30T23:59:59.999Z") }).map((ms) => new Date(ms).toISOString()),
      fc.stringMatching(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2})?(Z|[+-]\d{2}:?\d{2})?)?$/),
    );
    fc.assert(
      fc.property(text, (value) => {
        const ms = parseIsoInstant(value);
        if (ms === undefined) expectError(() => requireIsoInstant(value), "INVALID_TIME", JSON.stringify(value));
        else expect(requireIsoInstant(value)).toBe(ms);
      }),
      { numRuns: 2000 },
    );
  });

  it("says what is wrong and how to write it", () => {
    expectError(() => requireIsoInstant("2026-02-30"), "INVALID_TIME", "no such date: 2026-02 has 28 days");
    expectError(() => requireIsoInstant("2024-02-30T00:00:00Z"), "INVALID_TIME", "no such date: 2024-02 has 29 days");
    expectError(() => requireIsoInstant("2026-04-31T10:00:00Z"), "INVALID_TIME", "2026-04 has 30 days");
    expectError(() => requireIsoInstant("2026-13-01T10:00:00Z"), "INVALID_TIME", "no such month: 13");
    expectError(() => requireIsoInstant("2026-11-22T23:30:00"), "INVALID_TIME", "the time has no zone; add Z for UTC or an offset, e.g. 2026-11-22T23:30:00Z or 2026-11-22T23:30:00+02:00");
    expectError(() => requireIsoInstant("2026-11-22"), "INVALID_TIME", "a date alone is not an instant; add a time and a zone, e.g. 2026-11-22T00:00:00Z");
    expectError(() => requireIsoInstant("2026-11-22T24:00:00Z"), "INVALID_TIME", "no such time of day: 24:00:00");
    expectError(() => requireIsoInstant("2026-11-22T12:00+24:00"), "INVALID_TIME", "no such UTC offset: +24:00");
    expectError(() => requireIsoInstant("tomorrow"), "INVALID_TIME", `"tomorrow" is not an ISO 8601 time with a zone: expected a time such as 2026-11-22T23:30:00Z`);
    expectError(() => requireIsoInstant(1 as unknown as string), "INVALID_TIME", "expected a string");
  });
});
