import { describe, expect, it, vi } from "vitest";
import { createMemoryAuthority } from "../src/authority/index.js";
import { allow, receiptHash } from "../src/core/index.js";
import type { Receipt, Window } from "../src/core/types.js";
import { defineMission, type DenyReason, type MissionSpec } from "../src/mission/index.js";
import { createTestService } from "../src/testing/index.js";
import type { ZttSigner } from "../src/ztt/index.js";

/** A mission as temporalc generates it for `anchor TSAE -> clockchain signed ZTT` after one task, in zone Z1. */
function signingSpec(window: Window): MissionSpec {
  return {
    name: "nightly",
    kernel_version: "4.6.2",
    zone: 1,
    requires: { phase: [window], carbon: null, hs_bloch: null },
    check: (ctx) => (allow(ctx, window) ? [] : (["PHASE_OUTSIDE_WINDOW"] as DenyReason[])),
    on: { ALLOW: [{ execute: "work" }, { anchor: "clockchain", signed: "ZTT" }], DENY: [] },
  };
}

// [330, 30] in Z1 is open from 20:00 to 00:00 UTC.
const INSIDE = Date.parse("2026-11-25T22:30:00Z");
const CLOSES = Date.parse("2026-11-26T00:00:00Z");

/** A memory authority whose ZTT signers are kept, to look at them after the run. */
function watchedAuthority() {
  const authority = createMemoryAuthority();
  const signers: ZttSigner[] = [];
  const zttSigner = authority.zttSigner.bind(authority);
  authority.zttSigner = (options) => {
    const signer = zttSigner(options);
    signers.push(signer);
    return signer;
  };
  return { authority, signers };
}

describe("a mission step signed: ZTT", () => {
  it("holds the ephemeral key no longer than the run", async () => {
    const { authority, signers } = watchedAuthority();
    const result = await defineMission(signingSpec([330, 30])).run({ sdk: authority, clock: () => INSIDE, tasks: { work: () => undefined } });
    expect(result.ztt).toHaveLength(1);
    expect(signers).toHaveLength(1);
    expect(signers[0]!.holdsKey()).toBe(false);
    await authority.close();
  });

  it("fails the step, before anchoring, when the window closes while the tasks run", async () => {
    const { authority, signers } = watchedAuthority();
    let now = INSIDE;
    const mission = defineMission(signingSpec([330, 30]));
    const run = mission.run({
      sdk: authority,
      clock: () => now,
      // A long task: the window has closed when it returns.
      tasks: { work: () => void (now = CLOSES + 1) },
    });
    await expect(run).rejects.toMatchObject({ code: "ANCHOR_FAILED", executed: ["work"], anchors: [], cause: { code: "ZTT_WINDOW_CLOSED" } });
    expect((await run.catch((error: { receipts: unknown[] }) => error)).receipts).toHaveLength(1);
    expect(signers[0]!.holdsKey()).toBe(false);
    await authority.close();
  });

  it("carries the bundles made before a later signed step failed", async () => {
    const authority = createMemoryAuthority();
    let now = INSIDE;
    const spec = signingSpec([330, 30]);
    const twice: MissionSpec = { ...spec, on: { ...spec.on, ALLOW: [...spec.on.ALLOW, { execute: "more" }, { anchor: "clockchain", signed: "ZTT" }] } };
    const run = defineMission(twice).run({ sdk: authority, clock: () => now, tasks: { work: () => undefined, more: () => void (now = CLOSES + 1) } });
    const error = (await run.catch((e: unknown) => e)) as { code: string; receipts: unknown[]; anchors: unknown[]; ztt: { payload_sha256: string }[] };
    expect(error).toMatchObject({ code: "ANCHOR_FAILED", cause: { code: "ZTT_WINDOW_CLOSED" } });
    expect([error.receipts.length, error.anchors.length, error.ztt.length]).toEqual([2, 1, 1]);
    expect(error.ztt[0]!.payload_sha256).toBe(receiptHash(error.receipts[0] as Receipt));
    await authority.close();
  });

  it("runs no task for a hand-written spec without exactly one window to sign in", async () => {
    const authority = createMemoryAuthority();
    const ran: string[] = [];
    const spec = { ...signingSpec([330, 30]), requires: { phase: [], carbon: null, hs_bloch: null }, check: () => [] };
    await expect(defineMission(spec).run({ sdk: authority, clock: () => INSIDE, tasks: { work: () => void ran.push("work") } })).rejects.toMatchObject({
      code: "AUTHORITY_UNAVAILABLE",
      message: expect.stringContaining("needs exactly one phase window in an SWT zone"),
    });
    expect(ran).toEqual([]);
    await authority.close();
  });

  it("against the service, signs by the clock its verdict was synced by: a step of this machine's wall clock during the task does not move the clock it signs by", async () => {
    const service = createTestService({ now: INSIDE });
    const sdk = service.client("enterprise");
    const wallClock = Date.now;
    // The task runs while this machine's wall clock is set six hours on (the window is four hours long); the service's stays.
    const stepWallClock = () => void vi.spyOn(Date, "now").mockImplementation(() => wallClock() + 6 * 3_600_000);
    try {
      const result = await defineMission(signingSpec([330, 30])).run({ sdk, tasks: { work: stepWallClock } });
      // The verdict's context, decided before the step: the service's pinned time, give or take the sync's error.
      expect(result.ctx.source).toBe("remote");
      expect(Math.abs(result.ctx.unix_ms - INSIDE)).toBeLessThan(5_000);
      expect(result.ztt).toHaveLength(1);
      expect(Math.abs(result.ztt![0]!.context.unix_ms - INSIDE)).toBeLessThan(5_000);
    } finally {
      vi.restoreAllMocks();
      await sdk.close();
      await service.close();
    }
  });
});
