import type { SourceRange } from "./ast.js";

export type Severity = "error" | "warning" | "info";

export interface DiagnosticNote {
  message: string;
  range: SourceRange;
}

/** Replace the text in `range` (offsets are what count) with `newText`; an empty range inserts. */
export interface TextEdit {
  range: SourceRange;
  newText: string;
}

/**
 * A change that makes a diagnostic go away. Edits of one fix never overlap;
 * a diagnostic lists its fixes best first, and only a diagnostic with exactly
 * one fix is fixed without asking (`applyFixes`, `temporalc check --fix`).
 */
export interface Fix {
  title: string;
  edits: TextEdit[];
}

export interface Diagnostic {
  code: DiagnosticCode;
  severity: Severity;
  message: string;
  file: string;
  range: SourceRange;
  help?: string;
  notes?: DiagnosticNote[];
  fixes?: Fix[];
}

/** The fix that writes `newText` in place of `range`. */
export function replacement(range: SourceRange, newText: string): Fix {
  return { title: `write \`${newText}\``, edits: [{ range, newText }] };
}

/** A code's entry in the table; `fix` says what its structured fix does, for codes that have one. */
export interface DiagnosticDefinition {
  severity: Severity;
  title: string;
  fix?: string;
}

/**
 * Every diagnostic the compiler can report. Codes are stable: once published
 * a code keeps its meaning, so tools and docs may refer to it.
 * M1xx syntax, M2xx directives, M3xx phase, M4xx carbon and HS-Bloch,
 * M5xx mission structure.
 */
export const DIAGNOSTIC_CODES = {
  M100: { severity: "error", title: "unexpected character" },
  M101: { severity: "error", title: "unterminated block comment" },
  M102: { severity: "error", title: "syntax error", fix: "replaces a misspelt keyword with the one expected, or adds a missing `}` at the end of the file" },
  M103: { severity: "error", title: "invalid number" },
  M104: { severity: "error", title: "directive after a mission" },
  M105: { severity: "info", title: "too many errors" },
  M106: { severity: "error", title: "not a text file" },
  M107: { severity: "error", title: "invalid UTF-8" },
  M108: { severity: "error", title: "number too large" },
  M200: { severity: "error", title: "unsupported language version" },
  M201: { severity: "warning", title: "newer language version" },
  M202: { severity: "warning", title: "missing version directive", fix: "inserts `@temporal <version>` as the first line" },
  M203: { severity: "error", title: "duplicate directive" },
  M204: { severity: "error", title: "unknown zone", fix: "replaces the zone with the closest of Z0 to Z11, when one is close" },
  M205: { severity: "error", title: "unknown directive", fix: "replaces a misspelt directive with `@temporal` or `@anchor`" },
  M206: { severity: "error", title: "unknown time zone", fix: "replaces the name with the closest IANA time zone or SWT zone, when only one is that close" },
  M300: { severity: "error", title: "phase bound out of range", fix: "writes the same angle within 0 to 360 (400 becomes 40, -30 becomes 330)" },
  M301: { severity: "error", title: "zero-width phase window" },
  M302: { severity: "warning", title: "phase window always open" },
  M303: { severity: "error", title: "phase windows never overlap" },
  M304: { severity: "error", title: "invalid clock time", fix: "pads a one-digit field with a zero (`9:30` becomes `09:30`)" },
  M305: { severity: "warning", title: "window edge in a daylight-saving change" },
  M400: { severity: "error", title: "carbon threshold not positive" },
  M401: { severity: "warning", title: "carbon threshold unrealistically high" },
  M402: { severity: "warning", title: "several carbon requirements" },
  M410: { severity: "error", title: "HS-Bloch threshold out of range" },
  M411: { severity: "warning", title: "several HS-Bloch requirements" },
  M412: {
    severity: "error",
    title: "HS-Bloch requirement never holds",
    fix: "writes `hs_bloch >= 1` for `hs_bloch > 1`, requiring a perfect score (not when a comment is inside the requirement)",
  },
  M500: { severity: "error", title: "duplicate mission name" },
  M501: { severity: "error", title: "duplicate handler" },
  M502: { severity: "warning", title: "mission without on ALLOW" },
  M503: { severity: "warning", title: "task executed twice" },
  M504: { severity: "warning", title: "anchor written twice" },
  M505: { severity: "error", title: "no mission" },
  M506: { severity: "error", title: "mission name too long for a receipt" },
  M507: { severity: "error", title: "mission names differ only in case" },
} as const satisfies Record<string, DiagnosticDefinition>;

export type DiagnosticCode = keyof typeof DIAGNOSTIC_CODES;

/**
 * The anchor of a code's section in docs/diagnostics.md, as GitHub makes it
 * from the heading `## M303: phase windows never overlap (error)`.
 */
export function docsAnchor(code: DiagnosticCode): string {
  const { title, severity } = DIAGNOSTIC_CODES[code];
  return `${code}: ${title} (${severity})`
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, "")
    .replace(/ /g, "-");
}

export interface DiagnosticDetails {
  help?: string;
  notes?: DiagnosticNote[];
  fixes?: Fix[];
}

export function diagnostic(code: DiagnosticCode, file: string, range: SourceRange, message: string, details: DiagnosticDetails = {}): Diagnostic {
  const result: Diagnostic = { code, severity: DIAGNOSTIC_CODES[code].severity, message, file, range };
  if (details.help !== undefined) result.help = details.help;
  if (details.notes !== undefined && details.notes.length > 0) result.notes = details.notes;
  if (details.fixes !== undefined && details.fixes.length > 0) result.fixes = details.fixes;
  return result;
}

/** Orders diagnostics by position, then code, so output never depends on discovery order. */
export function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  return a.range.start.offset - b.range.start.offset || a.range.end.offset - b.range.end.offset || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0);
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === "error");
}

/** Past this many errors a file is more likely junk than a mission; the rest are summarised. */
const MAX_REPORTED_ERRORS = 100;

/**
 * Keeps the first errors of a sorted list and summarises the rest in one
 * M105; `uncounted` errors were found but never made into diagnostics.
 */
export function limitErrors(sorted: Diagnostic[], file: string, uncounted = 0): Diagnostic[] {
  let listed = 0;
  const kept: Diagnostic[] = [];
  let lastKept: Diagnostic | undefined;
  for (const d of sorted) {
    if (d.severity === "error") {
      if (++listed > MAX_REPORTED_ERRORS) continue;
      lastKept = d;
    }
    kept.push(d);
  }
  const hidden = Math.max(0, listed - MAX_REPORTED_ERRORS) + uncounted;
  if (lastKept !== undefined && hidden > 0) {
    kept.push(
      diagnostic("M105", file, lastKept.range, `${hidden} more errors not shown`, {
        help: "fix the errors above first; this many usually means the file is not a mission file",
      }),
    );
  }
  return kept.sort(compareDiagnostics);
}
