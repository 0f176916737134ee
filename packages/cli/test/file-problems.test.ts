/**
 * A path that check, compile or fmt cannot read, or an output compile or fmt cannot write, is not a stop: it is one
 * line on standard error ending with its code, and in --json a problem with `code` beside `message`; the other files
 * are still processed and the exit status is 2. As root permission bits stop nothing, so the unreadable and
 * unwritable paths here are ones no user can use: a path under a file, a folder where the module goes, a name the
 * temporary file of an atomic write cannot have (255 bytes is the longest name Linux file systems allow).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileDurably } from "@temporal/agent-sdk/node";
import { describe, expect, it } from "vitest";
import { describeIoError } from "../src/files.js";
import { runCliAsync } from "./run-cli.js";
import { folderPerTest } from "./scratch.js";

const folder = folderPerTest("temporalc-file-problems-");

const good = "@temporal v4.6.2\nmission good {\n  require phase [300, 30]\n  on ALLOW { execute t }\n}\n";
const messy = "@temporal   v4.6.2\nmission   good {require phase[300,30]\n on ALLOW{execute   t}}\n";

interface Problem {
  path: string;
  code: string;
  message: string;
}

/** A folder with good.mission, an empty folder, a file where a folder should be, and nothing at missing.mission. */
function setUp(): string {
  const dir = folder.current();
  writeFileSync(join(dir, "good.mission"), good);
  mkdirSync(join(dir, "empty"));
  return dir;
}

/** The paths every command is given beside good.mission, and what it says of each. */
const unreadable: Problem[] = [
  { path: "missing.mission", code: "FILE_NOT_FOUND", message: "no such file or folder" },
  { path: "empty", code: "FILE_NOT_FOUND", message: "no .mission files in this folder" },
  { path: "good.mission/under.mission", code: "FILE_UNREADABLE", message: "a part of the path is not a folder" },
];
const paths = unreadable.map((problem) => problem.path);

describe("files check, compile and fmt cannot read or write carry a stable code", () => {
  it("check: `cannot read <path>: <why> (<CODE>)`, and with --json the problems beside the diagnostics, not on standard error", async () => {
    const cwd = setUp();
    const [text, json] = await Promise.all([runCliAsync(["check", "good.mission", ...paths], { cwd }), runCliAsync(["check", "--json", "good.mission", ...paths], { cwd })]);
    const lines = unreadable.map((p) => `temporalc: cannot read ${p.path}: ${p.message} (${p.code})\n`).join("");
    expect([text.code, text.stderr, text.stdout]).toEqual([2, lines, "checked 1 file: 0 errors, 0 warnings\n"]);
    // As compile and fmt --json: the problems are in the JSON only, nothing on standard error.
    expect([json.code, json.stderr]).toEqual([2, ""]);
    expect(JSON.parse(json.stdout)).toMatchObject({ diagnostics: [], problems: unreadable, summary: { files: 1, errors: 0 } });
  }, 30_000);

  it("compile: `<path>: <why> (<CODE>)` for a source it cannot read and WRITE_FAILED for a module it cannot write", async () => {
    const cwd = setUp();
    writeFileSync(join(cwd, "other.mission"), good.replace("mission good", "mission other"));
    // A folder where other.mjs goes: the module cannot be renamed into place.
    mkdirSync(join(cwd, "other.mjs"));
    const args = ["compile", "good.mission", "other.mission", ...paths];
    const [text, json] = await Promise.all([runCliAsync(args, { cwd }), runCliAsync([...args, "--json"], { cwd })]);
    const problems = [...unreadable, { path: "other.mjs", code: "WRITE_FAILED", message: "cannot write: it is a folder" }];
    expect(text.code).toBe(2);
    expect(text.stderr).toBe(`${problems.map((p) => `temporalc: ${p.path}: ${p.message} (${p.code})\n`).join("")}compiled 1 of 2 files\n`);
    expect(readFileSync(join(cwd, "good.mjs"), "utf8")).toContain("export");
    expect([json.code, json.stderr]).toEqual([2, ""]);
    expect(JSON.parse(json.stdout)).toMatchObject({ problems, summary: { files: 2, written: 1, failed: 0 } });
  }, 30_000);

  it("fmt: `<path>: <why> (<CODE>)` for a path it cannot read and WRITE_FAILED for a file --write cannot rewrite (one whose writeFileDurably temporary name is too long)", async () => {
    const cwd = setUp();
    // The longest name a file may have: its temporary twin, written first and renamed over it, cannot be created.
    const longest = `${"n".repeat(255 - ".mission".length)}.mission`;
    writeFileSync(join(cwd, longest), messy);
    // This unwritable file rests on how writeFileDurably names its temporary file (longer than the file's own name).
    const precondition = await writeFileDurably(join(cwd, longest), messy).catch((error: unknown) => error);
    expect(precondition, "writeFileDurably no longer fails with ENAMETOOLONG for a 255-byte name: find another unwritable file for this test").toMatchObject({
      code: "ENAMETOOLONG",
    });
    const args = ["fmt", "--write", longest, ...paths];
    const [text, json] = await Promise.all([runCliAsync(args, { cwd }), runCliAsync([...args, "--json"], { cwd })]);
    const lines = unreadable.map((p) => `temporalc: ${p.path}: ${p.message} (${p.code})\n`).join("");
    expect(text.code).toBe(2);
    expect(text.stderr).toBe(
      `temporalc: ${longest}: cannot write: the name is too long (WRITE_FAILED)\n${lines}formatted 1 file: 1 with errors (left as they are), 3 paths could not be read\n`,
    );
    expect(readFileSync(join(cwd, longest), "utf8")).toBe(messy);
    expect([json.code, json.stderr]).toEqual([2, ""]);
    expect(JSON.parse(json.stdout)).toMatchObject({
      files: [{ path: longest, status: "error", code: "WRITE_FAILED", message: "cannot write: the name is too long" }],
      problems: unreadable,
      summary: { files: 1, errors: 1, unreadable: 3 },
    });
  }, 30_000);

  it("fmt: FORMAT_FAILED for a file Prettier cannot format for another reason than its syntax, such as a broken .prettierrc", async () => {
    const cwd = setUp();
    writeFileSync(join(cwd, ".prettierrc"), "{ bad");
    const [text, json] = await Promise.all([runCliAsync(["fmt", "--check", "good.mission"], { cwd }), runCliAsync(["fmt", "--json", "good.mission"], { cwd })]);
    expect(text.code).toBe(2);
    // Prettier's message is several lines: the code ends the first (without its closing colon), the rest is indented under it.
    expect(text.stderr).toMatch(/^temporalc: good\.mission: YAML Error in ".*\.prettierrc" \(FORMAT_FAILED\)\n( {2}.*\S\n)+checked 1 file: 1 with errors/);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({
      files: [{ path: "good.mission", status: "error", code: "FORMAT_FAILED", message: expect.stringContaining(".prettierrc") }],
      problems: [],
    });
  }, 30_000);
});

describe("describeIoError", () => {
  it("says why in words without the errno code, also for an errno it has no words for; any other error by its message", () => {
    // Node's own error for a failed read: its message carries the code, the call and the path.
    const eio = Object.assign(new Error("EIO: i/o error, open 'x'"), { code: "EIO", errno: -5, syscall: "open", path: "x" });
    expect(describeIoError(eio)).toBe("i/o error");
    expect(describeIoError(Object.assign(new Error("EISDIR: illegal operation on a directory, read"), { code: "EISDIR", errno: -21 }))).toBe("it is a folder");
    expect(describeIoError(Object.assign(new RangeError("File size (3221225472) is greater than 2 GiB"), { code: "ERR_FS_FILE_TOO_LARGE" }))).toBe(
      "File size (3221225472) is greater than 2 GiB",
    );
    expect(describeIoError("thrown text")).toBe("thrown text");
  });
});
