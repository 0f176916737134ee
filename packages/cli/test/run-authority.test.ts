import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { RunResult } from "@temporal/agent-sdk";
import { closedPort } from "../../sdk/test/helpers.js";
import { startService } from "../../server/test/helpers.js";
import { runCli, runCliAsync } from "./run-cli.js";

const scratch = mkdtempSync(join(tmpdir(), "temporalc-run-authority-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const night = "2026-11-22T23:30:00Z";
let markers = 0;

/** A tasks module for nightly-backup.mission whose first task writes a marker file, and that file. */
function markingTasks(): { args: string[]; marker: string } {
  const n = ++markers;
  const marker = join(scratch, `marker-${n}`);
  const module = join(scratch, `tasks-${n}.mjs`);
  writeFileSync(
    module,
    `import { writeFileSync } from "node:fs";\nexport const snapshot_db = () => writeFileSync(${JSON.stringify(marker)}, "ran");\nexport const upload_offsite = () => {};\n`,
  );
  return { args: ["run", "examples/nightly-backup.mission", "--tasks", module, "--carbon", "1"], marker };
}

/** The one line every failure before the tasks gives, with its exit status. */
function expectNothingRan(result: { code: number | null; stderr: string }, marker: string, ...fragments: string[]): void {
  expect(result.code, result.stderr).toBe(2);
  const lines = result.stderr.split("\n").filter((line) => line !== "" && !line.startsWith("temporalc: note:"));
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^temporalc: mission "nightly_backup" did not start: .*No task ran\. \(AUTHORITY_UNAVAILABLE\)$/);
  for (const fragment of fragments) expect(lines[0]).toContain(fragment);
  expect(existsSync(marker)).toBe(false);
}

// Six hours ahead of this machine, so the service's time is recognisable.
const AHEAD_MS = 6 * 3_600_000;
const running = await startService({}, { clock: () => Date.now() + AHEAD_MS });
const down = `http://127.0.0.1:${await closedPort()}`;

describe("temporalc run stops before any task when it could not anchor the receipt", () => {
  it("for a home it cannot create", () => {
    const file = join(scratch, "file-not-folder");
    writeFileSync(file, "");
    const { args, marker } = markingTasks();
    expectNothingRan(
      runCli([...args, "--at", night, "--home", join(file, "home")]),
      marker,
      "a file is in the way: a part of the path is not a folder (the home must be a folder this process can create and write",
    );
  });

  // Node's recursive mkdir spun at 100% CPU forever under /proc; /sys refuses new folders (EPERM) even to root.
  it.runIf(process.platform === "linux")("for a home under /proc or /sys, at once, naming the folder and the cause", { timeout: 90_000 }, () => {
    for (const [home, folder, cause] of [
      ["/proc/no-such-process/home", "/proc/no-such-process", "the file system does not allow creating folders here"],
      ["/sys/temporalc-test/home", "/sys/temporalc-test", "permission denied"],
    ] as const) {
      const { args, marker } = markingTasks();
      const result = runCli([...args, "--at", night, "--home", home, "--json"]);
      expectNothingRan(result, marker, `cannot create the folder ${folder}: ${cause}`);
      expect(JSON.parse(result.stdout)).toMatchObject({ error: { code: "AUTHORITY_UNAVAILABLE", cause: { code: "DIRECTORY_NOT_CREATED" } }, results: [] });
    }
  });

  it("for a corrupt ledger, which it leaves as it was", { timeout: 60_000 }, () => {
    const home = join(scratch, "corrupt-home");
    const first = markingTasks();
    expect(runCli([...first.args, "--at", night, "--home", home]).code).toBe(0);
    expect(runCli([...first.args, "--at", night, "--home", home]).code).toBe(0);
    const ledger = join(home, "clockchain.log");
    const bytes = readFileSync(ledger);
    bytes[40] = (bytes[40] as number) ^ 1;
    writeFileSync(ledger, bytes);
    // The snapshot saved on closing vouches for the damaged record; without it, opening replays the ledger and finds the damage.
    rmSync(join(home, "clockchain.snapshot"));
    const { args, marker } = markingTasks();
    expectNothingRan(runCli([...args, "--at", night, "--home", home]), marker, "is corrupt at byte", "move it aside");
    expect(readFileSync(ledger)).toEqual(bytes);
  });

  it("for a time before 1970, in one JSON object with --json", () => {
    const { args, marker } = markingTasks();
    const result = runCli([...args, "--at", "1969-12-31T23:30:00Z", "--home", join(scratch, "pre-1970"), "--json"]);
    expectNothingRan(result, marker, "a receipt cannot record its time, 1969-12-31T23:30:00.000Z", "day_index -1");
    expect(JSON.parse(result.stdout)).toMatchObject({
      error: { code: "AUTHORITY_UNAVAILABLE", mission: "nightly_backup", cause: { code: "TSAE_REQUEST_INVALID" } },
      results: [],
    });
  });

  it("naming the missions of the file that ran before it, also in the JSON object", () => {
    const file = join(scratch, "two.mission");
    writeFileSync(file, "@temporal v4.6.2\nmission first { on ALLOW { execute ping } }\nmission second { on ALLOW { execute ping anchor TSAE -> clockchain } }\n");
    const blocked = join(scratch, "blocked-home");
    writeFileSync(blocked, "");
    const args = ["run", file, "--tasks", "examples/tasks.mjs", "--at", night, "--home", join(blocked, "home")];
    const text = runCli(args);
    expect(text.code).toBe(2);
    expect(text.stdout).toContain("first: ALLOW");
    expect(text.stderr).toContain(`mission "second" did not start`);
    expect(text.stderr).toContain("\n  the missions before it did run: first\n");
    const json = runCli([...args, "--json"]);
    const outcome = JSON.parse(json.stdout.slice(json.stdout.indexOf("{"))) as { error: { mission: string }; results: RunResult[] };
    expect(outcome.error.mission).toBe("second");
    expect(outcome.results.map((result) => [result.mission, result.executed])).toEqual([["first", ["ping"]]]);
  }, 60_000);

  it("for a service that refuses the API key (401), with no stack trace", async () => {
    const { args, marker } = markingTasks();
    const result = await runCliAsync([...args, "--at", night], { env: { TEMPORAL_URL: running.url, TEMPORAL_API_KEY: "wrong-key" } });
    expectNothingRan(result, marker, "its remote authority cannot issue and anchor receipts", "401 UNAUTHORIZED", "TEMPORAL_API_KEY");
    expect(result.stderr).not.toContain("wrong-key");
  });

  it("for a service that is not running, both when it should tell the time and when it should anchor", { timeout: 60_000 }, () => {
    for (const at of [[], ["--at", night]]) {
      const { args, marker } = markingTasks();
      expectNothingRan(runCli([...args, ...at], { env: { TEMPORAL_URL: down, TEMPORAL_API_KEY: undefined } }), marker, "start the service");
    }
  });
});

describe("temporalc run with the service in TEMPORAL_URL", () => {
  it("decides on the service's clock and anchors there", async () => {
    const { args, marker } = markingTasks();
    const before = Date.now();
    const result = await runCliAsync([...args, "--json"], { env: { TEMPORAL_URL: running.url, TEMPORAL_API_KEY: running.keys.enterprise } });
    expect(result.code, result.stderr).toBe(0);
    const outcome = JSON.parse(result.stdout.slice(result.stdout.indexOf("{"))) as RunResult;
    expect(outcome.ctx.source).toBe("remote");
    expect(outcome.ctx.unix_ms).toBeGreaterThanOrEqual(before + AHEAD_MS);
    expect(outcome.anchors).toHaveLength(1);
    expect(existsSync(marker)).toBe(outcome.verdict === "ALLOW");
  });

  it("reads the local clock with --local-clock, which runs a mission that anchors nothing while the service is down", { timeout: 60_000 }, () => {
    const heartbeat = ["run", "examples/ops.mission", "--mission", "heartbeat", "--tasks", "examples/tasks.mjs", "--json"];
    const env = { TEMPORAL_URL: down, TEMPORAL_API_KEY: undefined };
    const refused = runCli(heartbeat, { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`mission "heartbeat" did not start: the service could not tell the time`);
    const result = runCli([...heartbeat, "--local-clock"], { env });
    expect(result.code, result.stderr).toBe(0);
    const outcome = JSON.parse(result.stdout.slice(result.stdout.indexOf("{"))) as RunResult;
    expect(outcome).toMatchObject({ mission: "heartbeat", executed: ["ping"], ctx: { source: "local" } });
    expect(Math.abs(outcome.ctx.unix_ms - Date.now())).toBeLessThan(60_000);
  });
});
