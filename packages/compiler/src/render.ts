import type { SourceRange } from "./ast.js";
import type { Diagnostic, Severity } from "./diagnostics.js";
import { LineMap } from "./source.js";

/**
 * Text rendering of diagnostics: a header line, the file location, and a
 * code frame with the span underlined, in the style of rustc and Elm.
 */

export interface RenderOptions {
  /** ANSI colours; callers decide (TTY, NO_COLOR). Default false. */
  color?: boolean;
}

const ANSI = {
  error: "\u001b[1;31m",
  warning: "\u001b[1;33m",
  info: "\u001b[1;36m",
  note: "\u001b[1;36m",
  bold: "\u001b[1m",
  dim: "\u001b[2m",
  reset: "\u001b[0m",
} as const;

type Style = keyof typeof ANSI;

export function renderDiagnostics(diagnostics: readonly Diagnostic[], source: string, options: RenderOptions = {}): string {
  const lines = new LineMap(source);
  return diagnostics.map((d) => renderOne(d, lines, options.color === true)).join("\n");
}

function renderOne(d: Diagnostic, lines: LineMap, color: boolean): string {
  const paint = (style: Style, text: string) => (color ? `${ANSI[style]}${text}${ANSI.reset}` : text);
  const gutterWidth = String(Math.max(d.range.end.line, ...(d.notes ?? []).map((n) => n.range.end.line))).length;
  const out: string[] = [];
  out.push(`${paint(d.severity, `${d.severity}[${d.code}]`)}${paint("bold", `: ${d.message}`)}`);
  out.push(...frame(d.file, d.range, lines, gutterWidth, d.severity, paint));
  if (d.help !== undefined) out.push(`${" ".repeat(gutterWidth + 1)}${paint("dim", "=")} ${paint("bold", "help")}: ${d.help}`);
  for (const note of d.notes ?? []) {
    out.push(`${paint("note", "note")}: ${note.message}`);
    out.push(...frame(d.file, note.range, lines, gutterWidth, "note", paint));
  }
  return `${out.join("\n")}\n`;
}

function frame(
  file: string,
  range: SourceRange,
  lines: LineMap,
  gutterWidth: number,
  style: Severity | "note",
  paint: (style: Style, text: string) => string,
): string[] {
  const { line, column } = range.start;
  const pad = " ".repeat(gutterWidth);
  const text = printable(lines.lineText(line));
  const underlineEnd = range.end.line === line ? range.end.column : text.length + 1;
  const width = Math.max(1, underlineEnd - column);
  // Keep tabs in the padding so the underline lines up with the text above it.
  const indent = [...text.slice(0, column - 1)].map((ch) => (ch === "\t" ? "\t" : " ")).join("");
  return [
    `${pad}${paint("dim", "-->")} ${printable(file)}:${line}:${column}`,
    `${pad} ${paint("dim", "|")}`,
    `${paint("dim", `${String(line).padStart(gutterWidth)} |`)} ${text}`,
    `${pad} ${paint("dim", "|")} ${indent}${paint(style, "^".repeat(width))}`,
  ];
}

/**
 * Source text shown in a terminal: control characters (other than tab)
 * become U+FFFD, one column each so the underline still lines up, and an
 * untrusted file cannot send escape sequences to the terminal.
 */
function printable(text: string): string {
  return text.replace(/[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/gu, "\ufffd");
}
