/**
 * The typed messages between the page and the language worker. Positions
 * are UTF-16 offsets into the document (what CodeMirror uses); the worker
 * converts to and from the language service's line/character positions.
 *
 * Every request names the document `version` it was asked about. The page
 * sends `update` before asking about a new version; an answer about an
 * older version than the page's current one is stale and dropped. The time
 * panel's request is the exception: it carries its own text (the panel
 * follows the page's state, not the editor's last analysed version).
 */
import type { PublicKeyJwk } from "@temporal/agent-sdk";
import type { Diagnostic, MissionModel } from "@temporal/compiler";
import type { FileDial } from "@temporal/language-service";
import type { MissionRun } from "./run-missions.js";
import type { VerdictView } from "./verdict.js";

/** Bumped when a message changes shape, so a page never talks to a worker from another build. */
export const PROTOCOL_VERSION = 4;

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

/** The specifier the time panel's generated code requires the SDK by (any fixed name: only the panel's loader answers it). */
export const SDK_SPECIFIER = "@temporal/agent-sdk";

/**
 * The compiler's output as the time panel sees it: the model, and the errors when there are some. The generated code
 * stays in the worker, which runs it (load-missions.ts). Structured-clonable: plain data.
 */
export type CompiledForPage = { readonly ok: true; readonly model: MissionModel } | { readonly ok: false; readonly errors: readonly Diagnostic[]; readonly model: MissionModel };

/** The dial of a file that compiled, with `dialSvg`'s markup. */
export interface PanelDial {
  readonly data: FileDial;
  readonly svg: string;
}

export interface Requests {
  /** The document's new text; answers with its diagnostics and highlighting. */
  update: { params: { text: string; filename: string }; result: { diagnostics: PlainDiagnostic[]; highlights: HighlightSpan[] } };
  hover: { params: { offset: number }; result: { from: number; to: number; markdown: string } | null };
  complete: { params: { offset: number }; result: { from: number; to: number; options: PlainCompletion[] } | null };
  /** The whole document formatted; `null` when it is formatted already or has a syntax error. */
  format: { params: Record<string, never>; result: { text: string } | null };
  compile: { params: Record<string, never>; result: CompiledOutput };
  /**
   * Everything the time panel shows, computed with the compiler, the language service and the SDK: the page loads
   * none of them. The dial and `verdicts` (the compiled missions' own `evaluate()`) come together, or neither: not for
   * a file with errors, nor when the browser's time-zone data does not know the file's zone.
   */
  timePanel: {
    params: PanelSettings;
    result: { compiled: CompiledForPage } & ({ dial: PanelDial; verdicts: VerdictView[] } | { dial: null; verdicts: null });
  };
  /** Run: every mission against the worker's in-memory authority, its receipts verified; what the stand-in tasks logged; the authority's public keys. */
  run: { params: PanelSettings; result: { runs: MissionRun[]; log: string[]; publicKeys: Record<string, PublicKeyJwk> } };
}

/** The source and the instant and measures the panel decides (and runs) at. */
export interface PanelSettings {
  readonly text: string;
  readonly filename: string;
  readonly at: number;
  readonly carbon: number | null;
  readonly hsBloch: number | null;
}

/** Requests that carry their own text: answered whatever version the worker's document is at, and never stale. */
const SELF_CONTAINED = ["timePanel", "run"] as const satisfies readonly Method[];
export type SelfContainedMethod = (typeof SELF_CONTAINED)[number];
export const SELF_CONTAINED_METHODS: ReadonlySet<Method> = new Set<Method>(SELF_CONTAINED);

export type Method = keyof Requests;

export type RequestMessage = {
  [M in Method]: { protocol: typeof PROTOCOL_VERSION; id: number; version: number; method: M; params: Requests[M]["params"] };
}[Method];

export type ResponseMessage =
  | { id: number; version: number; outcome: "ok"; result: unknown }
  /** The worker already holds a newer version: the page has moved on, nothing was computed. */
  | { id: number; version: number; outcome: "stale" }
  | { id: number; version: number; outcome: "error"; message: string };
