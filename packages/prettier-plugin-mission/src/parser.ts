import { parse, renderDiagnostics, type Diagnostic } from "@temporal/compiler";
import type { Parser, ParserOptions } from "prettier";
import type { AttachedComment, FileNode, MissionNodeAny } from "./ast.js";
import { locEnd, locStart } from "./ast.js";
import { registerComments } from "./comments.js";

export const AST_FORMAT = "mission-ast";

/**
 * A file with a syntax error. Prettier shows `message` and, from `loc`, a code
 * frame of its own; `diagnostics` are the compiler's, for callers that render
 * them themselves (`temporalc fmt`).
 */
export class MissionSyntaxError extends SyntaxError {
  override name = "SyntaxError";
  readonly loc: { start: { line: number; column: number }; end: { line: number; column: number } };
  readonly diagnostics: Diagnostic[];

  constructor(diagnostics: Diagnostic[], source: string) {
    super(renderDiagnostics(diagnostics, source).trimEnd());
    const first = diagnostics.find((d) => d.severity === "error") ?? diagnostics[0]!;
    const { start, end } = first.range;
    this.loc = { start: { line: start.line, column: start.column }, end: { line: end.line, column: end.column } };
    this.diagnostics = diagnostics;
  }
}

/**
 * Parses with the compiler. Only syntax errors stop formatting: the checker's
 * findings (unknown zones, empty windows, duplicate names) are about meaning,
 * and a formatter keeps meaning as it is.
 */
export function parseMission(text: string, options?: Partial<ParserOptions<MissionNodeAny>>): FileNode {
  const filename = typeof options?.filepath === "string" && options.filepath !== "" ? displayName(options.filepath) : undefined;
  const { ast, diagnostics } = parse(text, filename === undefined ? {} : { filename });
  if (diagnostics.some((d) => d.severity === "error")) throw new MissionSyntaxError(diagnostics, text);
  const comments: AttachedComment[] = ast.comments.map((comment) => ({ ...comment, value: comment.text }));
  const file = { ...ast, comments } as FileNode;
  registerComments(file, comments);
  return file;
}

/**
 * The file name diagnostics show. The Prettier CLI passes absolute paths;
 * under the working directory, show the path from there, as `temporalc check`
 * and Prettier's own messages do.
 */
function displayName(filepath: string): string {
  const cwd = typeof process === "object" && typeof process.cwd === "function" ? process.cwd() : undefined;
  if (cwd === undefined) return filepath;
  for (const separator of ["/", "\\"]) {
    const prefix = cwd.endsWith(separator) ? cwd : cwd + separator;
    if (filepath.startsWith(prefix)) return filepath.slice(prefix.length);
  }
  return filepath;
}

export const missionParser: Parser<MissionNodeAny> = {
  parse: (text, options) => parseMission(text, options),
  astFormat: AST_FORMAT,
  locStart,
  locEnd,
};
