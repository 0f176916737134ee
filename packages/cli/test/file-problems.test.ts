/**
 * A path that check, compile or fmt cannot read, or an output compile, fmt --write or check --fix cannot write, is not
 * a stop: it is one line on standard error ending with its code, and in --json a problem with `code` beside `message`;
 * the other files are still processed and the exit status is 2. As root permission bits stop nothing, so the
 * unreadable and unwritable paths here are ones no user can use: a path under a file, a file larger than the 2 GiB
 * Node reads at once (sparse: no disk used), a folder where an output goes, a name the temporary file of an atomic
 * write cannot have (255 bytes is the longest name Linux file systems allow), a symbolic link to itself. A folder that
 * cannot be listed or looked into is the exception: there root runs the CLI without the capabilities that let it
 * ignore permission bits.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileDurably } from "@temporal/agent-sdk/node";
import { describe, expect, it } from "vitest";
import { problemLine } from "../src/files.js";
import { runCli, runCliAsync } from "./run-cli.js";
import { folderPerTest } from "./scratch.js";

const folder = folderPerTest("temporalc-file-problems-");

/**
 * What to run the CLI under for permission bits to stop it: nothing for a user who is not root; as root, setpriv
 * without the capabilities that override them (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH); `undefined` where setpriv
 * cannot drop them (not installed, or no CAP_SETPCAP), and the tests that need it are skipped.
 */
const under = ((): string[] | undefined => {
  if (process.getuid?.() !== 0) return [];
  const setpriv = ["setpriv", "--bounding-set", "-dac_override,-dac_read_search", "--inh-caps", "-all", "--"];
  return spawnSync(setpriv[0]!, [...setpriv.slice(1), "true"]).status === 0 ? setpriv : undefined;
})();

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

/**
 * A file in `dir` with `text` that no atomic write can replace: it has the longest name a file may have, so its
 * temporary twin, written first and renamed over it, cannot be created. Returns its name.
 */
async function unwritableFile(dir: string, text: string): Promise<string> {
  const name = `${"n".repeat(255 - ".mission".length)}.mission`;
  writeFileSync(join(dir, name), text);
  // This rests on how writeFileDurably names its temporary file (longer than the file's own name).
  const precondition = await writeFileDurably(join(dir, name), text).catch((error: unknown) => error);
  expect(precondition, "writeFileDurably no longer fails with ENAMETOOLONG for a 255-byte name: find another unwritable file for this test").toMatchObject({
    code: "ENAMETOOLONG",
  });
  return name;
}

/** A folder `missions` in `cwd` with a.mission, which can be read, and the symbolic links `links` (name to target). */
function missionsWithLinks(cwd: string, links: Record<string, string>): void {
  mkdirSync(join(cwd, "missions"));
  writeFileSync(join(cwd, "missions", "a.mission"), good);
  for (const [name, target] of Object.entries(links)) symlinkSync(target, join(cwd, "missions", name));
}

/** How `expectProblemsBesideOneFile` runs the command that reports in JSON, and what its summary says. */
interface JsonRun {
  readonly command: string[];
  readonly summary: object;
  readonly under?: string[];
}

/**
 * Runs check and a command with --json (fmt by default) on `args` in `cwd`, below which one file can be read, and
 * expects `problems`, in the text lines and the JSON.
 */
async function expectProblemsBesideOneFile(cwd: string, args: string[], problems: Problem[], run?: JsonRun): Promise<void> {
  const { command, summary, under: as } = run ?? { command: ["fmt", "--json"], summary: { files: 1, unreadable: problems.length } };
  const [text, json] = await Promise.all([runCliAsync(["check", ...args], { cwd, under: as }), runCliAsync([...command, ...args], { cwd, under: as })]);
  expect([text.code, text.stderr, text.stdout]).toEqual([2, problems.map(problemLine).join(""), "checked 1 file: 0 errors, 0 warnings\n"]);
  expect([json.code, json.stderr]).toEqual([2, ""]);
  expect(JSON.parse(json.stdout)).toMatchObject({ problems, summary });
}

/** The paths every command is given beside good.mission, and what it says of each. */
const unreadable: Problem[] = [
  { path: "missing.mission", code: "FILE_NOT_FOUND", message: "no such file or folder" },
  { path: "empty", code: "FILE_NOT_FOUND", message: "no .mission files in this folder" },
  { path: "good.mission/under.mission", code: "FILE_UNREADABLE", message: "a part of the path is not a folder" },
];
const paths = unreadable.map((problem) => problem.path);

describe("files check, compile and fmt cannot read or write carry a stable code", () => {
  it("check: `<path>: <why> (<CODE>)` as compile and fmt print it, and with --json the problems beside the diagnostics, not on standard error", async () => {
    const cwd = setUp();
    const [text, json] = await Promise.all([runCliAsync(["check", "good.mission", ...paths], { cwd }), runCliAsync(["check", "--json", "good.mission", ...paths], { cwd })]);
    const lines = unreadable.map((p) => `temporalc: ${p.path}: ${p.message} (${p.code})\n`).join("");
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
    const longest = await unwritableFile(cwd, messy);
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
    // fmt's order for a file report (docs/format.md), the same as FORMAT_FAILED's, which scripts reading the JSON as text may rely on.
    expect(Object.keys((JSON.parse(json.stdout) as { files: object[] }).files[0]!)).toEqual(["path", "status", "code", "message"]);
  }, 30_000);

  it("fmt: FORMAT_FAILED for a file Prettier cannot format for another reason than its syntax, such as a broken .prettierrc", async () => {
    const cwd = setUp();
    writeFileSync(join(cwd, ".prettierrc"), "{ bad");
    const [text, json] = await Promise.all([runCliAsync(["fmt", "--check", "good.mission"], { cwd }), runCliAsync(["fmt", "--json", "good.mission"], { cwd })]);
    expect(text.code).toBe(2);
    // Prettier's message is several lines: the code ends the first (without its closing colon), the rest is indented under it.
    expect(text.stderr).toMatch(/^temporalc: good\.mission: YAML Error in ".*\.prettierrc" \(FORMAT_FAILED\)\n( {2}.*\S\n)+checked 1 file: 1 with errors/);
    expect([json.code, json.stderr]).toEqual([2, ""]);
    expect(JSON.parse(json.stdout)).toMatchObject({
      files: [{ path: "good.mission", status: "error", code: "FORMAT_FAILED", message: expect.stringContaining(".prettierrc") }],
      problems: [],
    });
  }, 30_000);
  it("a folder's file that cannot be read is named with its code, and the folder's other files are still read (check, compile)", async () => {
    const cwd = setUp();
    mkdirSync(join(cwd, "missions"));
    writeFileSync(join(cwd, "missions", "a.mission"), good);
    // 3 GiB, more than temporalc reads of a file (16 MiB), also as root; sparse, so it takes no space.
    writeFileSync(join(cwd, "missions", "b.mission"), "");
    truncateSync(join(cwd, "missions", "b.mission"), 3 * 1024 ** 3);
    writeFileSync(join(cwd, "missions", "c.mission"), good);
    const [text, compiled] = await Promise.all([runCliAsync(["check", "missions"], { cwd }), runCliAsync(["compile", "--json", "missions"], { cwd })]);
    // Refused by its size before anything is read; check prints the line of the problem compile reports.
    const problem = { path: join("missions", "b.mission"), code: "FILE_UNREADABLE", message: "it holds more than 16 MiB: no file of its kind is that large" };
    expect([compiled.code, compiled.stderr]).toEqual([2, ""]);
    const report = JSON.parse(compiled.stdout) as { problems: Problem[] };
    expect(report).toMatchObject({ problems: [problem], summary: { files: 2, written: 2, failed: 0 } });
    expect([text.code, text.stderr, text.stdout]).toEqual([2, problemLine(report.problems[0]!), "checked 2 files: 0 errors, 0 warnings\n"]);
  }, 30_000);

  it.runIf(process.platform === "linux")(
    "a device named as a mission file, or given as standard input, is refused at the read limit rather than read without end",
    async () => {
      const cwd = setUp();
      const named = await runCliAsync(["check", "/dev/zero"], { cwd });
      expect([named.code, named.stderr]).toEqual([2, "temporalc: /dev/zero: it holds more than 16 MiB: no file of its kind is that large (FILE_UNREADABLE)\n"]);
      const zero = openSync("/dev/zero", "r");
      try {
        const piped = runCli(["check", "-"], { cwd, fds: { stdin: zero } });
        expect([piped.code, piped.stderr]).toEqual([2, "temporalc: -: it holds more than 16 MiB: no file of its kind is that large (FILE_UNREADABLE)\n"]);
      } finally {
        closeSync(zero);
      }
    },
    60_000,
  );

  it("a subfolder that cannot be listed is named by its own path and code, not the folder named, and the other files are still read (check, fmt)", async ({ skip }) => {
    skip(under === undefined, "running as root, and setpriv cannot drop the capabilities that let root list a folder whatever its permission bits");
    const cwd = setUp();
    for (const path of ["missions/locked", "missions/open", "only-locked/locked"]) mkdirSync(join(cwd, path), { recursive: true });
    for (const path of ["missions/a.mission", "missions/locked/b.mission", "missions/open/c.mission", "only-locked/locked/d.mission"]) writeFileSync(join(cwd, path), good);
    const locked = [join("missions", "locked"), join("only-locked", "locked")];
    for (const path of locked) chmodSync(join(cwd, path), 0);
    try {
      const [text, json] = await Promise.all([runCliAsync(["check", "missions", "only-locked"], { cwd, under }), runCliAsync(["fmt", "--json", "missions", "only-locked"], { cwd, under })]);
      // only-locked is not "no .mission files in this folder": the folder below it that may hold them is named instead.
      const problems = locked.map((path) => ({ path, code: "FILE_UNREADABLE", message: "permission denied" }));
      expect([text.code, text.stderr, text.stdout]).toEqual([
        2,
        locked.map((path) => `temporalc: ${path}: permission denied (FILE_UNREADABLE)\n`).join(""),
        "checked 2 files: 0 errors, 0 warnings\n",
      ]);
      expect([json.code, json.stderr]).toEqual([2, ""]);
      expect(JSON.parse(json.stdout)).toMatchObject({ problems, summary: { files: 2, unreadable: 2 } });
    } finally {
      // So that the scratch folder can be removed by a user who is not root.
      for (const path of locked) chmodSync(join(cwd, path), 0o755);
    }
  }, 30_000);

  it("a symbolic link in a folder that cannot be followed (a loop) is named by its own path as FILE_UNREADABLE, whatever its name, and the walk goes on (check, fmt)", async () => {
    const cwd = setUp();
    // Either may stand for a folder of missions or a mission: neither is left out silently.
    missionsWithLinks(cwd, { loop: "loop", "loop.mission": "loop.mission" });
    const problems = ["loop", "loop.mission"].map((name) => ({ path: join("missions", name), code: "FILE_UNREADABLE", message: "too many symbolic links in the path" }));
    await expectProblemsBesideOneFile(cwd, ["missions"], problems);
  }, 30_000);

  it("a symbolic link in a folder whose target cannot be looked at (permission denied) is named by its own path as FILE_UNREADABLE, and the walk goes on (check, compile)", async ({
    skip,
  }) => {
    skip(under === undefined, "running as root, and setpriv cannot drop the capabilities that let root look into a folder whatever its permission bits");
    const cwd = setUp();
    for (const path of ["missions", "locked/sub"]) mkdirSync(join(cwd, path), { recursive: true });
    for (const path of ["missions/a.mission", "locked/b.mission", "locked/sub/c.mission"]) writeFileSync(join(cwd, path), good);
    symlinkSync(join("..", "locked", "b.mission"), join(cwd, "missions", "b.mission"));
    symlinkSync(join("..", "locked", "sub"), join(cwd, "missions", "sub"));
    // The only file of only-links is behind a link that cannot be followed: that link is named, not "no .mission files".
    mkdirSync(join(cwd, "only-links"));
    symlinkSync(join("..", "locked", "b.mission"), join(cwd, "only-links", "b.mission"));
    chmodSync(join(cwd, "locked"), 0);
    try {
      const problems = [join("missions", "b.mission"), join("missions", "sub"), join("only-links", "b.mission")].map((path) => ({
        path,
        code: "FILE_UNREADABLE",
        message: "permission denied",
      }));
      await expectProblemsBesideOneFile(cwd, ["missions", "only-links"], problems, {
        command: ["compile", "--json"],
        summary: { files: 1, written: 1, failed: 0 },
        under: under as string[],
      });
    } finally {
      chmodSync(join(cwd, "locked"), 0o755);
    }
  }, 30_000);

  it("a dangling symbolic link in a folder is FILE_NOT_FOUND by its own path when named *.mission, and otherwise not a mission and passed over (check, fmt)", async () => {
    const cwd = setUp();
    missionsWithLinks(cwd, { "gone.mission": "moved.mission", build: "moved" });
    // A folder whose only entry is a dangling link not named *.mission holds no mission: the folder is not found.
    mkdirSync(join(cwd, "leftovers"));
    symlinkSync("moved", join(cwd, "leftovers", "build"));
    const problems = [
      { path: join("missions", "gone.mission"), code: "FILE_NOT_FOUND", message: "no such file or folder" },
      { path: "leftovers", code: "FILE_NOT_FOUND", message: "no .mission files in this folder" },
    ];
    await expectProblemsBesideOneFile(cwd, ["missions", "leftovers"], problems);
  }, 30_000);

  it("check --fix: a file it cannot rewrite is WRITE_FAILED and keeps its own diagnostics; the other files are still fixed", async () => {
    const cwd = setUp();
    // M202 has a certain fix: `@temporal v4.6.2` is inserted.
    const fixable = good.replace("@temporal v4.6.2\n", "");
    const longest = await unwritableFile(cwd, fixable);
    writeFileSync(join(cwd, "other.mission"), fixable);
    const text = await runCliAsync(["check", "--fix", longest, "other.mission"], { cwd });
    expect([text.code, text.stderr]).toEqual([2, `temporalc: ${longest}: cannot write: the name is too long (WRITE_FAILED)\n`]);
    // The file left as it was still has its warning; other.mission's was fixed.
    expect(text.stdout).toContain(`warning[M202]: no \`@temporal\` directive: assuming v4.6.2\n --> ${longest}:1:1`);
    expect(text.stdout).toMatch(/checked 2 files: 0 errors, 1 warning, 1 problem fixed\n$/);
    expect([readFileSync(join(cwd, longest), "utf8"), readFileSync(join(cwd, "other.mission"), "utf8")]).toEqual([fixable, good]);

    writeFileSync(join(cwd, "other.mission"), fixable);
    const json = await runCliAsync(["check", "--fix", "--json", longest, "other.mission"], { cwd });
    expect([json.code, json.stderr]).toEqual([2, ""]);
    expect(JSON.parse(json.stdout)).toMatchObject({
      diagnostics: [{ code: "M202", file: longest }],
      problems: [{ path: longest, code: "WRITE_FAILED", message: "cannot write: the name is too long" }],
      summary: { files: 2, errors: 0, warnings: 1, fixed: 1 },
    });
  }, 30_000);

  it("compile names the output it could not write: the source map or the declarations, not the module", async () => {
    const cwd = setUp();
    writeFileSync(join(cwd, "other.mission"), good.replace("mission good", "mission other"));
    writeFileSync(join(cwd, "third.mission"), good.replace("mission good", "mission third"));
    // Folders where good's map and other's declarations go.
    mkdirSync(join(cwd, "good.mjs.map"));
    mkdirSync(join(cwd, "other.d.mts"));
    const args = ["compile", "--sourcemap", "--dts", "good.mission", "other.mission", "third.mission"];
    const [text, json] = await Promise.all([runCliAsync(args, { cwd }), runCliAsync([...args, "--json"], { cwd })]);
    const problems = ["good.mjs.map", "other.d.mts"].map((path) => ({ path, code: "WRITE_FAILED", message: "cannot write: it is a folder" }));
    expect([text.code, text.stderr]).toEqual([2, `${problems.map((p) => `temporalc: ${p.path}: ${p.message} (${p.code})\n`).join("")}compiled 1 of 3 files\n`]);
    expect([json.code, json.stderr]).toEqual([2, ""]);
    expect(JSON.parse(json.stdout)).toMatchObject({ problems, summary: { files: 3, written: 1, failed: 0 } });
  }, 30_000);

  it("standard input that cannot be read is FILE_UNREADABLE for the path -, not a bug", () => {
    const cwd = setUp();
    // Opened for writing only: reading it fails with EBADF.
    const writeOnly = openSync(join(cwd, "write-only"), "w");
    try {
      const json = runCli(["check", "--json", "-", "good.mission"], { cwd, fds: { stdin: writeOnly } });
      expect([json.code, json.stderr]).toEqual([2, ""]);
      expect(JSON.parse(json.stdout)).toMatchObject({ problems: [{ path: "-", code: "FILE_UNREADABLE", message: "bad file descriptor" }], summary: { files: 1 } });
    } finally {
      closeSync(writeOnly);
    }
  }, 30_000);

  it("standard input that is a folder (`check - < dir`) is FILE_UNREADABLE for the path -, not an empty mission (check, fmt)", () => {
    const cwd = setUp();
    const folderAsInput = openSync(cwd, "r");
    try {
      const text = runCli(["check", "-", "good.mission"], { cwd, fds: { stdin: folderAsInput } });
      expect([text.code, text.stderr, text.stdout]).toEqual([2, "temporalc: -: standard input is a folder (FILE_UNREADABLE)\n", "checked 1 file: 0 errors, 0 warnings\n"]);
      const json = runCli(["fmt", "--json", "--stdin-filepath", "named.mission", "-"], { cwd, fds: { stdin: folderAsInput } });
      expect([json.code, json.stderr]).toEqual([2, ""]);
      expect(JSON.parse(json.stdout)).toMatchObject({ files: [], problems: [{ path: "-", code: "FILE_UNREADABLE", message: "standard input is a folder" }] });
    } finally {
      closeSync(folderAsInput);
    }
  }, 30_000);

  it.skipIf(!existsSync("/dev/full"))(
    "standard output or error that cannot be written (a full disk): one line with WRITE_FAILED and exit status 2, no stack",
    () => {
      const cwd = setUp();
      const full = openSync("/dev/full", "w");
      try {
        const out = runCli(["check", "--json", "good.mission"], { cwd, fds: { stdout: full } });
        expect([out.code, out.stderr]).toEqual([2, "temporalc: cannot write standard output: no space left on the device (WRITE_FAILED)\n"]);
        // Standard error itself: nowhere to say it, so the exit status alone tells, 2 rather than --check's 1 for an
        // unformatted file (fmt --check prints its summary there).
        const err = runCli(["fmt", "--check", "good.mission"], { cwd, fds: { stderr: full } });
        expect([err.code, err.stdout]).toEqual([2, "good.mission\n"]);
      } finally {
        closeSync(full);
      }
    },
    30_000,
  );
});

describe("problemLine", () => {
  it("is `temporalc: <path>: <why> (<CODE>)`: a why of several lines keeps its first, without its colon, the others indented; blank lines go", () => {
    expect(problemLine({ path: "a.mission", code: "FILE_NOT_FOUND", message: "no such file or folder" })).toBe("temporalc: a.mission: no such file or folder (FILE_NOT_FOUND)\n");
    expect(problemLine({ path: "a.mission", code: "FORMAT_FAILED", message: 'YAML Error in ".prettierrc":\n\n  bad indentation\n\nat line 1' })).toBe(
      'temporalc: a.mission: YAML Error in ".prettierrc" (FORMAT_FAILED)\n    bad indentation\n  at line 1\n',
    );
    expect(problemLine({ path: "a.mission", code: "FORMAT_FAILED", message: "failed:   \n" })).toBe("temporalc: a.mission: failed (FORMAT_FAILED)\n");
  });

  it("without a why is the path and the code, with one space between them", () => {
    for (const message of ["", "\n", "  ", ":"]) expect(problemLine({ path: "a.mission", code: "FORMAT_FAILED", message })).toBe("temporalc: a.mission (FORMAT_FAILED)\n");
  });
});
