import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { allow, allowInTimeZone, clockTicks, contextAt, contextInTimeZone, nextOpen, nextOpenInTimeZone } from "../src/core/index.js";
import type { Window } from "../src/core/types.js";
import { defineMission } from "../src/mission/index.js";
import type { DenyReason, MissionSpec } from "../src/mission/index.js";

const HOUR = 3_600_000;
const MINUTE = 60_000;
/** Degrees of a clock time: 15 an hour. */
const at = (hours: number, minutes = 0) => hours * 15 + minutes / 4;

/** The IANA zone that keeps SWT zone n's offset (UTC + 2n hours, or 2n - 24 past Z7): `Etc/GMT-2` is UTC+2 (POSIX signs). */
function etcZone(n: number): string {
  const hours = n <= 7 ? 2 * n : 2 * n - 24;
  return hours === 0 ? "Etc/GMT" : `Etc/GMT${hours > 0 ? "-" : "+"}${Math.abs(hours)}`;
}

const windowArb = fc.tuple(fc.integer({ min: 0, max: 360 * 4 }), fc.integer({ min: 0, max: 360 * 4 })).map(([a, b]): Window => [a / 4, b / 4]);
const instantArb = fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2060, 0, 1) });

describe("windows on an IANA time zone's clock", () => {
  it("agree with the SWT zone of the same fixed offset: allow, nextOpen and the context's zone", () => {
    fc.assert(
      fc.property(fc.nat(11), windowArb, instantArb, (zone, window, t) => {
        const swt = contextAt(t, { zone });
        const ctx = contextInTimeZone(t, etcZone(zone));
        expect(ctx).toEqual(swt);
        expect(allowInTimeZone(ctx, window, etcZone(zone))).toBe(allow(swt, window));
        expect(nextOpenInTimeZone(ctx, window, etcZone(zone))).toBe(nextOpen(swt, window));
      }),
      { numRuns: 300 },
    );
  });

  it("read the local clock through daylight saving: Paris is UTC+1 in winter, UTC+2 in summer, Z1 all year", () => {
    const evening: Window = [at(20), at(2)];
    for (const [utc, open] of [
      [Date.UTC(2026, 0, 15, 18, 59, 59, 999), false], // 19:59:59.999 CET
      [Date.UTC(2026, 0, 15, 19), true], // 20:00 CET
      [Date.UTC(2026, 6, 15, 17, 59), false], // 19:59 CEST
      [Date.UTC(2026, 6, 15, 18), true], // 20:00 CEST
      [Date.UTC(2026, 6, 16, 0), true], // 02:00 CEST, the inclusive end
      [Date.UTC(2026, 6, 16, 0, 0, 0, 1), false],
    ] as const) {
      const ctx = contextInTimeZone(utc, "Europe/Paris");
      expect(ctx.swt_zone).toBe(1);
      expect(allowInTimeZone(ctx, evening, "Europe/Paris"), new Date(utc).toISOString()).toBe(open);
    }
  });

  it("pass over a start the spring change skips: the window opens when the clock lands at 03:00 (Paris, New York)", () => {
    for (const [zone, change] of [
      ["Europe/Paris", Date.UTC(2026, 2, 29, 1)], // 02:00 CET -> 03:00 CEST
      ["America/New_York", Date.UTC(2026, 2, 8, 7)], // 02:00 EST -> 03:00 EDT
    ] as const) {
      const window: Window = [at(2, 30), at(4)];
      const before = contextInTimeZone(change - HOUR, zone);
      expect(allowInTimeZone(before, window, zone)).toBe(false);
      expect(nextOpenInTimeZone(before, window, zone)).toBe(change);
      expect(clockTicks(change - 1, zone)).toBe(2 * HOUR - 1);
      expect(clockTicks(change, zone)).toBe(3 * HOUR);
      // A window inside the skipped hour does not open that day at all: the next day at 02:15, summer time.
      expect(nextOpenInTimeZone(before, [at(2, 15), at(2, 45)], zone)).toBe(change + 23 * HOUR + 15 * MINUTE);
    }
  });

  it("open twice in the hour the autumn change repeats (New York: 01:00-02:00 happens twice)", () => {
    const zone = "America/New_York";
    const change = Date.UTC(2026, 10, 1, 6); // 02:00 EDT -> 01:00 EST
    const window: Window = [at(1, 15), at(1, 45)];
    const first = Date.UTC(2026, 10, 1, 5, 15); // 01:15 EDT
    const second = Date.UTC(2026, 10, 1, 6, 15); // 01:15 EST
    expect(allowInTimeZone(contextInTimeZone(first, zone), window, zone)).toBe(true);
    expect(allowInTimeZone(contextInTimeZone(change - 1, zone), window, zone)).toBe(false);
    expect(nextOpenInTimeZone(contextInTimeZone(first + 31 * MINUTE, zone), window, zone)).toBe(second);
    // The zone's offset moves from -4 h to -5 h: both round to Z10.
    expect(contextInTimeZone(first, zone).swt_zone).toBe(10);
    expect(contextInTimeZone(second, zone).swt_zone).toBe(10);
  });

  it("follow the southern hemisphere: Sydney is Z6 in its summer (UTC+11) and Z5 in its winter (UTC+10)", () => {
    const zone = "Australia/Sydney";
    const spring = Date.UTC(2026, 9, 3, 16); // Sunday 4 October, 02:00 AEST -> 03:00 AEDT
    const autumn = Date.UTC(2026, 3, 4, 16); // Sunday 5 April, 03:00 AEDT -> 02:00 AEST
    expect(contextInTimeZone(spring - 1, zone).swt_zone).toBe(5);
    expect(contextInTimeZone(spring, zone).swt_zone).toBe(6);
    expect(contextInTimeZone(autumn - 1, zone).swt_zone).toBe(6);
    expect(contextInTimeZone(autumn, zone).swt_zone).toBe(5);
    const ctx = contextInTimeZone(spring, zone);
    expect(ctx.tile_id).toBe(ctx.day_index * 12 + 6);
    // A morning window [07:00, 09:00] local opens at 07:00 AEDT = 20:00 UTC the day before.
    expect(nextOpenInTimeZone(ctx, [at(7), at(9)], zone)).toBe(Date.UTC(2026, 9, 3, 20));
  });

  it("never report an instant before the answer at which the window was open (any window, any zone with DST)", () => {
    const zones = ["Europe/Paris", "America/New_York", "Australia/Sydney", "Australia/Lord_Howe", "America/Santiago"];
    fc.assert(
      fc.property(fc.constantFrom(...zones), windowArb, fc.integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2028, 0, 1) }), (zone, window, t) => {
        const ctx = contextInTimeZone(t, zone);
        const next = nextOpenInTimeZone(ctx, window, zone);
        expect(next).toBeGreaterThanOrEqual(t);
        expect(allowInTimeZone(contextInTimeZone(next, zone), window, zone)).toBe(true);
        if (next > t) expect(allowInTimeZone(contextInTimeZone(next - 1, zone), window, zone)).toBe(false);
        for (let u = t; u < next; u += 15 * MINUTE) expect(allowInTimeZone(contextInTimeZone(u, zone), window, zone)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it("reject an unknown name with INVALID_TIME_ZONE", () => {
    expect(() => contextInTimeZone(0, "Mars/Olympus")).toThrow(expect.objectContaining({ code: "INVALID_TIME_ZONE" }));
    expect(() => allowInTimeZone(contextAt(0), [0, 10], "")).toThrow(expect.objectContaining({ code: "INVALID_TIME_ZONE" }));
  });
});

/** A spec as temporalc generates it for `@anchor Europe/Paris` and `require phase [20:00, 02:00]`. */
function parisSpec(): MissionSpec {
  const window: Window = [300, 30];
  return {
    name: "evening",
    kernel_version: "4.6.2",
    zone: "Europe/Paris",
    requires: { phase: [window], carbon: null, hs_bloch: null },
    check(ctx) {
      const reasons: DenyReason[] = [];
      if (!allowInTimeZone(ctx, window, "Europe/Paris")) reasons.push("PHASE_OUTSIDE_WINDOW");
      return reasons;
    },
    on: { ALLOW: [], DENY: [] },
  };
}

describe("a mission anchored to an IANA time zone", () => {
  it("decides on the local clock, in a context of the nearest SWT zone, and says when it next opens", async () => {
    const mission = defineMission(parisSpec());
    const summerNoon = Date.UTC(2026, 6, 15, 10); // 12:00 CEST
    const denied = await mission.evaluate({ clock: () => summerNoon });
    expect(denied).toMatchObject({ verdict: "DENY", ctx: { swt_zone: 1, unix_ms: summerNoon }, clock: { time_zone: "Europe/Paris", phase_deg: 180 } });
    expect(denied.next_open_unix_ms).toBe(Date.UTC(2026, 6, 15, 18)); // 20:00 CEST
    const winterEvening = Date.UTC(2026, 0, 15, 19, 30); // 20:30 CET
    expect(await mission.evaluate({ clock: () => winterEvening })).toMatchObject({ verdict: "ALLOW", clock: { phase_deg: 307.5 } });
  });

  it("keeps deciding SWT-anchored missions on the SWT context, with no clock field", async () => {
    const decision = await defineMission({ ...parisSpec(), zone: 1, check: (ctx) => (allow(ctx, [300, 30]) ? [] : ["PHASE_OUTSIDE_WINDOW"]) }).evaluate({ clock: () => 0 });
    expect(decision.ctx).toEqual(contextAt(0, { zone: 1 }));
    expect(decision).not.toHaveProperty("clock");
  });
});
