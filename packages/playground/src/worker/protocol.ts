/**
 * The typed messages between the page and the language worker. Positions
 * are UTF-16 offsets into the document (what CodeMirror uses); the worker
 * converts to and from the language service's line/character positions.
 *
 * Every request names the document `version` it was asked about. The page
 * sends `update` before asking about a new version; an answer about an
 * older version than the page's current one is stale and dropped.
 */

/** Bumped when a message changes shape, so a page never talks to a worker from another build. */
export const PROTOCOL_VERSION = 1;

export type Severity = "error" | "warning" | "info";

export interface PlainDiagnostic {
  from: number;
  to: number;
  severity: Severity;
  code: string;
  message: string;
  /** The code's section of docs/diagnostics.md. */
  docsUrl: string | null;
}

export interface HighlightSpan {
  from: number;
  to: number;
  /** A semantic token type of the language service's legend, e.g. "keyword". */
  type: string;
  declaration: boolean;
}

export interface PlainCompletion {
  label: string;
  /** CodeMirror's completion type (icon), mapped from the LSP kind. */
  type: string;
  detail: string | null;
  info: string | null;
  apply: string;
}

/** The compiled tab: JavaScript, or why there is none. */
export type CompiledOutput = { ok: true; javascript: string } | { ok: false; errorCount: number; firstError: string };

export interface Requests {
  /** The document's new text; answers with its diagnostics and highlighting. */
  update: { params: { text: string; filename: string }; result: { diagnostics: PlainDiagnostic[]; highlights: HighlightSpan[] } };
  hover: { params: { offset: number }; result: { from: number; to: number; markdown: string } | null };
  complete: { params: { offset: number }; result: { from: number; to: number; options: PlainCompletion[] } | null };
  /** The whole document formatted; `null` when it is formatted already or has a syntax error. */
  format: { params: Record<string, never>; result: { text: string } | null };
  compile: { params: Record<string, never>; result: CompiledOutput };
}

export type Method = keyof Requests;

export type RequestMessage = {
  [M in Method]: { protocol: typeof PROTOCOL_VERSION; id: number; version: number; method: M; params: Requests[M]["params"] };
}[Method];

export type ResponseMessage =
  | { id: number; version: number; outcome: "ok"; result: unknown }
  /** The worker already holds a newer version: the page has moved on, nothing was computed. */
  | { id: number; version: number; outcome: "stale" }
  | { id: number; version: number; outcome: "error"; message: string };
