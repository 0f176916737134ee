import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { DiagnosticSeverity } from "vscode-languageserver-types";
import { createLanguageService, DIAGNOSTICS_DOCS_URL } from "../src/index.js";
import { documentOf } from "./helpers.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));

interface CliDiagnostic {
  code: string;
  severity: "error" | "warning" | "info";
  message: string;
  file: string;
  range: { start: { line: number; column: number }; end: { line: number; column: number } };
}

const SEVERITY = { error: DiagnosticSeverity.Error, warning: DiagnosticSeverity.Warning, info: DiagnosticSeverity.Information };

describe("diagnostics", () => {
  it("are temporalc check's: same codes, severities, messages and ranges, for every fixture", () => {
    const files = ["fixtures/invalid", "fixtures/valid", "examples"].flatMap((dir) =>
      readdirSync(join(root, dir))
        .filter((name) => name.endsWith(".mission"))
        .map((name) => `${dir}/${name}`),
    );
    expect(files.length).toBeGreaterThan(25);
    let output = "";
    try {
      output = execFileSync(process.execPath, [join(root, "bin/temporalc"), "check", "--json", ...files], { cwd: root, encoding: "utf8" });
    } catch (error) {
      output = (error as { stdout: string }).stdout; // exit status 1: some fixtures have errors
    }
    const cli = (JSON.parse(output) as { diagnostics: CliDiagnostic[] }).diagnostics;
    const service = createLanguageService();
    let compared = 0;
    for (const file of files) {
      const expected = cli
        .filter((d) => d.file === file)
        .map((d) => ({
          code: d.code,
          severity: SEVERITY[d.severity],
          message: d.message,
          range: { start: { line: d.range.start.line - 1, character: d.range.start.column - 1 }, end: { line: d.range.end.line - 1, character: d.range.end.column - 1 } },
        }));
      const actual = service
        .diagnostics(documentOf(readFileSync(join(root, file), "utf8"), `file:///${file}`))
        .map(({ code, severity, message, range }) => ({ code, severity, message, range }));
      expect(actual, file).toEqual(expected);
      compared += expected.length;
    }
    expect(compared).toBeGreaterThan(50);
  }, 30_000);

  it("link the code's section of docs/diagnostics.md and carry notes as related information", () => {
    const text = "@temporal v4.6.2\nmission a {\n  require phase [10, 20]\n  require phase [30, 40]\n  on ALLOW { execute x }\n}\n";
    const [d] = createLanguageService().diagnostics(documentOf(text));
    expect(d?.code).toBe("M303");
    expect(d?.codeDescription?.href).toBe(`${DIAGNOSTICS_DOCS_URL}#m303-phase-windows-never-overlap-error`);
    expect(d?.source).toBe("temporalc");
    expect(d?.relatedInformation?.length).toBeGreaterThan(0);
    expect(d?.relatedInformation?.[0]?.location.uri).toBe("file:///test.mission");
  });
});
