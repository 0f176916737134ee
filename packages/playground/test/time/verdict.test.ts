import { allow, allowInTimeZone, contextAt, createMemoryAuthority, type Authority, type Window } from "@temporal/agent-sdk";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { missionDials, timeUntilText, type FileDial } from "@temporal/language-service";
import { loadedMissions, mustLoad } from "./compiled.js";
import { verdictOf, type VerdictInput, type VerdictView } from "../../src/worker/verdict.js";

let authority: Authority;
beforeAll(() => {
  authority = createMemoryAuthority();
});
afterAll(() => authority.close());

/** The first mission's view, with the file's dial at the same instant, as the panel computes them. */
function verdict(file: ReturnType<typeof mustLoad>, input: Omit<VerdictInput, "authority">): Promise<VerdictView> {
  const dial: FileDial | null = missionDials(file.model, { at: input.at, viewerTimeZone: "UTC" });
  if (dial === null) throw new Error("no dial for this anchor");
  return verdictOf(file.missions[0]!, dial, { ...input, authority });
}

/** Whether every window is open at `t`, asked of the SDK's window functions directly. */
function windowsOpen(windows: readonly Window[], zone: number | string, t: number): boolean {
  return windows.every((w) => (typeof zone === "string" ? allowInTimeZone(contextAt(t), w, zone) : allow(contextAt(t, { zone }), w)));
}

const degrees = fc.integer({ min: 0, max: 720 }).map((half) => half / 2);
const zones = fc.oneof(fc.integer({ min: 0, max: 11 }), fc.constantFrom("Europe/Paris", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "UTC"));
const instants = fc.integer({ min: Date.parse("2026-01-01T00:00:00Z"), max: Date.parse("2028-12-31T00:00:00Z") });
const measure = (max: number) =>
  fc.option(
    fc.integer({ min: 0, max: max * 100 }).map((n) => n / 100),
    { nil: null },
  );

describe("verdictOf", () => {
  it("gives the SDK's verdict and reasons, and a next transition where the windows really flip, for random missions and settings", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(degrees, degrees), { minLength: 1, maxLength: 2 }),
        zones,
        instants,
        measure(400),
        measure(1),
        fc.integer({ min: 1, max: 1_000 }),
        async (windows, zone, at, carbon, hsBloch, probe) => {
          const anchor = typeof zone === "string" ? zone : `Z${zone}`;
          const phases = windows.map(([a, b]) => `  require phase [${a}, ${b}]\n`).join("");
          const file = loadedMissions(
            `@temporal v4.6.2\n@anchor ${anchor}\nmission m {\n${phases}  require carbon <= 200\n  require hs_bloch >= 0.5\n  on ALLOW {\n    execute go\n  }\n}\n`,
          );
          fc.pre(file !== undefined); // windows that never meet are an error the checker reports
          if (file === undefined) return;
          const view = await verdict(file, { at, carbon, hsBloch });

          const open = windowsOpen(windows, zone, at);
          const expected = [
            ...(open ? [] : ["PHASE_OUTSIDE_WINDOW"]),
            ...(carbon === null ? ["CARBON_UNKNOWN"] : carbon > 200 ? ["CARBON_ABOVE_THRESHOLD"] : []),
            ...(hsBloch === null ? ["HS_BLOCH_UNKNOWN"] : hsBloch < 0.5 ? ["HS_BLOCH_BELOW_THRESHOLD"] : []),
          ];
          expect(view.reasons.map((r) => r.code)).toEqual(expected);
          expect(view.verdict).toBe(expected.length === 0 ? "ALLOW" : "DENY");
          if (view.next === undefined) {
            expect(view.nextText).toBe(open ? "always open" : "never opens again");
            return;
          }
          expect(view.next.kind).toBe(open ? "closes" : "opens");
          expect(view.next.unixMs).toBeGreaterThan(at);
          // The state flips exactly there, and not at a probe point before it.
          expect(windowsOpen(windows, zone, view.next.unixMs)).toBe(!open);
          expect(windowsOpen(windows, zone, view.next.unixMs - 1)).toBe(open);
          expect(windowsOpen(windows, zone, at + Math.floor(((view.next.unixMs - at) * probe) / 1_001))).toBe(open);
          expect(view.nextText).toMatch(new RegExp(`^${view.next.kind} at \\d\\d:\\d\\d(:\\d\\d)? .+, (in (\\d+ d )?(\\d+ h ?)?(\\d+ min)?|now)$`));
          // The wait in temporalc show's words: the same function.
          expect(view.nextText.endsWith(`, ${timeUntilText(at, view.next.unixMs)}`)).toBe(true);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("says the verdict, the reasons and the next transition in words", async () => {
    const backup = mustLoad("@temporal v4.6.2\n@anchor Z1\nmission nightly_backup {\n  require phase [300, 30]\n  require carbon < 250\n  on ALLOW {\n    execute snapshot_db\n  }\n}\n");
    // 17:55 UTC is 19:55 in Z1: the window 20:00-02:00 opens in 5 minutes.
    const closed = await verdict(backup, { at: Date.parse("2026-11-26T17:55:00Z"), carbon: 300, hsBloch: null });
    expect(closed.verdict).toBe("DENY");
    expect(closed.reasons.map((r) => r.text)).toEqual(["outside its window 20:00–02:00 in Z1 (UTC+2): the clock there reads 19:55", "carbon 300 gCO2eq/kWh is not < 250"]);
    expect(closed.nextText).toBe("opens at 20:00 Z1 (UTC+2), in 5 min");

    const open = await verdict(backup, { at: Date.parse("2026-11-26T21:55:00Z"), carbon: 100, hsBloch: null });
    expect(open).toMatchObject({ verdict: "ALLOW", reasons: [], nextText: "closes at 02:00 Z1 (UTC+2), in 2 h 5 min" });

    const unmeasured = await verdict(backup, { at: Date.parse("2026-11-26T21:55:00Z"), carbon: null, hsBloch: null });
    expect(unmeasured.reasons.map((r) => r.text)).toEqual(["carbon not measured: it needs < 250 gCO2eq/kWh"]);

    // A share link can hold a value the fields refuse: the SDK's own words say what is wrong with it.
    const negative = await verdict(backup, { at: Date.parse("2026-11-26T21:55:00Z"), carbon: -5, hsBloch: null });
    expect(negative.reasons).toEqual([{ code: "CARBON_INVALID", text: expect.stringContaining("-5") }]);
  });

  it("reads windows on an IANA zone's wall clock, daylight saving included", async () => {
    const paris = mustLoad("@temporal v4.6.2\n@anchor Europe/Paris\nmission m {\n  require phase [300, 330]\n  on ALLOW {\n    execute t\n  }\n}\n");
    // Summer: 20:00 in Paris is 18:00 UTC.
    const view = await verdict(paris, { at: Date.parse("2026-07-01T17:00:00Z"), carbon: null, hsBloch: null });
    expect(view.next).toEqual({ kind: "opens", unixMs: Date.parse("2026-07-01T18:00:00Z") });
    expect(view.nextText).toBe("opens at 20:00 Europe/Paris, in 1 h");
  });
});
