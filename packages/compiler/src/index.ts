export type * from "./ast.js";
export { check } from "./checker.js";
export { COMPILER_VERSION, LANGUAGE_VERSION, LANGUAGE_VERSION_TEXT } from "./version.js";
export { compile, type CompileOptions, type CompileResult } from "./compile.js";
export {
  DIAGNOSTIC_CODES,
  hasErrors,
  type Diagnostic,
  type DiagnosticCode,
  type DiagnosticNote,
  type Severity,
} from "./diagnostics.js";
export { parse, type ParseOptions, type ParseResult } from "./parse.js";
export { print } from "./printer.js";
export { renderDiagnostics, type RenderOptions } from "./render.js";
