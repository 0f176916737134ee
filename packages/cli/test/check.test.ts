import { mkdtempSync, readFileSync, writeFileSync, rmSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT, runCli } from "./run-cli.js";

const scratch = mkdtempSync(join(tmpdir(), "temporalc-check-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("temporalc check", () => {
  it("exits 0 and reports a summary for a valid file", () => {
    const result = runCli(["check", "fixtures/valid/nightly-backup.mission"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("checked 1 file: 0 errors, 0 warnings\n");
  });

  it("exits 1 and prints code frames for a file with errors", () => {
    const result = runCli(["check", "fixtures/invalid/typos.mission"]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("error[M102]: expected `require`, `on` or `}`, found `requre`\n --> fixtures/invalid/typos.mission:9:3");
    expect(result.stdout).toContain("= help: did you mean `require`?");
    expect(result.stdout).toMatch(/checked 1 file: 5 errors, 0 warnings\n$/);
  });

  it("prints JSON with every diagnostic and a summary", () => {
    const result = runCli(["check", "--format", "json", "fixtures/invalid/structure.mission", "fixtures/valid/warnings.mission"]);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as { diagnostics: { code: string; file: string }[]; summary: unknown };
    expect(report.summary).toEqual({ files: 2, errors: 3, warnings: 9 });
    expect(report.diagnostics[0]).toMatchObject({ code: "M501", file: "fixtures/invalid/structure.mission", severity: "error" });
    expect(new Set(report.diagnostics.map((d) => d.file))).toEqual(new Set(["fixtures/invalid/structure.mission", "fixtures/valid/warnings.mission"]));
  });

  it("fails on more warnings than --max-warnings allows", () => {
    expect(runCli(["check", "--max-warnings", "9", "fixtures/valid/warnings.mission"]).code).toBe(0);
    const over = runCli(["check", "--max-warnings", "8", "fixtures/valid/warnings.mission"]);
    expect(over.code).toBe(1);
    expect(over.stdout).toContain("(more than --max-warnings 8)");
  });

  it("exits 2 for a missing file but still checks the others", () => {
    const result = runCli(["check", "fixtures/valid/minimal.mission", "no/such.mission"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("temporalc: no/such.mission: no such file or folder (FILE_NOT_FOUND)\n");
    expect(result.stdout).toBe("checked 1 file: 0 errors, 0 warnings\n");
  });

  it("exits 2 for usage errors, with no stack trace", () => {
    for (const args of [["check"], ["check", "--format", "xml", "a.mission"], ["check", "--max-warnings", "-1", "a"], ["chek", "a"], ["check", "--bogus", "a"], []]) {
      const result = runCli(args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr, args.join(" ")).not.toMatch(/\n\s+at /);
    }
    expect(runCli(["chek", "a"]).stderr).toContain("Did you mean check?");
  });

  it("checks every .mission file below a folder, in a stable order", () => {
    mkdirSync(join(scratch, "tree/sub"), { recursive: true });
    mkdirSync(join(scratch, "tree/node_modules"), { recursive: true });
    writeFileSync(join(scratch, "tree/b.mission"), "@temporal v4.6.2\nmission b { on ALLOW { execute t } }\n");
    writeFileSync(join(scratch, "tree/sub/a.mission"), "@temporal v4.6.2\nmission a { on DENY { execute t } }\n");
    writeFileSync(join(scratch, "tree/node_modules/skip.mission"), "junk");
    writeFileSync(join(scratch, "tree/notes.txt"), "junk");
    const result = runCli(["check", "--format", "json", "tree"], { cwd: scratch });
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as { diagnostics: { code: string; file: string }[]; summary: unknown };
    expect(report.summary).toEqual({ files: 2, errors: 0, warnings: 1 });
    expect(report.diagnostics.map((d) => `${d.file}:${d.code}`)).toEqual([`${join("tree", "sub", "a.mission")}:M502`]);
  });

  it("colours output only on request or a terminal, and honours NO_COLOR", () => {
    const args = ["check", "fixtures/invalid/no-mission.mission"];
    expect(runCli(args).stdout).not.toContain("\u001b[");
    expect(runCli(args, { env: { FORCE_COLOR: "1" } }).stdout).toContain("\u001b[1;31merror[M505]");
    expect(runCli(args, { env: { FORCE_COLOR: "0" } }).stdout).not.toContain("\u001b[");
  });
});

describe("docs/language.md", () => {
  /** The output a ```text block shows after `$ <command>`, up to the block's end. */
  function shownOutput(command: string): string | undefined {
    const markdown = readFileSync(join(REPO_ROOT, "docs/language.md"), "utf8");
    const escaped = command.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
    return new RegExp(`\\$ ${escaped}\\n([\\s\\S]*?)^\`\`\``, "m").exec(markdown)?.[1];
  }

  it("shows check's real output for fixtures/invalid/typos.mission, in text and as JSON", () => {
    for (const args of [
      ["check", "fixtures/invalid/typos.mission"],
      ["check", "fixtures/invalid/typos.mission", "--format", "json"],
    ]) {
      const result = runCli(args);
      expect(result.code).toBe(1);
      expect(shownOutput(`npx temporalc ${args.join(" ")}`), args.join(" ")).toBe(result.stdout);
    }
  }, 30_000);
});

describe("temporalc", () => {
  it("prints its version and help, exit 0", () => {
    const version = runCli(["--version"]);
    expect(version.code).toBe(0);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    const help = runCli(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("check [options] <files...>");
    const checkHelp = runCli(["check", "--help"]);
    expect(checkHelp.stdout).toContain("Exit status: 0 when no file has an error");
  });
});
