import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT, runCli } from "./run-cli.js";

const scratch = mkdtempSync(join(tmpdir(), "temporalc-run-report-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const home = join(scratch, "home");
// 19:25:12 in zone Z1 (UTC+2): 35 minutes before nightly_backup's window [300, 30] opens.
const evening = "2026-11-22T17:25:12Z";
const backup = ["run", "examples/nightly-backup.mission", "--tasks", "examples/tasks.mjs", "--home", home];
const ESC = "\u001b[";

describe("temporalc run speaks plainly", () => {
  it("gives the phase as clock time, when the window opens, and why each measure denies", () => {
    const result = runCli([...backup, "--at", evening, "--carbon", "300", "--dry-run"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(
      [
        "nightly_backup: DENY at 2026-11-22T17:25:12.000Z, phase 291.3° = 19:25 in Z1 (UTC+2)",
        "  PHASE_OUTSIDE_WINDOW: [300, 30] opens at 20:00 Z1 (18:00 UTC), in 35 min (2026-11-22T18:00:00.000Z)",
        "  CARBON_ABOVE_THRESHOLD: 300 is not < 250",
        "  would run: nothing",
        `  would anchor: a receipt (TSAE) in the clockchain of home ${home}`,
        "",
      ].join("\n"),
    );
  });

  it("lists what --dry-run would run for an ALLOW, and says what to pass for an unknown measure", () => {
    const allowed = runCli([...backup, "--at", "2026-11-22T23:30:00Z", "--carbon", "12.5", "--dry-run"]);
    expect(allowed.stdout).toContain("nightly_backup: ALLOW at 2026-11-22T23:30:00.000Z, phase 22.5° = 01:30 in Z1 (UTC+2)\n  would run: snapshot_db, upload_offsite\n");
    const unknown = runCli(["run", "examples/ml-training.mission", "--at", "2026-11-22T03:00:00Z", "--carbon", "50", "--dry-run"]);
    expect(unknown.stdout).toContain("  HS_BLOCH_UNKNOWN: pass --hs-bloch Q (a score from 0 to 1) or an HS-Bloch provider\n");
  });

  it("colours ALLOW and DENY only when asked for or on a terminal, never in --json", () => {
    const args = [...backup, "--at", evening, "--dry-run"];
    expect(runCli(args, { env: { FORCE_COLOR: "1" } }).stdout).toContain(`nightly_backup: ${ESC}31mDENY${ESC}39m at`);
    expect(runCli([...backup, "--at", "2026-11-22T23:30:00Z", "--carbon", "1", "--dry-run"], { env: { FORCE_COLOR: "1" } }).stdout).toContain(`${ESC}32mALLOW${ESC}39m`);
    // piped, as here, without FORCE_COLOR: plain
    expect(runCli(args).stdout).not.toContain(ESC);
    expect(runCli(args, { env: { FORCE_COLOR: "0" } }).stdout).not.toContain(ESC);
    const json = runCli([...args, "--json"], { env: { FORCE_COLOR: "1" } });
    expect(json.stdout).not.toContain(ESC);
    expect(JSON.parse(json.stdout)).toMatchObject({ verdict: "DENY" });
  });
});

describe("temporalc run names the cause", () => {
  it("refuses a --carbon that is not a plain decimal number, and hints at the scale of --hs-bloch", () => {
    for (const value of ["0x10", "1e3", "+5", "-5", " 7", "0b1", "Infinity", ""]) {
      const result = runCli(["run", "examples/ml-training.mission", "--dry-run", "--carbon", value]);
      expect(result.code, value).toBe(2);
      expect(result.stderr, value).toContain("expected a decimal number of gCO2eq/kWh, 0 or more, e.g. 180");
    }
    const percent = runCli(["run", "examples/ml-training.mission", "--dry-run", "--hs-bloch", "95"]);
    expect(percent.code).toBe(2);
    expect(percent.stderr).toContain("expected a score from 0 to 1, e.g. 0.95 rather than 95");
    expect(runCli(["run", "examples/ml-training.mission", "--dry-run", "--hs-bloch", "1.5"]).stderr).toMatch(/a score from 0 to 1, e.g. 0.95 \(INVALID_ARGUMENT\)\n/);
    expect(runCli(["run", "examples/ml-training.mission", "--dry-run", "--hs-bloch", "0x1"]).stderr).toMatch(/a score from 0 to 1, e.g. 0.95 \(INVALID_ARGUMENT\)\n/);
  });

  it("reads --at with the SDK's rules: no such date, and no time without a zone", () => {
    const feb30 = runCli(["run", "examples/ops.mission", "--dry-run", "--at", "2026-02-30"]);
    expect(feb30.code).toBe(2);
    // The same line as temporalc show --at's (at-option.ts), code and all.
    expect(feb30.stderr).toBe(`temporalc: --at "2026-02-30" is not an ISO 8601 time with a zone: no such date: 2026-02 has 28 days (INVALID_TIME)\n`);
    expect(runCli(["show", "examples/ops.mission", "--at", "2026-02-30"]).stderr).toBe(feb30.stderr);
    const local = runCli(["run", "examples/ops.mission", "--dry-run", "--at", "2026-11-22T23:30"]);
    expect(local.code).toBe(2);
    expect(local.stderr).toContain("the time has no zone; add Z for UTC or an offset, e.g. 2026-11-22T23:30Z or 2026-11-22T23:30+02:00");
    const lowercase = runCli(["run", "examples/ops.mission", "--dry-run", "--json", "--mission", "heartbeat", "--at", "2026-11-22t23:30:00,5z"]);
    expect(JSON.parse(lowercase.stdout)).toMatchObject({ ctx: { utc: "2026-11-22T23:30:00.500Z" } });
  });

  it("names a task export that is not a function", () => {
    const module = join(scratch, "tasks.mjs");
    writeFileSync(module, `export const snapshot_db = "pg_dump"; export const upload_offsite = () => {};\n`);
    const result = runCli(["run", "examples/nightly-backup.mission", "--tasks", module, "--carbon", "1", "--at", "2026-11-22T23:30:00Z", "--home", home]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`temporalc: ${module} exports \`snapshot_db\` but it is a string, not a function (TASK_NOT_A_FUNCTION)\n`);
  });

  it("treats a bad TEMPORAL_URL or TEMPORAL_API_KEY as configuration: exit 2, naming the variable, never a bug", () => {
    for (const [url, key, fragment] of [
      ["not a url", undefined, "is not an absolute URL"],
      ["ftp://127.0.0.1/", undefined, "must use http: or https:, not ftp:"],
      ["http://127.0.0.1:99999", undefined, "is not an absolute URL"],
      ["http://127.0.0.1:8787", "two words", "TEMPORAL_API_KEY"],
    ] as const) {
      const result = runCli(["run", "examples/ops.mission", "--dry-run"], { env: { TEMPORAL_URL: url, TEMPORAL_API_KEY: key } });
      expect(result.code, url).toBe(2);
      expect(result.stderr, url).toContain(key === undefined ? "TEMPORAL_URL" : "TEMPORAL_API_KEY");
      expect(result.stderr, url).toContain(fragment);
      expect(result.stderr, url).not.toContain("bug");
      const json = runCli(["run", "examples/ops.mission", "--dry-run", "--json"], { env: { TEMPORAL_URL: url, TEMPORAL_API_KEY: key } });
      expect(JSON.parse(json.stdout), url).toMatchObject({ error: { code: expect.stringMatching(/^INVALID_(BASE_URL|CLIENT_OPTIONS)$/) }, results: [] });
    }
  });
});

describe("temporalc run --json prints one object for every way a run stops", () => {
  interface Stopped {
    error: {
      code: string;
      message: string;
      mission?: string;
      task?: string;
      executed: string[];
      anchors: { root_hash: string }[];
      diagnostics?: { code: string }[];
      cause?: { message: string };
    };
    results: { mission: string }[];
  }
  const stopped = (args: string[], exit: number): Stopped => {
    const result = runCli([...args, "--json"]);
    expect(result.code, result.stderr).toBe(exit);
    expect(result.stderr).not.toMatch(/\n\s+at |bug/);
    return JSON.parse(result.stdout.slice(result.stdout.indexOf("{"))) as Stopped;
  };

  it("for usage errors found after parsing", () => {
    expect(stopped(["run", "examples/ops.mission", "--mission", "nope"], 2).error).toMatchObject({
      code: "MISSION_NOT_FOUND",
      message: expect.stringContaining(`no mission named "nope"`),
      executed: [],
      anchors: [],
    });
    expect(stopped(["run", "no-such.mission"], 2).error).toMatchObject({ code: "FILE_NOT_FOUND", message: "no-such.mission: no such file or folder", path: "no-such.mission" });
    expect(stopped(["run", "examples/ops.mission", "--tasks", "missing.mjs"], 2).error).toMatchObject({ code: "TASKS_NOT_LOADED", message: expect.stringContaining("no such module") });
    expect(stopped(["run", "examples/ops.mission", "--at", "2026-02-30"], 2).error).toMatchObject({
      code: "INVALID_TIME",
      // The line on stderr without its code, which `code` carries.
      message: expect.stringMatching(/^--at "2026-02-30" .* has 28 days$/) as string,
    });
  });

  it("for a mission file with errors, with its diagnostics", () => {
    const file = join(scratch, "broken.mission");
    writeFileSync(file, "mission broken { require phase [5, 5] on ALLOW { execute t } }\n");
    const { error } = stopped(["run", file], 1);
    expect(error).toMatchObject({ code: "MISSION_FILE_INVALID", message: `${file} has errors; nothing ran` });
    expect(error.diagnostics?.map((d) => d.code)).toContain("M301");
  });

  it("for missing tasks", () => {
    const { error } = stopped(["run", "examples/ml-training.mission", "--carbon", "50", "--hs-bloch", "0.95", "--at", "2026-11-22T03:00:00Z", "--home", home], 1);
    expect(error).toMatchObject({ code: "MISSING_TASKS", mission: "train_model", missing: ["fetch_dataset", "train_epoch", "publish_checkpoint"], executed: [], anchors: [] });
  });

  it("for a failing task: what ran and the receipts anchored before it, and the missions before it", () => {
    const file = join(scratch, "two.mission");
    writeFileSync(
      file,
      "@temporal v4.6.2\nmission first { on ALLOW { execute ping anchor TSAE -> clockchain } }\nmission second { on ALLOW { anchor TSAE -> clockchain execute ping execute fail } }\n",
    );
    const module = join(scratch, "failing.mjs");
    writeFileSync(module, `export const ping = () => {}; export const fail = () => { throw new Error("disk full"); };\n`);
    const { error, results } = stopped(["run", file, "--tasks", module, "--at", "2026-11-22T23:30:00Z", "--home", home], 1);
    expect(error).toMatchObject({ code: "TASK_FAILED", mission: "second", task: "fail", executed: ["ping"], message: `task "fail" of mission "second" failed: disk full` });
    expect(error.anchors).toHaveLength(1);
    expect(error.anchors[0]!.root_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(results.map((r) => r.mission)).toEqual(["first"]);
  });

  it("for a task that throws what is no Error (null, undefined, an object, a rejected promise): the value, never a crash or [object Object]", () => {
    const file = join(scratch, "throws.mission");
    writeFileSync(file, "@temporal v4.6.2\nmission throws { on ALLOW { execute odd } }\n");
    const cases: [string, string][] = [
      ["throw null", "it threw null, not an Error"],
      ["throw undefined", "it threw undefined, not an Error"],
      ['throw { reason: "full" }', 'it threw {"reason":"full"}, not an Error'],
      ["return Promise.reject(null)", "it threw null, not an Error"],
      ["throw 42n", "it threw 42, not an Error"],
    ];
    for (const [body, why] of cases) {
      const module = join(scratch, `odd-${cases.findIndex(([b]) => b === body)}.mjs`);
      writeFileSync(module, `export const odd = () => { ${body}; };\n`);
      const { error } = stopped(["run", file, "--tasks", module, "--at", "2026-11-22T23:30:00Z", "--home", home], 1);
      expect(error, body).toMatchObject({ code: "TASK_FAILED", task: "odd", message: `task "odd" of mission "throws" failed: ${why}` });
      // undefined is no cause to report; any other value is, in the same words.
      expect(error.cause, body).toEqual(body === "throw undefined" ? undefined : { message: why });
    }
  });
});

describe("the examples", () => {
  it("say the UTC offset their zone keeps: zone Zn is UTC + 2n hours (docs/phase.md)", () => {
    const sources = [
      ...readdirSync(join(REPO_ROOT, "examples"))
        .filter((name) => name.endsWith(".mission"))
        .map((name) => readFileSync(join(REPO_ROOT, "examples", name), "utf8")),
      ...[...readFileSync(join(REPO_ROOT, "README.md"), "utf8").matchAll(/```mission\n([\s\S]*?)```/g)].map((m) => m[1]!),
    ];
    let checked = 0;
    for (const source of sources) {
      const zone = Number(/@anchor Z(\d+)/.exec(source)?.[1] ?? 0);
      for (const [, offset] of source.matchAll(/zone Z\d+,? \(?UTC([+-]\d+)/g)) {
        expect((((Number(offset) - 2 * zone) % 24) + 24) % 24, source.slice(0, 80)).toBe(0);
        checked++;
      }
      if (/@anchor/.test(source)) expect(source, source.slice(0, 80)).not.toMatch(/UTC\+1\b/);
    }
    expect(checked).toBeGreaterThanOrEqual(3);
  });
});
