import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parse, type MissionFile } from "@temporal/compiler";
import * as prettier from "prettier";
import plugin from "../src/index.js";

export const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));
export const PACKAGE_DIR = fileURLToPath(new URL("../", import.meta.url));
export const FORMAT_FIXTURES = `${REPO_ROOT}fixtures/format/`;
export const VALID_FIXTURES = `${REPO_ROOT}fixtures/valid/`;
export const INVALID_FIXTURES = `${REPO_ROOT}fixtures/invalid/`;

/** Formats the way `temporalc fmt` does: Prettier's API, the `mission` parser, this plugin. */
export function format(text: string, options: prettier.Options = {}): Promise<string> {
  return prettier.format(text, { parser: "mission", plugins: [plugin], ...options });
}

export interface GoldenFixture {
  name: string;
  input: string;
  output: string;
}

export function goldenFixtures(): GoldenFixture[] {
  return readdirSync(FORMAT_FIXTURES)
    .filter((file) => file.endsWith(".input.mission"))
    .sort()
    .map((file) => {
      const name = file.slice(0, -".input.mission".length);
      return {
        name,
        input: readFileSync(`${FORMAT_FIXTURES}${file}`, "utf8"),
        output: readFileSync(`${FORMAT_FIXTURES}${name}.output.mission`, "utf8"),
      };
    });
}

export function missionFiles(dir: string): Array<{ name: string; source: string }> {
  return readdirSync(dir)
    .filter((file) => file.endsWith(".mission"))
    .sort()
    .map((file) => ({ name: file, source: readFileSync(dir + file, "utf8") }));
}

/** Every file the formatter must handle: the valid fixtures, the syntax-valid invalid ones, both sides of every golden fixture. */
export function formattableSources(): Array<{ name: string; source: string }> {
  return [
    ...missionFiles(VALID_FIXTURES).map((f) => ({ ...f, name: `valid/${f.name}` })),
    ...missionFiles(INVALID_FIXTURES)
      .filter((f) => !hasSyntaxErrors(f.source))
      .map((f) => ({ ...f, name: `invalid/${f.name}` })),
    ...missionFiles(FORMAT_FIXTURES).map((f) => ({ ...f, name: `format/${f.name}` })),
  ];
}

export function hasSyntaxErrors(source: string): boolean {
  return parse(source).diagnostics.some((d) => d.severity === "error");
}

/** The parsed tree without source positions and comments: what the file means. */
export function meaning(source: string): unknown {
  const { ast, diagnostics } = parse(source);
  const errors = diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0) throw new Error(`syntax errors: ${errors.map((d) => `${d.code} ${d.message}`).join("; ")}`);
  return JSON.parse(JSON.stringify(ast, (key, value: unknown) => (key === "range" || key === "comments" ? undefined : value)));
}

/**
 * The comments of a file, in order, as the formatter promises to keep them:
 * exactly, except that a line comment loses trailing whitespace and line
 * breaks inside a block comment become `\n` (Prettier's `endOfLine`).
 */
export function commentTexts(source: string): string[] {
  const ast: MissionFile = parse(source).ast;
  return ast.comments.map((c) => (c.kind === "LineComment" ? c.text.replace(/\s+$/u, "") : c.text.replace(/\r\n?/gu, "\n")));
}

/** The layout rules that hold for every formatted file. */
export function layoutProblems(formatted: string): string[] {
  // Prettier keeps a byte order mark the input starts with.
  const output = formatted.replace(/^\ufeff/u, "");
  const problems: string[] = [];
  if (output !== "" && !output.endsWith("\n")) problems.push("does not end with a newline");
  if (output.endsWith("\n\n")) problems.push("ends with a blank line");
  if (output.includes("\r")) problems.push("has a carriage return");
  if (/\n\n\n/u.test(output)) problems.push("has two blank lines in a row");
  if (/[ \t]\n/u.test(output)) problems.push("has trailing whitespace");
  return problems;
}
