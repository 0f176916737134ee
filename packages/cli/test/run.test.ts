import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { verifyInclusion, verifyReceipt, type RunResult } from "@temporal/agent-sdk";
import { createLocalAuthority } from "@temporal/agent-sdk/node";
import { REPO_ROOT, runCli } from "./run-cli.js";

const scratch = mkdtempSync(join(tmpdir(), "temporalc-run-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const home = join(scratch, "home");
const tasks = ["--tasks", "examples/tasks.mjs"];
const night = "2026-11-22T23:30:00Z";

describe("temporalc run", () => {
  it("runs the ALLOW block with the example tasks and anchors a receipt that verifies", async () => {
    const result = runCli(["run", "examples/nightly-backup.mission", ...tasks, "--carbon", "180", "--at", night, "--home", home, "--json"]);
    expect(result.stderr).toBe("temporalc: note: simulating 2026-11-22T23:30:00.000Z: tasks run, and receipts record it as the time of the action\n");
    expect(result.code).toBe(0);
    const json = result.stdout.slice(result.stdout.indexOf("{"));
    const outcome = JSON.parse(json) as RunResult;
    expect(outcome).toMatchObject({ mission: "nightly_backup", verdict: "ALLOW", reason: null, executed: ["snapshot_db", "upload_offsite"] });
    expect(result.stdout).toContain("… snapshotting the database (phase 22.50° in zone Z1)");
    const authority = createLocalAuthority({ home });
    try {
      const receipt = outcome.receipts[0]!;
      expect(await verifyReceipt(receipt, (await authority.publicKeys())[receipt.key_id]!)).toBe(true);
      expect(verifyInclusion(outcome.anchors[0]!)).toBe(true);
    } finally {
      await authority.close();
    }
  });

  it("prints the verdict, reasons, tasks and each receipt's tile, leaf and root", () => {
    const result = runCli(["run", "examples/nightly-backup.mission", ...tasks, "--carbon", "400", "--at", night, "--home", home]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("nightly_backup: DENY at 2026-11-22T23:30:00.000Z, phase 22.5° = 01:30 in Z1 (UTC+2)\n  CARBON_ABOVE_THRESHOLD: 400 is not < 250\n");
    expect(result.stdout).toContain("  ran: nothing");
    expect(result.stdout).toMatch(/ {2}receipt anchored: tile \d+, leaf \d+ of \d+, root [0-9a-f]{64}\n/);
  });

  it("evaluates only with --dry-run, runs every mission in order, and exits 3 on DENY with --fail-on-deny", () => {
    const args = ["run", "examples/ops.mission", "--dry-run", "--at", "2026-11-22T12:30:00Z", "--home", home];
    const result = runCli(args);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      [
        "rotate_keys: ALLOW at 2026-11-22T12:30:00.000Z, phase 127.5° = 08:30 in Z10 (UTC-4)",
        "  would run: rotate_keys",
        `  would anchor: a receipt (TSAE) in the clockchain of home ${home}`,
        "vacuum_database: DENY at 2026-11-22T12:30:00.000Z, phase 127.5° = 08:30 in Z10 (UTC-4)",
        "  PHASE_OUTSIDE_WINDOW: [0, 60] opens at 00:00 Z10 (04:00 UTC), in 15 h 30 min (2026-11-23T04:00:00.000Z)",
        "  CARBON_UNKNOWN: pass --carbon N (gCO2eq/kWh) or a carbon provider",
        "  would run: alert_on_call",
        "  would anchor: nothing",
        "heartbeat: ALLOW at 2026-11-22T12:30:00.000Z, phase 127.5° = 08:30 in Z10 (UTC-4)",
        "  would run: ping",
        "  would anchor: nothing",
        "",
      ].join("\n"),
    );
    expect(runCli([...args, "--fail-on-deny"]).code).toBe(3);
    expect(runCli([...args, "--fail-on-deny", "--mission", "heartbeat"]).code).toBe(0);
  });

  it("names every missing task, runs nothing and exits 1", () => {
    const result = runCli(["run", "examples/ml-training.mission", "--carbon", "50", "--hs-bloch", "0.95", "--at", "2026-11-22T03:00:00Z", "--home", home]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`needs tasks "fetch_dataset", "train_epoch", "publish_checkpoint"`);
    expect(result.stdout).toBe("");
  });

  it("reports a failing task with what had already run", () => {
    const module = join(scratch, "failing-tasks.mjs");
    writeFileSync(module, `export const snapshot_db = () => {}; export const upload_offsite = () => { throw new Error("bucket gone"); };\n`);
    const result = runCli(["run", "examples/nightly-backup.mission", "--tasks", module, "--carbon", "1", "--at", night, "--home", home]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`task "upload_offsite" of mission "nightly_backup" failed: bucket gone`);
    expect(result.stderr).toContain("already ran: snapshot_db");
  });

  it("gives usage errors (exit 2) for bad arguments, with no stack trace", () => {
    const cases = [
      ["run", "examples/ops.mission", "--mission", "nope", "--dry-run"],
      ["run", "examples/ops.mission", "--at", "2026-11-22T12:30:00", "--dry-run"],
      ["run", "examples/ops.mission", "--carbon", "lots", "--dry-run"],
      ["run", "examples/ops.mission", "--tasks", "missing.mjs"],
      ["run", "no-such.mission"],
      ["run", "examples/ops.mission", "--at", "2026-02-30", "--dry-run"],
      ["run", "examples/ops.mission", "--at", "2026-11-22T24:00:00Z", "--dry-run"],
      ["run", "examples/ml-training.mission", "--hs-bloch", "92", "--dry-run"],
      ["run", "examples/ml-training.mission", "--carbon", "-5", "--dry-run"],
    ];
    for (const args of cases) {
      const result = runCli(args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr, args.join(" ")).not.toMatch(/\n\s+at /);
    }
    expect(runCli(cases[0]!).stderr).toContain(`no mission named "nope"; this file has rotate_keys, vacuum_database, heartbeat`);
  });

  it("reads --at in the offset it is written in", () => {
    const result = runCli(["run", "examples/ops.mission", "--mission", "heartbeat", "--dry-run", "--json", "--at", "2026-11-23T05:00:00+05:30"]);
    expect((JSON.parse(result.stdout) as RunResult).ctx.utc).toBe("2026-11-22T23:30:00.000Z");
  });

  it("reports a ledger that cannot be written in one line before any task runs, and exits 2", () => {
    const file = join(scratch, "not-a-folder");
    writeFileSync(file, "");
    const result = runCli(["run", "examples/nightly-backup.mission", ...tasks, "--carbon", "1", "--at", night, "--home", join(file, "home")]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`mission "nightly_backup" did not start: its local authority cannot issue and anchor receipts: cannot create the folder ${file}: a file is in the way`);
    expect(result.stderr).toMatch(/No task ran\. \(AUTHORITY_UNAVAILABLE\)\n$/);
    expect(result.stdout).not.toContain("snapshotting");
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  // /proc/self/fd names the ledger's descriptor; the SDK's close swallows what the home's state can break (its snapshot
  // and merges are derived data), so replacing the home by a file between the run and the close does not fail it.
  it.runIf(process.platform === "linux")("reports a ledger whose close fails once the missions ran, with LEDGER_IO_FAILED, and keeps their exit status", () => {
    const folder = join(realpathSync(scratch), "close-fails");
    const ledger = join(folder, "home", "clockchain.log");
    mkdirSync(folder);
    writeFileSync(
      join(folder, "two.mission"),
      "@temporal v4.6.2\n@anchor Z1\n\nmission first {\n  on ALLOW {\n    anchor TSAE -> clockchain\n  }\n}\n\nmission second {\n  on ALLOW {\n    execute sabotage\n  }\n}\n",
    );
    // Once the first mission has anchored, the second's task closes the ledger's file descriptor under the store: the
    // store's own close of it then fails (EBADF), for real.
    writeFileSync(
      join(folder, "tasks.mjs"),
      `import { closeSync, readdirSync, readlinkSync } from "node:fs";
export function sabotage() {
  for (const fd of readdirSync("/proc/self/fd")) {
    let target;
    try { target = readlinkSync(\`/proc/self/fd/\${fd}\`); } catch { continue; }
    if (target === ${JSON.stringify(ledger)}) closeSync(Number(fd));
  }
}
`,
    );
    const result = runCli(["run", join(folder, "two.mission"), "--tasks", join(folder, "tasks.mjs"), "--home", join(folder, "home"), "--json"]);
    expect([result.code, result.stderr]).toEqual([0, "temporalc: closing the ledger failed: bad file descriptor (LEDGER_IO_FAILED)\n"]);
    const outcomes = JSON.parse(result.stdout) as RunResult[];
    expect(outcomes.map((o) => [o.mission, o.verdict, o.executed, o.anchors.length])).toEqual([
      ["first", "ALLOW", [], 1],
      ["second", "ALLOW", ["sabotage"], 0],
    ]);
  });

  it("stops quietly when its output pipe is closed early", () => {
    const result = spawnSync("bash", ["-c", `"${process.execPath}" bin/temporalc run examples/ops.mission --dry-run | head -c 1`], { cwd: REPO_ROOT, encoding: "utf8" });
    expect(result.stderr).toBe("");
  });

  it("exits 1 with diagnostics for a mission file with errors", () => {
    const file = join(scratch, "broken.mission");
    writeFileSync(file, "mission broken { require phase [5, 5] on ALLOW { execute t } }\n");
    const result = runCli(["run", file, "--dry-run"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("error[M301]");
  });
});
