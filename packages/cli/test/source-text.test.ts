import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "./run-cli.js";
import { folderPerTest } from "./scratch.js";

const folder = folderPerTest("temporalc-source-");

const latin1 = Buffer.from("@temporal v4.6.2\n// sauvegarde de la base de donn\xe9es\nmission backup {\n  on ALLOW { execute snapshot_db }\n}\n", "latin1");
const tidy = "@temporal v4.6.2\n\nmission backup {\n  on ALLOW {\n    execute snapshot_db\n  }\n}\n";
const broken = "@temporal v4.6.2\nmission broken { require phase [300 30 }\n";
/** 283 KB of bytes that are not text: NULs and everything else, as in an executable. */
const binary = Buffer.from(Array.from({ length: 283_000 }, (_, i) => (i * 131 + (i >> 8)) & 0xff));

describe("files that are not UTF-8 text", () => {
  it("a binary file gets one M106 diagnostic, not a flood of code frames", () => {
    writeFileSync(join(folder.current(), "image.mission"), binary);
    const result = runCli(["check", "image.mission"], { cwd: folder.current() });
    expect(result.code).toBe(1);
    expect(result.stdout.match(/^error\[/gm)).toEqual(["error["]);
    expect(result.stdout).toContain("error[M106]: not a text file\n --> image.mission:1:1");
    expect(result.stdout.length).toBeLessThan(1_500);
    expect(result.stdout).toMatch(/checked 1 file: 1 error, 0 warnings\n$/);
  });

  it("invalid UTF-8 is M107 at the line and column of the first bad byte", () => {
    writeFileSync(join(folder.current(), "latin.mission"), latin1);
    const result = runCli(["check", "--json", "latin.mission"], { cwd: folder.current() });
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as { diagnostics: { code: string; message: string; range: { start: { line: number; column: number } } }[] };
    expect(report.diagnostics.map((d) => [d.code, d.message, d.range.start.line, d.range.start.column])).toEqual([["M107", "invalid UTF-8: byte 0xe9 at byte offset 49", 2, 33]]);
  });

  it("fmt --write never rewrites a file that is not valid UTF-8, and says so", () => {
    writeFileSync(join(folder.current(), "latin.mission"), latin1);
    const result = runCli(["fmt", "--write", "latin.mission"], { cwd: folder.current() });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("error[M107]");
    expect(result.stderr).toContain("formatted 1 file: 1 with errors (left as they are)");
    expect(readFileSync(join(folder.current(), "latin.mission")).equals(latin1)).toBe(true);
  });

  it("compile writes nothing for such a file", () => {
    writeFileSync(join(folder.current(), "latin.mission"), latin1);
    const result = runCli(["compile", "latin.mission"], { cwd: folder.current() });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("compiled 0 of 1 file, 1 with errors");
    expect(() => readFileSync(join(folder.current(), "latin.mjs"))).toThrow();
  });
});

describe("fmt's summary tells the truth", () => {
  it("--check never says all formatted when a file did not parse or could not be read", () => {
    writeFileSync(join(folder.current(), "tidy.mission"), tidy);
    writeFileSync(join(folder.current(), "broken.mission"), broken);
    const result = runCli(["fmt", "--check", ".", "missing.mission"], { cwd: folder.current() });
    expect(result.code).toBe(2);
    expect(result.stderr).not.toContain("all formatted");
    expect(result.stderr).toContain("checked 2 files: 1 with errors (skipped, see above), 1 path could not be read, 1 formatted");
  });

  it("--check says all formatted only when every file was checked and is", () => {
    writeFileSync(join(folder.current(), "tidy.mission"), tidy);
    const result = runCli(["fmt", "--check", "."], { cwd: folder.current() });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("checked 1 file: all formatted\n");
  });
});

describe("code frames", () => {
  it("cut a long line around the span with an ellipsis, the caret under the span, and point at explain", () => {
    const line = `mission m { /* ${"x".repeat(5_000)} */ require phase [90, 90] /* ${"y".repeat(5_000)} */ on ALLOW { execute a } }`;
    writeFileSync(join(folder.current(), "long.mission"), `@temporal v4.6.2\n${line}\n`);
    const result = runCli(["check", "long.mission"], { cwd: folder.current() });
    expect(result.code).toBe(1);
    const lines = result.stdout.split("\n");
    const code = lines.find((l) => l.startsWith("2 | "))!;
    const caret = lines[lines.indexOf(code) + 1]!;
    expect(code.length).toBeLessThan(220);
    expect(code).toMatch(/^2 \| \u2026x+ \*\/ require phase \[90, 90\] \/\* y+\u2026$/);
    expect(caret.indexOf("^")).toBe(code.indexOf("require"));
    expect(result.stdout).toContain("  = help: temporalc explain M301\n");
  });
});
