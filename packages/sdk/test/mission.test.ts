import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { allow, contextAt } from "../src/core/index.js";
import type { Window } from "../src/core/types.js";
import { defineMission } from "../src/mission/index.js";
import type { DenyReason, MissionSpec } from "../src/mission/index.js";

/** A spec as temporalc would generate it, for the given windows and carbon ceiling. */
function spec(windows: Window[], carbonBelow?: number): MissionSpec {
  return {
    name: "probe",
    kernel_version: "4.6.2",
    zone: 2,
    requires: { phase: windows, carbon: carbonBelow === undefined ? null : { operator: "<", threshold: carbonBelow }, hs_bloch: null },
    check(ctx, { carbon }) {
      const reasons: DenyReason[] = [];
      if (!windows.every((w) => allow(ctx, w))) reasons.push("PHASE_OUTSIDE_WINDOW");
      if (carbonBelow !== undefined) {
        if (carbon === undefined) reasons.push("CARBON_UNKNOWN");
        else if (!(carbon < carbonBelow)) reasons.push("CARBON_ABOVE_THRESHOLD");
      }
      return reasons;
    },
    on: { ALLOW: [{ execute: "work" }], DENY: [] },
  };
}

const NOON = Date.UTC(2026, 10, 22, 12);

describe("defineMission", () => {
  it("finds when several windows are next open together, across midnight", async () => {
    // In zone Z2 (UTC+4), [300, 30] and [0, 60] are both open from 00:00 to 02:00 local, i.e. 20:00 to 22:00 UTC.
    const mission = defineMission(
      spec([
        [300, 30],
        [0, 60],
      ]),
    );
    const decision = await mission.evaluate({ clock: () => NOON });
    expect(decision).toMatchObject({ verdict: "DENY", reason: "PHASE_OUTSIDE_WINDOW" });
    expect(decision.next_open_unix_ms).toBe(Date.UTC(2026, 10, 22, 20));
  });

  it("gives the least instant at which every window is open, for any windows that share a point", () => {
    const windowAround = fc.tuple(fc.nat(359), fc.integer({ min: 1, max: 170 }), fc.integer({ min: 1, max: 170 }));
    return fc.assert(
      fc.asyncProperty(fc.nat(359), fc.array(windowAround, { minLength: 1, maxLength: 3 }), fc.integer({ min: 0, max: 2 * 86_400_000 }), async (shared, raw, offset) => {
        const windows = raw.map(([, before, after]): Window => [(shared - before + 360) % 360, (shared + after) % 360]);
        const at = NOON + offset;
        const decision = await defineMission(spec(windows)).evaluate({ clock: () => at });
        const open = (t: number) => windows.every((w) => allow(contextAt(t, { zone: 2 }), w));
        if (decision.verdict === "ALLOW") {
          expect(open(at)).toBe(true);
          return;
        }
        const next = decision.next_open_unix_ms!;
        expect(open(next)).toBe(true);
        // Nothing earlier: sample the gap every minute, and the tick before.
        expect(open(next - 1)).toBe(false);
        for (let t = at; t < next; t += 60_000) expect(open(t)).toBe(false);
      }),
      { numRuns: 60 },
    );
  });

  it("reads a measure only when a requirement needs it, and fails closed without one", async () => {
    let reads = 0;
    const carbon = () => {
      reads++;
      return 100;
    };
    await defineMission(spec([[0, 360]])).evaluate({ clock: () => NOON, carbon });
    expect(reads).toBe(0);
    const decision = await defineMission(spec([[0, 360]], 200)).evaluate({ clock: () => NOON });
    expect(decision.reasons).toEqual(["CARBON_UNKNOWN"]);
    expect((await defineMission(spec([[0, 360]], 200)).evaluate({ clock: () => NOON, carbon: async () => 150 })).verdict).toBe("ALLOW");
  });

  it("denies on a measure that is not a finite number, or whose provider fails, saying which", async () => {
    const mission = defineMission(spec([[0, 360]], 200));
    expect(await mission.evaluate({ clock: () => NOON, carbon: Number.NaN })).toMatchObject({ verdict: "DENY", reasons: ["CARBON_INVALID"] });
    expect(await mission.evaluate({ clock: () => NOON, carbon: "120" as never })).toMatchObject({ verdict: "DENY", measure_failures: [{ value: '"120"' }] });
    const outage = new Error("grid API down");
    const decision = await mission.evaluate({ clock: () => NOON, carbon: () => Promise.reject(outage) });
    expect(decision).toMatchObject({ verdict: "DENY", reason: "CARBON_UNAVAILABLE", measure_failures: [{ measure: "carbon", error: "grid API down" }] });
  });

  it("rejects bad options with a TypeError that says which", async () => {
    const mission = defineMission(spec([[0, 360]]));
    await expect(mission.run(null as never)).rejects.toMatchObject({ code: "INVALID_MISSION_OPTIONS" });
    await expect(mission.run({ tasks: 5 as never })).rejects.toMatchObject({ code: "INVALID_MISSION_OPTIONS", message: expect.stringContaining("options.tasks") });
    await expect(mission.run({ tasks: { work: () => {} }, sdk: {} as never })).rejects.toMatchObject({ code: "INVALID_MISSION_OPTIONS", message: expect.stringContaining("options.sdk") });
    await expect(mission.evaluate({ signal: {} as never })).rejects.toMatchObject({ code: "INVALID_MISSION_OPTIONS", message: expect.stringContaining("options.signal") });
    for (const measureTimeoutMs of [0, -1, Number.NaN, 2 ** 31, "5" as never]) {
      await expect(mission.evaluate({ measureTimeoutMs }), String(measureTimeoutMs)).rejects.toMatchObject({
        code: "INVALID_MISSION_OPTIONS",
        message: expect.stringContaining("measureTimeoutMs"),
      });
    }
    await expect(mission.evaluate({ localClock: "yes" as never })).rejects.toMatchObject({ code: "INVALID_MISSION_OPTIONS", message: expect.stringContaining("localClock") });
  });

  it("returns a frozen mission that shares its requirements and blocks", () => {
    const definition = spec([[10, 20]]);
    const mission = defineMission(definition);
    expect(Object.isFrozen(mission)).toBe(true);
    expect(mission).toMatchObject({ name: "probe", zone: 2, requires: definition.requires, on: definition.on });
  });
});

describe("defineMission safety", () => {
  it("denies on impossible measures instead of comparing them, even when the check would let them through", async () => {
    const carbonMission = defineMission(spec([[0, 360]], 200));
    for (const carbon of [-50, Number.POSITIVE_INFINITY]) {
      expect(await carbonMission.evaluate({ clock: () => NOON, carbon }), String(carbon)).toMatchObject({ verdict: "DENY", reasons: ["CARBON_INVALID"] });
    }
    // A hand-written check that allows everything: the failure still denies.
    const quality: MissionSpec = { ...spec([[0, 360]]), requires: { phase: [], carbon: null, hs_bloch: { operator: ">=", threshold: 0.92 } }, check: () => [] };
    const decision = await defineMission(quality).evaluate({ clock: () => NOON, hsBloch: 92 });
    expect(decision).toMatchObject({ verdict: "DENY", reasons: ["HS_BLOCH_INVALID"], measure_failures: [{ measure: "hsBloch", value: "92", message: expect.stringContaining("0 to 1") }] });
    expect((await defineMission(quality).evaluate({ clock: () => NOON, hsBloch: 0.95 })).verdict).toBe("ALLOW");
  });

  it("cannot be changed after it is defined, even through the definition it was made from", async () => {
    const definition = spec([[0, 360]]);
    const mission = defineMission(definition);
    expect(() => (mission.on.ALLOW as unknown as unknown[]).push({ execute: "injected" })).toThrow(TypeError);
    expect(() => ((mission.requires.phase as Window[])[0] as unknown as number[]).splice(0, 1, 5)).toThrow(TypeError);
    (definition.on.ALLOW as unknown as unknown[]).push({ execute: "injected" });
    const ran: string[] = [];
    const result = await mission.run({ tasks: { work: () => ran.push("work"), injected: () => ran.push("injected") } });
    expect(ran).toEqual(["work"]);
    expect(result.executed).toEqual(["work"]);
  });

  it("runs a task named __proto__ however the tasks object supplies it, and never an inherited one", async () => {
    const proto = defineMission({ ...spec([[0, 360]]), on: { ALLOW: [{ execute: "__proto__" }, { execute: "work" }], DENY: [] } });
    const ran: string[] = [];
    const task = (name: string) => () => void ran.push(name);
    // `{ __proto__: f }` sets the prototype instead of a property, yet TypeScript types it as the property.
    const literal = { __proto__: task("literal"), work: task("work") };
    const computed = { ["__proto__"]: task("computed"), work: task("work") };
    expect((await proto.run({ clock: () => NOON, tasks: literal })).executed).toEqual(["__proto__", "work"]);
    expect((await proto.run({ clock: () => NOON, tasks: computed })).executed).toEqual(["__proto__", "work"]);
    expect(ran).toEqual(["literal", "work", "computed", "work"]);
    for (const tasks of [{ work: task("work") }, Object.assign(Object.create(null), { work: task("work") })]) {
      await expect(proto.run({ clock: () => NOON, tasks })).rejects.toMatchObject({ code: "MISSING_TASKS", missing: ["__proto__"] });
    }
  });

  it("reports a receipt that cannot be anchored with what had already run", async () => {
    const anchoring: MissionSpec = { ...spec([[0, 360]]), on: { ALLOW: [{ execute: "work" }, { anchor: "clockchain" }], DENY: [] } };
    const broken = {
      kind: "local",
      ready: async () => {},
      now: () => Promise.reject(new Error("unused")),
      issueReceipt: () => Promise.reject(new Error("disk full")),
      anchor: () => Promise.reject(new Error("unused")),
    };
    const run = defineMission(anchoring).run({ tasks: { work: () => {} }, sdk: broken as never });
    await expect(run).rejects.toMatchObject({ name: "AnchorFailedError", code: "ANCHOR_FAILED", executed: ["work"], message: expect.stringContaining("disk full") });
  });
});
