import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import ajvDraft04 from "ajv-draft-04";
import { afterAll, describe, expect, it } from "vitest";
import { DIAGNOSTIC_CODES, docsAnchor } from "@temporal/compiler";
import { REPO_ROOT, runCli } from "./run-cli.js";

const scratch = mkdtempSync(join(tmpdir(), "temporalc-check-formats-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A mission with one warning (its carbon bound), so each format has one problem to report. */
const WARNED = "@temporal v4.6.2\nmission a {\n  require carbon < 2000\n  on ALLOW { execute x }\n}\n";

interface SarifLog {
  version: string;
  runs: {
    tool: { driver: { name: string; rules: { id: string; name: string; helpUri: string; shortDescription: { text: string } }[] } };
    results: {
      ruleId: string;
      ruleIndex: number;
      level: string;
      message: { text: string };
      locations: { physicalLocation: { artifactLocation: { uri: string; uriBaseId?: string }; region: { startLine: number; startColumn: number; endLine: number; endColumn: number } } }[];
      partialFingerprints: Record<string, string>;
      fixes?: unknown[];
    }[];
    invocations?: unknown[];
  }[];
}

const schema = JSON.parse(readFileSync(new URL("./sarif/sarif-schema-2.1.0.json", import.meta.url), "utf8")) as object;
// Formats (uri-reference, date-time) are not checked: Ajv needs ajv-formats for them, and we write no date.
// ajv-draft-04 is CommonJS: its class is the module's `default`, as TypeScript sees it under NodeNext.
const validate = new ajvDraft04.default({ allErrors: true, strict: false, validateFormats: false }).compile(schema);

function sarifOf(args: string[], cwd?: string): SarifLog {
  const result = runCli(["check", "--format", "sarif", ...args], cwd === undefined ? {} : { cwd });
  expect(result.stderr).toBe("");
  return JSON.parse(result.stdout) as SarifLog;
}

describe("temporalc check --format sarif", () => {
  it("validates against the official SARIF 2.1.0 schema, for every fixture at once", () => {
    const log = sarifOf(["fixtures/valid", "fixtures/invalid"]);
    expect(validate(log), JSON.stringify(validate.errors, null, 2)).toBe(true);
    expect(log.runs[0]!.results.length).toBeGreaterThan(50);
    // Every path was read: nothing to say of the run itself.
    expect(log.runs[0]!.invocations).toBeUndefined();
  }, 30_000);

  it("gives a path that cannot be read as a tool execution notification, valid SARIF, with nothing on standard error and exit 2", () => {
    const result = runCli(["check", "--format", "sarif", "fixtures/valid/minimal.mission", "no/such.mission"]);
    expect([result.code, result.stderr]).toEqual([2, ""]);
    const log = JSON.parse(result.stdout) as SarifLog;
    expect(validate(log), JSON.stringify(validate.errors, null, 2)).toBe(true);
    expect(log.runs[0]!.invocations).toEqual([
      {
        executionSuccessful: false,
        toolExecutionNotifications: [
          {
            level: "error",
            message: { text: "no such file or folder" },
            descriptor: { id: "FILE_NOT_FOUND" },
            locations: [{ physicalLocation: { artifactLocation: { uri: "no/such.mission", uriBaseId: "SRCROOT" } } }],
          },
        ],
      },
    ]);
  }, 30_000);

  it("lists every code as a rule linking to its section of docs/diagnostics.md", () => {
    const { rules } = sarifOf(["fixtures/valid/minimal.mission"]).runs[0]!.tool.driver;
    expect(rules.map((r) => r.id)).toEqual(Object.keys(DIAGNOSTIC_CODES));
    expect(rules.find((r) => r.id === "M303")).toMatchObject({
      name: "PhaseWindowsNeverOverlap",
      shortDescription: { text: "phase windows never overlap" },
      helpUri: "https://github.com/temporal-permission/temporalc/blob/main/docs/diagnostics.md#m303-phase-windows-never-overlap-error",
    });
    const headings = new Set([...readFileSync(join(REPO_ROOT, "docs/diagnostics.md"), "utf8").matchAll(/^## (M\d{3}): /gm)].map((m) => m[1]));
    for (const code of Object.keys(DIAGNOSTIC_CODES) as (keyof typeof DIAGNOSTIC_CODES)[]) {
      expect(headings.has(code), code).toBe(true);
      expect(docsAnchor(code)).toMatch(new RegExp(`^${code.toLowerCase()}-[a-z0-9-]+-(error|warning|info)$`));
    }
  });

  it("gives results with the rule, level, 1-based region relative to SRCROOT, and fixes", () => {
    const log = sarifOf(["fixtures/invalid/typos.mission"]);
    const [run] = log.runs;
    const first = run!.results.find((r) => r.ruleId === "M102")!;
    expect(first).toMatchObject({
      ruleId: "M102",
      level: "error",
      locations: [
        { physicalLocation: { artifactLocation: { uri: "fixtures/invalid/typos.mission", uriBaseId: "SRCROOT" }, region: { startLine: 4, startColumn: 1, endLine: 4, endColumn: 8 } } },
      ],
    });
    expect(run!.tool.driver.rules[first.ruleIndex]!.id).toBe("M102");
    expect(first.fixes).toHaveLength(1);
  });

  it("names a file below the working folder relative to SRCROOT, also in a folder whose name begins with `..`, and one outside it by its absolute URI", () => {
    const cwd = join(scratch, "work");
    mkdirSync(join(cwd, "..drafts"), { recursive: true });
    for (const path of [join(cwd, "..drafts", "a.mission"), join(scratch, "outside.mission")]) writeFileSync(path, WARNED);
    const uris = sarifOf([join("..drafts", "a.mission"), join("..", "outside.mission")], cwd).runs[0]!.results.map((r) => r.locations[0]!.physicalLocation.artifactLocation);
    expect(uris).toEqual([{ uri: "..drafts/a.mission", uriBaseId: "SRCROOT" }, { uri: pathToFileURL(join(scratch, "outside.mission")).href }]);
  });

  it("keeps fingerprints when lines move, and tells repeats apart", () => {
    const source = "@temporal v4.6.2\nmission a {\n  require carbon < 2000\n  on ALLOW { execute x execute x execute x }\n}\n";
    writeFileSync(join(scratch, "moves.mission"), source);
    const before = sarifOf(["moves.mission"], scratch).runs[0]!.results.map((r) => r.partialFingerprints);
    writeFileSync(join(scratch, "moves.mission"), `// a comment\n\n${source}`);
    const after = sarifOf(["moves.mission"], scratch).runs[0]!.results.map((r) => r.partialFingerprints);
    expect(after).toEqual(before);
    expect(new Set(before.map((f) => JSON.stringify(f))).size).toBe(before.length);
  });
});

describe("temporalc check --format github", () => {
  it("prints one workflow command per diagnostic, with GitHub's escaping", () => {
    const path = join(scratch, "odd, name: 100%.mission");
    writeFileSync(path, WARNED);
    const result = runCli(["check", "--format", "github", "odd, name: 100%.mission"], { cwd: scratch });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      "::warning file=odd%2C name%3A 100%25.mission,line=3,col=20,endLine=3,endColumn=24,title=M401::2000 gCO2eq/kWh is above any real grid's hourly intensity: this requirement always holds%0Ahelp: thresholds are usually between 50 and 1200 gCO2eq/kWh\n",
    );
  });

  it("gives a path that cannot be read as an error on the file, with its code, after the diagnostics; nothing on standard error, exit 2", () => {
    const result = runCli(["check", "--format", "github", "fixtures/invalid/missing-braces.mission", "no/such, 100%.mission"]);
    expect([result.code, result.stderr]).toEqual([2, ""]);
    const lines = result.stdout.split("\n").filter(Boolean);
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.at(-1)).toBe("::error file=no/such%2C 100%25.mission::no such file or folder (FILE_NOT_FOUND)");
  }, 30_000);

  it("uses error for errors and exits 1", () => {
    const result = runCli(["check", "--format", "github", "fixtures/invalid/missing-braces.mission"]);
    expect(result.code).toBe(1);
    expect(
      result.stdout
        .split("\n")
        .filter(Boolean)
        .every((line) => /^::(error|warning|notice) file=fixtures\/invalid\/missing-braces\.mission,line=\d+,col=\d+,endLine=\d+,endColumn=\d+,title=M\d{3}::/.test(line)),
    ).toBe(true);
  });
});

describe("temporalc check --fix", () => {
  it("rewrites a file with its certain fixes, reports what is left, and leaves a fixed file alone", () => {
    const path = join(scratch, "broken.mission");
    writeFileSync(path, "@anchr Z1\nmission a {\n  requier phase [400, -30]\n  require hs_bloch > 1\n  on ALLOW { execute x }\n");
    const result = runCli(["check", "--fix", "broken.mission"], { cwd: scratch });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("checked 1 file: 0 errors, 0 warnings, 7 problems fixed\n");
    const fixed = "@temporal v4.6.2\n@anchor Z1\nmission a {\n  require phase [40, 330]\n  require hs_bloch >= 1\n  on ALLOW { execute x }\n}\n";
    expect(readFileSync(path, "utf8")).toBe(fixed);
    expect(runCli(["check", "--fix", "broken.mission"], { cwd: scratch }).stdout).toBe("checked 1 file: 0 errors, 0 warnings, 0 problems fixed\n");
    expect(readFileSync(path, "utf8")).toBe(fixed);
  });

  it("keeps the errors it cannot fix, exits 1, and refuses standard input", () => {
    const path = join(scratch, "ambiguous.mission");
    copyFileSync(join(REPO_ROOT, "fixtures/invalid/phase-windows.mission"), path);
    const result = runCli(["check", "--fix", "--json", "ambiguous.mission"], { cwd: scratch });
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as { diagnostics: { code: string }[]; summary: { fixed: number } };
    expect(report.summary.fixed).toBeGreaterThan(0);
    expect(report.diagnostics.map((d) => d.code)).not.toContain("M300");
    const stdin = runCli(["check", "--fix", "-"], { input: "mission a {}\n" });
    expect(stdin.code).toBe(2);
    expect(stdin.stderr).toContain("standard input (-) cannot be fixed in place");
  });
});
