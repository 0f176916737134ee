import { afterAll, describe, expect, it } from "vitest";
import { defineMission, MissionAbortedError, type MissionSpec } from "../src/mission/index.js";
import { createLocalAuthority } from "../src/node/local-authority.js";
import { tempDir } from "./helpers.js";

const NOON = Date.UTC(2026, 10, 22, 12);

const spec: MissionSpec = {
  name: "stoppable",
  kernel_version: "4.6.2",
  zone: 0,
  requires: { phase: [], carbon: { operator: "<", threshold: 250 }, hs_bloch: null },
  check: (_ctx, { carbon }) => (carbon === undefined ? ["CARBON_UNKNOWN"] : carbon < 250 ? [] : ["CARBON_ABOVE_THRESHOLD"]),
  on: { ALLOW: [{ execute: "first" }, { execute: "second" }, { anchor: "clockchain" }], DENY: [] },
};
const mission = defineMission(spec);
const authority = createLocalAuthority({ home: await tempDir() });
afterAll(() => authority.close());

describe("aborting a mission", () => {
  it("rejects at once with ABORTED, the signal's reason as cause, when the signal is already aborted", async () => {
    let reads = 0;
    const reason = new Error("shutting down");
    const signal = AbortSignal.abort(reason);
    const carbon = () => ++reads;
    for (const pending of [
      mission.evaluate({ clock: () => NOON, carbon, signal }),
      mission.run({ clock: () => NOON, carbon, signal, sdk: authority, tasks: { first: () => {}, second: () => {} } }),
    ]) {
      const error = await pending.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MissionAbortedError);
      expect(error).toMatchObject({ code: "ABORTED", verdict: null, executed: [], cause: reason });
    }
    expect(reads).toBe(0);
  });

  it("abandons a measure read that is still pending", async () => {
    const controller = new AbortController();
    const pending = mission.evaluate({ clock: () => NOON, carbon: () => new Promise<number>(() => {}), signal: controller.signal });
    setTimeout(() => controller.abort("user pressed stop"), 20);
    // The default measure timeout is 10 s; the abort settles it long before.
    await expect(pending).rejects.toMatchObject({ code: "ABORTED", cause: "user pressed stop", message: 'mission "stoppable" was aborted before its verdict' });
  });

  it("starts no further step after an abort, and reports the task that finished", async () => {
    const controller = new AbortController();
    const ran: string[] = [];
    const tasks = {
      first: () => {
        ran.push("first");
        controller.abort();
      },
      second: () => void ran.push("second"),
    };
    const error = await mission.run({ clock: () => NOON, carbon: 1, signal: controller.signal, sdk: authority, tasks }).catch((e: unknown) => e);
    expect(ran).toEqual(["first"]);
    expect(error).toMatchObject({ code: "ABORTED", verdict: "ALLOW", executed: ["first"], receipts: [], anchors: [] });
    expect((error as Error).message).toBe('mission "stoppable" was aborted (ALLOW) after running first');
    expect((error as Error).cause).toBeInstanceOf(DOMException);
  });

  it("gives the task in progress the signal, and settles only after that task has", async () => {
    const controller = new AbortController();
    let firstSettled = false;
    const tasks = {
      first: (_ctx: unknown, { signal }: { signal: AbortSignal }) =>
        new Promise<void>((_, reject) => {
          signal.addEventListener("abort", () =>
            setTimeout(() => {
              firstSettled = true;
              reject(signal.reason);
            }, 30),
          );
          controller.abort(new Error("deploy cancelled"));
        }),
      second: () => {
        throw new Error("must not run");
      },
    };
    const error = await mission.run({ clock: () => NOON, carbon: 1, signal: controller.signal, sdk: authority, tasks }).catch((e: unknown) => e);
    expect(firstSettled).toBe(true);
    // A task that stops because of the abort reports the abort, not a task failure.
    expect(error).toMatchObject({ code: "ABORTED", verdict: "ALLOW", executed: [], cause: new Error("deploy cancelled") });
  });

  it("gives every task a signal that is not aborted when the run has none", async () => {
    const seen: AbortSignal[] = [];
    const record = (_ctx: unknown, { signal }: { signal: AbortSignal }) => void seen.push(signal);
    const result = await mission.run({ clock: () => NOON, carbon: 1, sdk: authority, tasks: { first: record, second: record } });
    expect(result.executed).toEqual(["first", "second"]);
    expect(seen).toHaveLength(2);
    expect(seen.every((signal) => signal instanceof AbortSignal && !signal.aborted)).toBe(true);
  });

  it("abandons an authority that is still getting ready, and runs no task", async () => {
    const controller = new AbortController();
    const unused = () => Promise.reject(new Error("unused"));
    const stuck = { kind: "local", ready: () => new Promise<void>(() => {}), now: unused, issueReceipt: unused, anchor: unused };
    const ran: string[] = [];
    const pending = mission.run({ clock: () => NOON, carbon: 1, signal: controller.signal, sdk: stuck as never, tasks: { first: () => void ran.push("first"), second: () => {} } });
    setTimeout(() => controller.abort(), 20);
    await expect(pending).rejects.toMatchObject({ code: "ABORTED", verdict: "ALLOW", executed: [] });
    expect(ran).toEqual([]);
  });
});
