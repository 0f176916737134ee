import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "./run-cli.js";

const scratch = mkdtempSync(join(tmpdir(), "temporalc-init-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The command init prints to try next: `[cd <dir> && ]temporalc <args...>`, as its folder and arguments. */
function nextCommand(stdout: string, cwd: string): { cwd: string; args: string[] } {
  const line = stdout.split("\n").find((l) => /^\s+(cd .+ && )?temporalc /.test(l));
  expect(line, stdout).toBeDefined();
  const [, into, rest] = /^\s+(?:cd (\S+) && )?temporalc (.+)$/.exec(line!)!;
  return { cwd: into === undefined ? cwd : join(cwd, into), args: rest!.split(" ") };
}

describe("temporalc init", () => {
  it("writes a starter mission, tasks.mjs and a .gitignore entry; the command it prints works", () => {
    const result = runCli(["init", "starter"], { cwd: scratch });
    expect(result.code).toBe(0);
    const dir = join(scratch, "starter");
    expect(readFileSync(join(dir, ".gitignore"), "utf8")).toBe(".temporal/\n");
    expect(runCli(["check", "backup.mission"], { cwd: dir })).toMatchObject({ code: 0, stdout: "checked 1 file: 0 errors, 0 warnings\n" });
    expect(runCli(["fmt", "--check", "."], { cwd: dir }).code).toBe(0);

    const next = nextCommand(result.stdout, scratch);
    expect(next.args.slice(0, 2)).toEqual(["run", "backup.mission"]);
    const ran = runCli(next.args, { cwd: next.cwd });
    expect(ran.stderr).toBe("");
    expect(ran.code).toBe(0);
    expect(ran.stdout).toMatch(/^nightly_backup: (ALLOW|DENY) /m);
    expect(ran.stdout).toContain("receipt anchored");
    expect(ran.stdout.includes("snapshotting the database")).toBe(ran.stdout.includes(": ALLOW "));
  }, 120_000);

  it("in the current folder, prints a command without cd, and keeps an existing .gitignore", () => {
    const dir = join(scratch, "here");
    mkdirSync(dir);
    writeFileSync(join(dir, ".gitignore"), "node_modules/");
    const result = runCli(["init"], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("\n  temporalc run backup.mission --tasks ./tasks.mjs\n");
    expect(readFileSync(join(dir, ".gitignore"), "utf8")).toBe("node_modules/\n.temporal/\n");
    // A second init leaves .gitignore as it is, and refuses to overwrite the files.
    const again = runCli(["init"], { cwd: dir });
    expect(again.code).toBe(2);
    expect(again.stderr).toBe("temporalc: backup.mission and tasks.mjs already exist; init never overwrites files, so move them away or choose another folder (FILE_EXISTS)\n");
    expect(readFileSync(join(dir, ".gitignore"), "utf8")).toBe("node_modules/\n.temporal/\n");
  });

  it("refuses, writing nothing, when one of its files exists", () => {
    const dir = join(scratch, "taken");
    mkdirSync(dir);
    writeFileSync(join(dir, "tasks.mjs"), "export const mine = 1;\n");
    const result = runCli(["init", "taken"], { cwd: scratch });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${join("taken", "tasks.mjs")} already exists`);
    expect(readFileSync(join(dir, "tasks.mjs"), "utf8")).toBe("export const mine = 1;\n");
    expect(() => readFileSync(join(dir, "backup.mission"))).toThrow();
    expect(() => readFileSync(join(dir, ".gitignore"))).toThrow();
  });

  it("says once, with WRITE_FAILED, which folder it cannot create (here the file in the way) and why", () => {
    writeFileSync(join(scratch, "a-file"), "");
    const result = runCli(["init", join("a-file", "project")], { cwd: scratch });
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe(`temporalc: cannot create the folder ${join(scratch, "a-file")}: a file is in the way: a part of the path is not a folder (WRITE_FAILED)`);
  });
});
