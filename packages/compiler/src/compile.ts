import type { MissionFile } from "./ast.js";
import { check } from "./checker.js";
import { compareDiagnostics, limitErrors, type Diagnostic } from "./diagnostics.js";
import { parseFile, validateFilename } from "./parse.js";

export interface CompileOptions {
  filename?: string;
}

export interface CompileResult {
  /** The generated JavaScript module; absent while code generation is not available or when there are errors. */
  code?: string;
  map?: string;
  diagnostics: Diagnostic[];
  ast: MissionFile;
}

/** Parses and checks a mission file; the whole front-end in one call. */
export function compile(source: string, options: CompileOptions = {}): CompileResult {
  if (typeof source !== "string") throw new TypeError(`compile: source must be a string, got ${typeof source}`);
  const filename = validateFilename(options, "compile");
  const { ast, diagnostics, uncountedErrors } = parseFile(source, filename);
  return { diagnostics: limitErrors([...diagnostics, ...check(ast)].sort(compareDiagnostics), filename, uncountedErrors), ast };
}
