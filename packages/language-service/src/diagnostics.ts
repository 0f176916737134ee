import { docsUrl, type Diagnostic as CompilerDiagnostic, type Severity } from "@temporal/compiler";
import { DiagnosticSeverity, type Diagnostic } from "vscode-languageserver-types";
import { toRange, type Analysis } from "./analysis.js";

const SEVERITIES: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  info: DiagnosticSeverity.Information,
};

/**
 * The compiler's diagnostics as LSP diagnostics: same codes, messages and
 * ranges as `temporalc check`; notes become related information, and the
 * code links its section of docs/diagnostics.md.
 */
export function diagnostics(analysis: Analysis): Diagnostic[] {
  return analysis.diagnostics.map((d) => toLspDiagnostic(analysis, d));
}

export function toLspDiagnostic(analysis: Analysis, d: CompilerDiagnostic): Diagnostic {
  const { document } = analysis;
  const result: Diagnostic = {
    range: toRange(document, d.range),
    severity: SEVERITIES[d.severity],
    code: d.code,
    codeDescription: { href: docsUrl(d.code) },
    source: "temporalc",
    message: d.message,
  };
  if (d.notes !== undefined) {
    result.relatedInformation = d.notes.map((note) => ({ location: { uri: document.uri, range: toRange(document, note.range) }, message: note.message }));
  }
  return result;
}
