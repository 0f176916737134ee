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
  /**
   * A command that explains a code, such as `temporalc explain`: each
   * diagnostic then ends with `= help: <command> <code>`. Default none.
   */
  explainCommand?: string;
}

/** Longer source lines are cut around the span, so a minified or binary file cannot flood the terminal. */
const MAX_FRAME_WIDTH = 200;
/** How much of the line before the span stays visible when a line is cut. */
const CONTEXT_BEFORE = 60;
const ELLIPSIS = "\u2026";

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
  return diagnostics.map((d) => renderOne(d, lines, options.color === true, options.explainCommand)).join("\n");
}

function renderOne(d: Diagnostic, lines: LineMap, color: boolean, explainCommand: string | undefined): string {
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
  if (explainCommand !== undefined) out.push(`${" ".repeat(gutterWidth + 1)}${paint("dim", "=")} ${paint("bold", "help")}: ${explainCommand} ${d.code}`);
  return `${out.join("\n")}\n`;
}

function frame(file: string, range: SourceRange, lines: LineMap, gutterWidth: number, style: Severity | "note", paint: (style: Style, text: string) => string): string[] {
  const { line, column } = range.start;
  const pad = " ".repeat(gutterWidth);
  const full = printable(lines.lineText(line));
  const spanEnd = range.end.line === line ? range.end.column : full.length + 1;
  const shown = visiblePart(full, column - 1, spanEnd - 1);
  const text = full.slice(shown.start, shown.end);
  const width = Math.max(1, Math.min(spanEnd - 1, shown.end) - (column - 1));
  // Keep tabs in the padding so the underline lines up with the text above it.
  const indent = [...text.slice(0, column - 1 - shown.start)].map((ch) => (ch === "\t" ? "\t" : " ")).join("");
  const before = shown.start > 0 ? ELLIPSIS : "";
  const after = shown.end < full.length ? ELLIPSIS : "";
  return [
    `${pad}${paint("dim", "-->")} ${printable(file)}:${line}:${column}`,
    `${pad} ${paint("dim", "|")}`,
    `${paint("dim", `${String(line).padStart(gutterWidth)} |`)} ${before}${text}${after}`,
    `${pad} ${paint("dim", "|")} ${before === "" ? "" : " "}${indent}${paint(style, "^".repeat(width))}`,
  ];
}

/**
 * The part of a line shown in a frame: all of it when it is short, else
 * MAX_FRAME_WIDTH UTF-16 units starting a little before the span (0-based
 * `spanStart`), never splitting a surrogate pair.
 */
function visiblePart(line: string, spanStart: number, spanEnd: number): { start: number; end: number } {
  if (line.length <= MAX_FRAME_WIDTH) return { start: 0, end: line.length };
  const spanWidth = Math.max(1, spanEnd - spanStart);
  // Some context before the span, less when the span is wide, and a full window when the span is near the end.
  const context = Math.min(CONTEXT_BEFORE, Math.max(0, MAX_FRAME_WIDTH - spanWidth));
  let start = Math.max(0, Math.min(spanStart - context, line.length - MAX_FRAME_WIDTH));
  let end = Math.min(line.length, start + MAX_FRAME_WIDTH);
  if (isLowSurrogate(line, start)) start++;
  if (isLowSurrogate(line, end)) end--;
  return { start, end };
}

function isLowSurrogate(text: string, index: number): boolean {
  const unit = text.charCodeAt(index);
  return unit >= 0xdc00 && unit <= 0xdfff;
}

/**
 * Source text shown in a terminal: control characters (other than tab)
 * become U+FFFD, one column each so the underline still lines up, and an
 * untrusted file cannot send escape sequences to the terminal.
 */
function printable(text: string): string {
  return text.replace(/[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/gu, "\ufffd");
}
