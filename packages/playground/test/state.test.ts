import { describe, expect, it } from "vitest";
import { createPlaygroundState } from "../src/state.js";

describe("createPlaygroundState", () => {
  it("starts from the initial values, with unset settings null", () => {
    const state = createPlaygroundState({ source: "mission m {}", settings: { carbon: 120 } });
    expect(state.source).toBe("mission m {}");
    expect(state.settings).toEqual({ at: null, carbon: 120, hsBloch: null });
    expect(state.filename).toBe("playground.mission");
  });

  it("notifies subscribers after a change and not after a no-op", () => {
    const state = createPlaygroundState();
    const seen: string[] = [];
    state.subscribe(() => seen.push(`${state.source}|${state.settings.at}`));
    state.setSource("a");
    state.setSource("a");
    state.setSettings({ at: 5 });
    state.setSettings({ at: 5 });
    expect(seen).toEqual(["a|null", "a|5"]);
  });

  it("stops notifying after unsubscribe, even when it happens during a notification", () => {
    const state = createPlaygroundState();
    let calls = 0;
    const unsubscribe = state.subscribe(() => {
      calls += 1;
      unsubscribe();
    });
    state.setSource("x");
    state.setSource("y");
    expect(calls).toBe(1);
  });

  it("merges a settings patch and keeps settings frozen", () => {
    const state = createPlaygroundState({ settings: { at: 1, hsBloch: 0.5 } });
    state.setSettings({ carbon: 80 });
    expect(state.settings).toEqual({ at: 1, carbon: 80, hsBloch: 0.5 });
    expect(Object.isFrozen(state.settings)).toBe(true);
  });

  it("refuses a setting that is not a finite number or null", () => {
    const state = createPlaygroundState();
    expect(() => state.setSettings({ carbon: Number.NaN })).toThrow(/carbon must be a finite number or null/);
    expect(state.settings.carbon).toBeNull();
  });
});
