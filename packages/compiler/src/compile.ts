import { analyze, type MissionModel } from "./analyze.js";
import type { MissionFile } from "./ast.js";
import { check } from "./checker.js";
import { generate } from "./codegen.js";
import { generateDeclarations } from "./declarations.js";
import { compareDiagnostics, hasErrors, limitErrors, type Diagnostic } from "./diagnostics.js";
import { parseFile, validateFilename } from "./parse.js";
import type { SourceMapV3 } from "./source-map.js";

export interface CompileOptions {
  /** The source file's path; only its base name reaches the output. Default `<input>`. */
  filename?: string;
  /** `esm` (default) or `cjs`. */
  format?: "esm" | "cjs";
  /** Also return a source map (v3) from the generated code back to the mission file. Default false. */
  sourceMap?: boolean;
  /** The module the generated code imports the runtime from. Default `@temporal/agent-sdk`. */
  sdkModule?: string;
  /**
   * Also return `dts`, the TypeScript declaration file for the generated
   * module (for `<base>.d.mts` with esm, `<base>.d.cts` with cjs). Default false.
   */
  declarations?: boolean;
}

export interface CompileResult {
  /** The generated JavaScript module; absent when there is any error. */
  code?: string;
  map?: SourceMapV3;
  /** The declaration file, when `declarations` was asked for; absent when there is any error. */
  dts?: string;
  diagnostics: Diagnostic[];
  ast: MissionFile;
  /** What the file declares, resolved (`analyze(ast)`): for files with errors too. */
  model: MissionModel;
}

export const DEFAULT_SDK_MODULE = "@temporal/agent-sdk";

/** Parses, checks and, when there is no error, generates the JavaScript module. */
export function compile(source: string, options: CompileOptions = {}): CompileResult {
  if (typeof source !== "string") throw new TypeError(`compile: source must be a string, got ${typeof source}`);
  const filename = validateFilename(options, "compile");
  const { format = "esm", sourceMap = false, sdkModule = DEFAULT_SDK_MODULE, declarations = false } = options;
  if (format !== "esm" && format !== "cjs") throw new TypeError(`compile: options.format must be "esm" or "cjs", got ${JSON.stringify(format)}`);
  if (typeof sourceMap !== "boolean") throw new TypeError("compile: options.sourceMap must be a boolean");
  if (typeof sdkModule !== "string" || sdkModule === "") throw new TypeError("compile: options.sdkModule must be a non-empty string");
  if (typeof declarations !== "boolean") throw new TypeError("compile: options.declarations must be a boolean");

  const { ast, model, diagnostics } = diagnose(source, filename);
  if (hasErrors(diagnostics)) return { diagnostics, ast, model };

  const sourceName = baseName(filename);
  const outputName = `${sourceName.replace(/\.mission$/, "")}.${format === "esm" ? "mjs" : "cjs"}`;
  const generated = generate(model, source, { sourceName, outputName, format, sdkModule, sourceMap });
  return {
    code: generated.code,
    ...(generated.map === undefined ? {} : { map: generated.map }),
    ...(declarations ? { dts: generateDeclarations(model, { sourceName, sdkModule }) } : {}),
    diagnostics,
    ast,
    model,
  };
}

/** Parses, analyses and checks: every diagnostic `compile` reports, sorted and limited, without emitting. */
export function diagnose(source: string, filename: string): { ast: MissionFile; model: MissionModel; diagnostics: Diagnostic[] } {
  const { ast, diagnostics, uncountedErrors } = parseFile(source, filename);
  const model = analyze(ast);
  return { ast, model, diagnostics: limitErrors([...diagnostics, ...check(ast, model)].sort(compareDiagnostics), filename, uncountedErrors) };
}

/** The last path segment, for either separator; generated code never names a directory. */
function baseName(path: string): string {
  return path.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1);
}
