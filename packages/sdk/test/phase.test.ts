import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { KERNEL_VERSION, contextAt, now } from "../src/core/index.js";

describe("now / contextAt", () => {
  it("builds the documented context at UTC midnight", async () => {
    const ctx = await now({ clock: () => Date.UTC(2025, 0, 1) });
    expect(ctx).toEqual({
      kernel_version: "4.6.2",
      unix_ms: 1_735_689_600_000,
      utc: "2025-01-01T00:00:00.000Z",
      day_index: 20_089,
      phi_ticks: 0,
      swt_zone: 0,
      tile_id: 20_089 * 12,
      phase_deg: 0,
      utc_phase_deg: 0,
      source: "local",
    });
    expect(KERNEL_VERSION).toBe("4.6.2");
  });

  it("keeps the documented key order (the wire shape)", () => {
    expect(Object.keys(contextAt(0))).toEqual(["kernel_version", "unix_ms", "utc", "day_index", "phi_ticks", "swt_zone", "tile_id", "phase_deg", "utc_phase_deg", "source"]);
  });

  it("puts zone n 30n degrees ahead of UTC", async () => {
    // 18:00 UTC is 270 degrees; Z3 is 360 (= 0) degrees, Z5 is 60 degrees.
    const at = Date.UTC(2025, 5, 1, 18);
    expect((await now({ clock: () => at, zone: "Z3" })).phase_deg).toBe(0);
    const z5 = await now({ clock: () => new Date(at), zone: 5 });
    expect(z5).toMatchObject({ utc_phase_deg: 270, phase_deg: 60, swt_zone: 5, tile_id: z5.day_index * 12 + 5 });
  });

  it("handles instants before the epoch", () => {
    expect(contextAt(-1)).toMatchObject({ day_index: -1, phi_ticks: 86_399_999, utc: "1969-12-31T23:59:59.999Z" });
  });

  it("floors fractional milliseconds to the tick", () => {
    expect(contextAt(1234.9).unix_ms).toBe(1234);
  });

  it("satisfies unix_ms = day_index * 86400000 + phi_ticks and the degree formulas", () => {
    fc.assert(
      fc.property(fc.integer({ min: -8.64e15, max: 8.64e15 }), fc.integer({ min: 0, max: 11 }), (ms, zone) => {
        const ctx = contextAt(ms, { zone });
        expect(ctx.day_index * 86_400_000 + ctx.phi_ticks).toBe(ms);
        expect(ctx.phi_ticks).toBeGreaterThanOrEqual(0);
        expect(ctx.phi_ticks).toBeLessThan(86_400_000);
        expect(ctx.utc_phase_deg).toBe(ctx.phi_ticks / 240_000);
        expect(ctx.phase_deg).toBe(((ctx.phi_ticks + zone * 7_200_000) % 86_400_000) / 240_000);
      }),
      { numRuns: 300 },
    );
  });

  it("formats utc as Date does, for instants in any order, repeated or not (the last one formatted is reused)", () => {
    const instant = fc.oneof(fc.integer({ min: -8.64e15, max: 8.64e15 }), fc.constantFrom(0, -1, 1_795_439_850_357));
    fc.assert(
      fc.property(fc.array(instant, { minLength: 1, maxLength: 20 }), (instants) => {
        for (const ms of [...instants, ...[...instants].reverse()]) expect(contextAt(ms).utc).toBe(new Date(ms).toISOString());
      }),
    );
  });

  it("uses Date.now without a clock", async () => {
    const before = Date.now();
    const ctx = await now();
    expect(ctx.unix_ms).toBeGreaterThanOrEqual(before);
    expect(ctx.unix_ms).toBeLessThanOrEqual(Date.now());
  });

  it.each([
    [Number.NaN, "NaN"],
    [Infinity, "Infinity"],
    [8.64e15 + 1, "8640000000000001"],
    [new Date(Number.NaN), "Invalid Date"],
  ])("rejects the clock reading %s with a RangeError naming it", async (reading, named) => {
    await expect(now({ clock: () => reading })).rejects.toMatchObject({ name: "TemporalRangeError", code: "INVALID_TIME" });
    await expect(now({ clock: () => reading })).rejects.toThrow(named);
    await expect(now({ clock: () => reading })).rejects.toBeInstanceOf(RangeError);
  });

  it.each([
    [12, "12"],
    [-1, "-1"],
    [1.5, "1.5"],
    ["Z12", '"Z12"'],
    ["z3", '"z3"'],
    ["3", '"3"'],
    [null, "null"],
  ])("rejects zone %s with a RangeError naming it", async (zone, named) => {
    const error = await now({ zone: zone as never }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RangeError);
    expect(error).toMatchObject({ code: "INVALID_ZONE" });
    expect((error as Error).message).toContain(`got ${named}`);
  });
});
