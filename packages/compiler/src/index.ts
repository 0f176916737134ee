export type * from "./ast.js";
export { check } from "./checker.js";
export { analyze, type Block, type MissionInfo, type MissionModel, type ResolvedWindow, type Step, type SymbolInfo } from "./analyze.js";
export type { TickInterval } from "./phase-windows.js";
export { formatClockTime, windowClockTimes } from "./clock-time.js";
export { TIME_ZONE_NAMES } from "./time-zone-names.js";
export { isKnownTimeZone } from "./time-zones.js";
export { SWT_ZONE_CODES } from "./clock-checks.js";
export { COMPILER_VERSION, LANGUAGE_VERSION, LANGUAGE_VERSION_TEXT } from "./version.js";
export { compile, diagnose, DEFAULT_SDK_MODULE, type CompileOptions, type CompileResult } from "./compile.js";
export type { SourceMapV3 } from "./source-map.js";
export {
  DIAGNOSTIC_CODES,
  DIAGNOSTICS_DOCS_URL,
  docsAnchor,
  docsUrl,
  hasErrors,
  type Diagnostic,
  type DiagnosticCode,
  type DiagnosticDefinition,
  type DiagnosticNote,
  type Fix,
  type Severity,
  type TextEdit,
} from "./diagnostics.js";
export { applyFixes, fixAll, type FixResult } from "./fix.js";
export { parse, type ParseOptions, type ParseResult } from "./parse.js";
export { tokenize, type ScannedSource } from "./tokenize.js";
export { print } from "./printer.js";
export { renderDiagnostics, type RenderOptions } from "./render.js";
export { decodeSource, type DecodedSource } from "./source.js";
