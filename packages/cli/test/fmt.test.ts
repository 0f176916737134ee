import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as prettier from "prettier";
import plugin from "prettier-plugin-mission";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "./run-cli.js";

const scratch = mkdtempSync(join(tmpdir(), "temporalc-fmt-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const messy = "@temporal   v4.6.2\nmission   nightly {require phase[300,30]   // wraps\n on ALLOW{execute   backup\nanchor TSAE->clockchain}}\n";
const broken = "@temporal v4.6.2\nmission broken { require phase [300 30 }\n";
const format = (text: string) => prettier.format(text, { parser: "mission", plugins: [plugin] });

let dir: string;
let n = 0;
beforeEach(() => {
  dir = join(scratch, `case-${n++}`);
  mkdirSync(dir);
});

describe("temporalc fmt", () => {
  it("prints one file formatted exactly as Prettier with the plugin does", async () => {
    writeFileSync(join(dir, "messy.mission"), messy);
    const result = runCli(["fmt", "messy.mission"], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(await format(messy));
    expect(readFileSync(join(dir, "messy.mission"), "utf8")).toBe(messy);
  });

  it("--check lists the files that are not formatted and exits 1; 0 when all are", async () => {
    writeFileSync(join(dir, "messy.mission"), messy);
    writeFileSync(join(dir, "tidy.mission"), await format(messy));
    const result = runCli(["fmt", "--check", "."], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("messy.mission\n");
    expect(result.stderr).toContain("checked 2 files: 1 not formatted; run temporalc fmt --write to fix");
    expect(runCli(["fmt", "--check", "tidy.mission"], { cwd: dir }).code).toBe(0);
  });

  it("--write rewrites only what changes, and a second run finds nothing to do", async () => {
    writeFileSync(join(dir, "messy.mission"), messy);
    writeFileSync(join(dir, "tidy.mission"), await format(messy));
    const first = runCli(["fmt", "--write"], { cwd: dir });
    expect(first.code).toBe(0);
    expect(first.stdout).toBe("messy.mission\n");
    expect(readFileSync(join(dir, "messy.mission"), "utf8")).toBe(await format(messy));
    const second = runCli(["fmt", "--write"], { cwd: dir });
    expect(second.stdout).toBe("");
    expect(runCli(["fmt", "--check"], { cwd: dir }).code).toBe(0);
  });

  it("never rewrites a file with syntax errors: prints its diagnostics and exits 2", () => {
    writeFileSync(join(dir, "broken.mission"), broken);
    writeFileSync(join(dir, "messy.mission"), messy);
    const result = runCli(["fmt", "--write", "."], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("M102");
    expect(readFileSync(join(dir, "broken.mission"), "utf8")).toBe(broken);
    expect(result.stdout).toBe("messy.mission\n");
  });

  it("gives usage errors for --check with --write and for missing files", () => {
    expect(runCli(["fmt", "--check", "--write"], { cwd: dir }).code).toBe(2);
    const missing = runCli(["fmt", "nope.mission"], { cwd: dir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("nope.mission: no such file or folder");
  });

  it("agrees with the Prettier CLI on every example", async () => {
    const result = runCli(["fmt", "--check", "examples"]);
    expect(result.stderr).toContain("checked 4 files");
    const examples = ["nightly-backup", "ml-training", "market-hours", "ops"];
    for (const name of examples) {
      const text = readFileSync(new URL(`../../../examples/${name}.mission`, import.meta.url), "utf8");
      const formatted = runCli(["fmt", `examples/${name}.mission`]).stdout;
      expect(formatted, name).toBe(await format(text));
    }
  });
});
