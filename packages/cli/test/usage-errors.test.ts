import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, runCliAsync } from "./run-cli.js";
import { folderPerTest } from "./scratch.js";

const folder = folderPerTest("temporalc-usage-errors-");

describe("a usage error is one line ending with its code, whatever the command", () => {
  it("for temporalc's own errors and commander's", async () => {
    const taken = folder.current();
    writeFileSync(join(taken, "backup.mission"), "");
    const cases: [string[], string][] = [
      [["run", "examples/ops.mission", "--mission", "nope"], "MISSION_NOT_FOUND"],
      [["run", "examples/ops.mission", "--tasks", "missing.mjs"], "TASKS_NOT_LOADED"],
      [["run", "no-such.mission"], "FILE_NOT_FOUND"],
      [["run", "examples/ops.mission", "--at", "yesterday"], "INVALID_TIME"],
      [["show", "examples/ops.mission", "--mission", "nope"], "MISSION_NOT_FOUND"],
      [["check", "-", "-"], "INVALID_ARGUMENT"],
      [["compile", "examples/ops.mission", "--stdout", "--json"], "INVALID_ARGUMENT"],
      [["fmt", "--check", "--write", "examples"], "INVALID_ARGUMENT"],
      [["explain", "M999"], "UNKNOWN_CODE"],
      [["init", taken], "FILE_EXISTS"],
      [["verify", "bundle.json", "--keys", "keys.json", "--zone", "z1"], "INVALID_ZONE"],
      [["run", "examples/ops.mission", "--carbon", "0x10"], "INVALID_ARGUMENT"],
      [["run", "examples/ops.mission", "--bogus"], "UNKNOWN_OPTION"],
      [["show"], "MISSING_ARGUMENT"],
      [["nope"], "UNKNOWN_COMMAND"],
      // A subcommand's subcommand, and a required option: commander's errors everywhere go through main().
      [["ledger", "status", "--bogus"], "UNKNOWN_OPTION"],
      [["verify", "bundle.json"], "MISSING_MANDATORY_OPTION_VALUE"],
    ];
    // Side by side: each is a separate process, and none depends on another.
    const results = await Promise.all(cases.map(([args]) => runCliAsync(args)));
    results.forEach((result, index) => {
      const [args, code] = cases[index]!;
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr, args.join(" ")).toMatch(new RegExp(`^temporalc: [^\\n]+ \\(${code}\\)\\n$`));
    });
  }, 90_000);

  it("commander's suggestion follows on the next line", () => {
    const result = runCli(["show", "examples/ops.mission", "--jsn"]);
    expect([result.code, result.stderr]).toEqual([2, "temporalc: unknown option '--jsn' (UNKNOWN_OPTION)\n  (Did you mean --json?)\n"]);
  });

  it("run and show say a mission file they cannot read as check says it: the same line and code, and with --json the path apart", async () => {
    const missing = join(folder.current(), "missing.mission");
    for (const [file, code, why] of [
      [missing, "FILE_NOT_FOUND", "no such file or folder"],
      [folder.current(), "FILE_UNREADABLE", "it is a folder"],
    ] as const) {
      const line = `temporalc: ${file}: ${why} (${code})\n`;
      const results = await Promise.all([runCliAsync(["run", file]), runCliAsync(["show", file]), runCliAsync(["run", "--json", file]), runCliAsync(["show", "--json", file])]);
      for (const result of results) expect([result.code, result.stderr]).toEqual([2, line]);
      // message is the line without `temporalc: ` and the code, as for every stop of run and show.
      for (const json of results.slice(2)) expect((JSON.parse(json.stdout) as { error: object }).error).toMatchObject({ code, message: `${file}: ${why}`, path: file });
    }
    // check's line for a file it cannot read (a folder it would walk instead).
    expect(runCli(["check", missing]).stderr).toBe(`temporalc: ${missing}: no such file or folder (FILE_NOT_FOUND)\n`);
  }, 60_000);

  it("run --json carries the code apart: its message is the line without it", () => {
    const result = runCli(["run", "examples/ops.mission", "--mission", "nope", "--json"]);
    expect(result.code).toBe(2);
    const { error } = JSON.parse(result.stdout) as { error: { code: string; message: string } };
    expect(error).toMatchObject({ code: "MISSION_NOT_FOUND", message: 'no mission named "nope"; this file has rotate_keys, vacuum_database, heartbeat' });
    expect(result.stderr).toBe(`temporalc: ${error.message} (MISSION_NOT_FOUND)\n`);
  });
});
