import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DAY_PARTS, TemporalTypeError, contextAt, temporalPrompt, type PhaseContext } from "../src/core/index.js";

describe("temporalPrompt", () => {
  it("describes the context in one fixed paragraph", () => {
    const ctx = contextAt(Date.UTC(2026, 10, 22, 3, 6, 54, 192), { zone: 1 });
    expect(temporalPrompt(ctx)).toBe(
      "Temporal context (kernel 4.6.2): the time is 2026-11-22T03:06:54.192Z (UTC), a Sunday, UTC day index 20779 (whole days since 1970-01-01). " +
        "In SWT zone Z1 (local phase = UTC phase + 30 degrees, nominally UTC+2h) the local phase is 76.725 of 360 degrees (zone time 05:06:54), " +
        "which is the early morning part of the daily cycle (45-90 degrees, 03:00-06:00 zone time; 0 degrees is zone midnight, 90 is 06:00, 180 is noon, 270 is 18:00). " +
        "The UTC phase is 46.725 degrees. Tile id 249349 (day index * 12 + zone). " +
        "One degree of phase is 4 minutes; phase windows are checked in whole milliseconds.",
    );
  });

  it("truncates degrees, so the last tick of the day is 359.999, and handles days before 1970 and zones west of UTC", () => {
    const text = temporalPrompt(contextAt(-1, { zone: 10 }));
    expect(text).toContain("1969-12-31T23:59:59.999Z (UTC), a Wednesday, UTC day index -1");
    expect(text).toContain("Z10 (local phase = UTC phase + 300 degrees, nominally UTC-4h) the local phase is 299.999 of 360 degrees (zone time 19:59:59)");
    expect(text).toContain("The UTC phase is 359.999 degrees. Tile id -2 ");
    expect(temporalPrompt(contextAt(0, { zone: 6 }))).toContain("nominally UTC+12h) the local phase is 180.000 of 360 degrees (zone time 12:00:00), which is the early afternoon part");
    expect(temporalPrompt(contextAt(0))).toContain(
      "(local phase = UTC phase + 0 degrees, nominally UTC) the local phase is 0.000 of 360 degrees (zone time 00:00:00), which is the night part",
    );
  });

  it("is one ASCII line, names the right part of the day, and depends only on the instant and zone", () => {
    fc.assert(
      fc.property(fc.integer({ min: -8.64e15, max: 8.64e15 }), fc.integer({ min: 0, max: 11 }), (ms, zone) => {
        const ctx = contextAt(ms, { zone });
        const text = temporalPrompt(ctx);
        expect(text).toMatch(/^[\x20-\x7e]+$/);
        expect(text).toContain(`the ${DAY_PARTS[Math.floor(ctx.phase_deg / 45)]} part of the daily cycle`);
        expect(text).toContain(`Tile id ${ctx.tile_id} `);
        expect(text).toContain(ctx.utc);
        expect(temporalPrompt({ ...ctx, source: "remote" })).toBe(text);
      }),
      { numRuns: 500 },
    );
  });

  it("rejects a malformed context with a typed error", () => {
    expect(() => temporalPrompt({ unix_ms: 0 } as PhaseContext)).toThrow(TemporalTypeError);
  });
});
