import { readFileSync } from "node:fs";
import { createMemoryAuthority, type Authority } from "@temporal/agent-sdk";
import { afterEach, describe, expect, it } from "vitest";
import { mustLoad } from "./compiled.js";
import { runMissions, verifyAnchored, type MissionRun } from "../../src/worker/run-missions.js";

const nightlyBackup = readFileSync(new URL("../../../../examples/nightly-backup.mission", import.meta.url), "utf8");
// 21:30 UTC is 23:30 in zone Z1 (UTC+2): inside the backup window [300, 30], 20:00 to 02:00.
const insideWindow = Date.parse("2026-11-26T21:30:00Z");

let authority: Authority | undefined;
afterEach(async () => {
  await authority?.close();
  authority = undefined;
});

async function run(source: string, settings: { at: number; carbon: number | null; hsBloch: number | null }): Promise<{ runs: MissionRun[]; log: string[] }> {
  const compiled = mustLoad(source);
  authority = createMemoryAuthority();
  const log: string[] = [];
  const { runs } = await runMissions({ missions: compiled.missions, settings, authority, log: (line) => log.push(line) });
  return { runs, log };
}

function succeeded(run: MissionRun | undefined): Extract<MissionRun, { ok: true }> {
  if (run === undefined || !run.ok) throw new Error(`the run failed: ${JSON.stringify(run)}`);
  return run;
}

describe("runMissions", () => {
  it("runs the ALLOW block with stand-in tasks at the slider's time and verifies the real signed receipt and proof", async () => {
    const { runs, log } = await run(nightlyBackup, { at: insideWindow, carbon: 180, hsBloch: null });
    const nightly = succeeded(runs[0]);
    expect(nightly.result.verdict).toBe("ALLOW");
    expect(nightly.result.executed).toEqual(["snapshot_db", "upload_offsite"]);
    expect(log).toEqual([expect.stringMatching(/^nightly_backup: snapshot_db ran \(stand-in\) at phase 352\.50° in zone Z1$/), expect.stringMatching(/upload_offsite/)]);
    expect(nightly.result.receipts).toHaveLength(1);
    // --at semantics: the decision and the receipt's phase are the slider's instant (issued_unix_ms is when it was signed).
    expect(nightly.result.ctx.unix_ms).toBe(insideWindow);
    expect(nightly.result.receipts[0]).toMatchObject({ swt_zone: 1, tile_id: nightly.result.ctx.tile_id });
    expect(nightly.result.receipts[0]!.signature).toMatch(/^[0-9a-f]{128}$/);
    expect(nightly.verified).toEqual([
      expect.objectContaining({
        valid: true,
        checks: [
          { name: "receipt_signature", ok: true },
          { name: "inclusion", ok: true },
          { name: "checkpoint_signature", ok: true },
        ],
      }),
    ]);
  });

  it("runs the DENY block, with the SDK's reasons, when the carbon is too high", async () => {
    const { runs, log } = await run(nightlyBackup, { at: insideWindow, carbon: 300, hsBloch: null });
    const nightly = succeeded(runs[0]);
    expect(nightly.result.verdict).toBe("DENY");
    expect(nightly.result.reasons).toEqual(["CARBON_ABOVE_THRESHOLD"]);
    expect(log).toEqual([]);
    expect(nightly.verified.map((v) => v.valid)).toEqual([true]);
  });

  it("reports a mission that cannot finish with its error code and still runs the next", async () => {
    // A quorum no in-memory authority without witnesses can reach fails before any task runs.
    const source =
      "@temporal v4.6.2\nmission a {\n  require phase [0, 360]\n  on ALLOW {\n    execute t\n    anchor TSAE -> clockchain quorum 2\n  }\n}\nmission b {\n  require phase [0, 360]\n  on ALLOW {\n    execute u\n  }\n}\n";
    const { runs, log } = await run(source, { at: insideWindow, carbon: null, hsBloch: null });
    expect(runs[0]).toMatchObject({ mission: "a", ok: false, error: { code: expect.stringMatching(/^[A-Z_]+$/) } });
    expect(succeeded(runs[1]).result.executed).toEqual(["u"]);
    expect(log).toEqual([expect.stringMatching(/^b: u ran/)]);
  });

  it("asks the authority for its public keys once per run and returns the keys it verified with", async () => {
    const compiled = mustLoad(nightlyBackup);
    const real = createMemoryAuthority();
    authority = real;
    let asked = 0;
    // The real authority, with its key requests counted: Run used to ask a second time for the page's copy.
    const counting = new Proxy(real, {
      get(target, key) {
        if (key === "publicKeys") return () => (asked++, target.publicKeys());
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    const { runs, publicKeys } = await runMissions({ missions: compiled.missions, settings: { at: insideWindow, carbon: 180, hsBloch: null }, authority: counting, log: () => {} });
    expect(asked).toBe(1);
    expect(succeeded(runs[0]).verified.map((v) => v.valid)).toEqual([true]);
    expect(publicKeys).toEqual(await real.publicKeys());
    expect(Object.keys(publicKeys)).toContain(succeeded(runs[0]).result.receipts[0]!.key_id);
  });

  it("keeps verifying on the page's one authority when the slider goes back in time between runs", async () => {
    const compiled = mustLoad(nightlyBackup);
    authority = createMemoryAuthority();
    const runAt = async (at: number) => (await runMissions({ missions: compiled.missions, settings: { at, carbon: 100, hsBloch: null }, authority: authority!, log: () => {} })).runs;
    const later = succeeded((await runAt(insideWindow))[0]);
    const earlier = succeeded((await runAt(insideWindow - 86_400_000))[0]);
    const again = succeeded((await runAt(insideWindow))[0]);
    expect([later, earlier, again].flatMap((run) => run.verified.map((v) => v.valid))).toEqual([true, true, true]);
    // The same day's tile grew: the third receipt is the second leaf of the first run's tile.
    expect(again.result.anchors[0]).toMatchObject({ tile_id: later.result.anchors[0]!.tile_id, leaf_index: 1, tree_size: 2 });
  });
});

describe("verifyAnchored", () => {
  it("fails a tampered receipt and a tampered proof, naming the checks that broke", async () => {
    const { runs } = await run(nightlyBackup, { at: insideWindow, carbon: 180, hsBloch: null });
    const { receipt, proof } = succeeded(runs[0]).verified[0]!;
    const keys = await authority!.publicKeys();

    const tamperedReceipt = { ...receipt, issued_unix_ms: receipt.issued_unix_ms + 1 };
    const forged = await verifyAnchored(tamperedReceipt, proof, keys);
    expect(forged.valid).toBe(false);
    expect(forged.checks.filter((c) => !c.ok).map((c) => c.name)).toEqual(["receipt_signature", "inclusion"]);

    const otherRoot = { ...proof!, root_hash: proof!.root_hash.replace(/^./, (c) => (c === "0" ? "1" : "0")) };
    const badProof = await verifyAnchored(receipt, otherRoot, keys);
    expect(badProof.checks.map((c) => [c.name, c.ok])).toEqual([
      ["receipt_signature", true],
      ["inclusion", false],
      ["checkpoint_signature", true],
    ]);

    const stranger = createMemoryAuthority();
    try {
      const unknownKey = await verifyAnchored(receipt, proof, await stranger.publicKeys());
      expect(unknownKey.checks.every((c) => !c.ok || c.name === "inclusion")).toBe(true);
      expect(unknownKey.valid).toBe(false);
    } finally {
      await stranger.close();
    }
  });
});
