import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { allow, verifyInclusion } from "../src/core/index.js";
import { defineMission, type DenyReason, type MissionSpec } from "../src/mission/index.js";
import { createLocalAuthority } from "../src/node/local-authority.js";
import { tempDir } from "./helpers.js";

const NOON = Date.UTC(2026, 10, 22, 12);

/** As temporalc generates it for `require carbon < 250`, `require hs_bloch >= 0.9`, and a receipt either way. */
const spec: MissionSpec = {
  name: "guarded",
  kernel_version: "4.6.2",
  zone: 0,
  requires: { phase: [[0, 360]], carbon: { operator: "<", threshold: 250 }, hs_bloch: { operator: ">=", threshold: 0.9 } },
  check(ctx, { carbon, hsBloch }) {
    const reasons: DenyReason[] = [];
    if (!allow(ctx, [0, 360])) reasons.push("PHASE_OUTSIDE_WINDOW");
    if (carbon === undefined) reasons.push("CARBON_UNKNOWN");
    else if (!(carbon < 250)) reasons.push("CARBON_ABOVE_THRESHOLD");
    if (hsBloch === undefined) reasons.push("HS_BLOCH_UNKNOWN");
    else if (!(hsBloch >= 0.9)) reasons.push("HS_BLOCH_BELOW_THRESHOLD");
    return reasons;
  },
  on: { ALLOW: [{ execute: "work" }, { anchor: "clockchain" }], DENY: [{ execute: "alert" }, { anchor: "clockchain" }] },
};
const mission = defineMission(spec);
const authority = createLocalAuthority({ home: await tempDir() });
afterAll(() => authority.close());

/** A provider that never settles. */
const never = () => new Promise<number>(() => {});

describe("measures fail closed", () => {
  it.each([
    [
      "throws",
      () => {
        throw new Error("grid API down");
      },
      "CARBON_UNAVAILABLE",
      { error: "grid API down", message: "the carbon provider failed: grid API down" },
    ],
    ["rejects", () => Promise.reject(new Error("HTTP 503")), "CARBON_UNAVAILABLE", { error: "HTTP 503" }],
    ["returns NaN", () => Number.NaN, "CARBON_INVALID", { value: "NaN" }],
    ["returns Infinity", async () => Number.POSITIVE_INFINITY, "CARBON_INVALID", { value: "Infinity" }],
    ["returns a string", () => "300", "CARBON_INVALID", { value: '"300"' }],
    ["returns a negative number", () => -1, "CARBON_INVALID", { value: "-1", message: expect.stringContaining("0 or more") }],
    ["never settles", never, "CARBON_TIMEOUT", { message: "the carbon provider did not answer within 50 ms" }],
  ])("a carbon provider that %s gives DENY with its reason, and the DENY block runs and anchors its receipt", async (_, carbon, reason, detail) => {
    const ran: string[] = [];
    const result = await mission.run({
      clock: () => NOON,
      carbon: carbon as never,
      hsBloch: 0.95,
      measureTimeoutMs: 50,
      sdk: authority,
      tasks: { work: () => ran.push("work"), alert: () => ran.push("alert") },
    });
    expect(result).toMatchObject({ verdict: "DENY", reason, reasons: [reason], executed: ["alert"], measure_failures: [{ measure: "carbon", reason, ...detail }] });
    expect(ran).toEqual(["alert"]);
    expect(result.anchors).toHaveLength(1);
    expect(verifyInclusion(result.anchors[0]!)).toBe(true);
  });

  it.each([
    ["throws", () => Promise.reject(new Error("optimiser offline")), "HS_BLOCH_UNAVAILABLE"],
    ["returns NaN", () => Number.NaN, "HS_BLOCH_INVALID"],
    ["returns a score above 1", () => 92, "HS_BLOCH_INVALID"],
    ["returns a negative score", () => -0.1, "HS_BLOCH_INVALID"],
    ["never settles", never, "HS_BLOCH_TIMEOUT"],
  ])("an HS-Bloch provider that %s gives DENY with %s", async (_, hsBloch, reason) => {
    const result = await mission.run({ clock: () => NOON, carbon: 100, hsBloch: hsBloch as never, measureTimeoutMs: 50, sdk: authority, tasks: { work: () => {}, alert: () => {} } });
    expect(result).toMatchObject({ verdict: "DENY", reasons: [reason], executed: ["alert"], measure_failures: [{ measure: "hsBloch", reason }] });
    expect(result.anchors).toHaveLength(1);
  });

  it("reports both measures when both fail, each in its reason's place, reading them together so two slow providers cost one timeout", async () => {
    const calledAt: number[] = [];
    const hang = () => {
      calledAt.push(performance.now());
      return never();
    };
    const decision = await mission.evaluate({ clock: () => NOON, carbon: hang, hsBloch: hang, measureTimeoutMs: 300 });
    expect(decision.reasons).toEqual(["CARBON_TIMEOUT", "HS_BLOCH_TIMEOUT"]);
    expect(decision.measure_failures?.map((f) => f.measure)).toEqual(["carbon", "hsBloch"]);
    // The second provider was asked before the first one's timeout ran out.
    expect(calledAt).toHaveLength(2);
    expect(calledAt[1]! - calledAt[0]!).toBeLessThan(300);
  });

  it("keeps undefined (and null) as unknown, and a sound value as a value, with no measure_failures", async () => {
    const unknown = await mission.evaluate({ clock: () => NOON, carbon: undefined, hsBloch: () => null as never });
    expect(unknown.reasons).toEqual(["CARBON_UNKNOWN", "HS_BLOCH_UNKNOWN"]);
    expect(unknown).not.toHaveProperty("measure_failures");
    const sound = await mission.evaluate({ clock: () => NOON, carbon: async () => 0, hsBloch: 1 });
    expect(sound).toMatchObject({ verdict: "ALLOW", reasons: [] });
    expect(sound).not.toHaveProperty("measure_failures");
  });

  it("lets a slow provider finish inside its timeout", async () => {
    const slow = () => new Promise<number>((resolve) => setTimeout(() => resolve(100), 30));
    expect((await mission.evaluate({ clock: () => NOON, carbon: slow, hsBloch: 0.95, measureTimeoutMs: 5_000 })).verdict).toBe("ALLOW");
  });

  it("allows only a finite number in range that meets the threshold, and never rejects, whatever the provider gives", () =>
    fc.assert(
      fc.asyncProperty(fc.oneof(fc.double(), fc.integer({ min: -10, max: 400 }), fc.anything()), fc.boolean(), async (carbon, asFunction) => {
        const decision = await mission.evaluate({ clock: () => NOON, carbon: (asFunction ? async () => carbon : carbon) as never, hsBloch: 0.95 });
        const sound = typeof carbon === "number" && Number.isFinite(carbon) && carbon >= 0;
        const expected = carbon === undefined || carbon === null ? ["CARBON_UNKNOWN"] : !sound ? ["CARBON_INVALID"] : carbon < 250 ? [] : ["CARBON_ABOVE_THRESHOLD"];
        expect(decision.reasons).toEqual(expected);
        expect(decision.verdict).toBe(expected.length === 0 ? "ALLOW" : "DENY");
        expect(decision.measure_failures !== undefined).toBe(expected[0] === "CARBON_INVALID");
      }),
      { numRuns: 200 },
    ));

  it("serialises the failures as JSON, with the rejected value as text", async () => {
    const decision = await mission.evaluate({ clock: () => NOON, carbon: Number.NaN, hsBloch: 0.95 });
    expect(JSON.parse(JSON.stringify(decision)).measure_failures).toEqual([
      { measure: "carbon", reason: "CARBON_INVALID", value: "NaN", message: "the carbon provider gave NaN; carbon must be gCO2eq/kWh, 0 or more (or undefined when unknown)" },
    ]);
  });
});
