import { compile } from "@temporal/compiler";
import { createLanguageService, SEMANTIC_TOKENS_LEGEND, TextDocument, type LanguageService } from "@temporal/language-service";
import type { CompletionItem, Diagnostic, Hover, MarkupContent, SemanticTokens } from "vscode-languageserver-types";
import {
  PROTOCOL_VERSION,
  SELF_CONTAINED_METHODS,
  type CompiledOutput,
  type HighlightSpan,
  type Method,
  type PlainCompletion,
  type PlainDiagnostic,
  type RequestMessage,
  type Requests,
  type ResponseMessage,
} from "./protocol.js";
import { createTimePanelData } from "./time-panel-data.js";

/**
 * The worker's side of the protocol as plain functions of the messages (no
 * `self`, no `postMessage`), so Node tests call them directly. One document
 * at a time: the playground edits one file.
 */
export interface WorkerHandlers {
  handle(message: RequestMessage): Promise<ResponseMessage>;
}

const URI = "inmemory://playground/";

type Handler<M extends Method> = (document: TextDocument, params: Requests[M]["params"]) => Requests[M]["result"] | Promise<Requests[M]["result"]>;

export function createWorkerHandlers(service: LanguageService = createLanguageService()): WorkerHandlers {
  let document = TextDocument.create(`${URI}playground.mission`, "mission", 0, "");
  const timePanelData = createTimePanelData();

  const handlers: { [M in Method]: Handler<M> } = {
    update: (current) => ({ diagnostics: service.diagnostics(current).map((d) => plainDiagnostic(current, d)), highlights: highlights(current, service.semanticTokens(current)) }),
    hover: (current, { offset }) => plainHover(current, service.hover(current, current.positionAt(offset)), offset),
    complete: (current, { offset }) => plainCompletions(current, service.completion(current, current.positionAt(offset)).items),
    format: async (current) => {
      const [edit] = await service.format(current);
      return edit === undefined ? null : { text: TextDocument.applyEdits(current, [edit]) };
    },
    compile: (current) => compiled(current),
    timePanel: (_current, params) => timePanelData.timePanel(params),
    run: (_current, params) => timePanelData.run(params),
  };

  return {
    async handle(message) {
      const { id, version } = message;
      // Typed as the current version, but a message from another build's page may carry any number.
      const protocol: number = message.protocol;
      if (protocol !== PROTOCOL_VERSION) return { id, version, outcome: "error", message: `protocol ${protocol} is not ${PROTOCOL_VERSION}: reload the page` };
      if (message.method === "update") {
        if (version < document.version) return { id, version, outcome: "stale" };
        const uri = `${URI}${message.params.filename}`;
        if (uri !== document.uri) service.forget(document.uri);
        document = TextDocument.create(uri, "mission", version, message.params.text);
      } else if (version !== document.version && !SELF_CONTAINED_METHODS.has(message.method)) {
        return { id, version, outcome: "stale" };
      }
      try {
        const handler = handlers[message.method] as Handler<Method>;
        return { id, version, outcome: "ok", result: await handler(document, message.params) };
      } catch (error) {
        // The language service promises not to throw on any text: an error here is a bug, reported rather than hidden.
        return { id, version, outcome: "error", message: error instanceof Error ? error.message : String(error) };
      }
    },
  };
}

const SEVERITIES = { 1: "error", 2: "warning", 3: "info", 4: "info" } as const;

function plainDiagnostic(document: TextDocument, d: Diagnostic): PlainDiagnostic {
  return {
    from: document.offsetAt(d.range.start),
    to: document.offsetAt(d.range.end),
    severity: SEVERITIES[d.severity ?? 1],
    code: String(d.code ?? ""),
    message: d.message,
    docsUrl: d.codeDescription?.href ?? null,
  };
}

/** LSP's relative encoding (line delta, character delta, length, type, modifiers) back to absolute offsets. */
function highlights(document: TextDocument, tokens: SemanticTokens): HighlightSpan[] {
  const spans: HighlightSpan[] = [];
  let line = 0;
  let character = 0;
  const { data } = tokens;
  for (let i = 0; i + 4 < data.length; i += 5) {
    const deltaLine = data[i]!;
    line += deltaLine;
    character = deltaLine === 0 ? character + data[i + 1]! : data[i + 1]!;
    const from = document.offsetAt({ line, character });
    spans.push({ from, to: from + data[i + 2]!, type: SEMANTIC_TOKENS_LEGEND.tokenTypes[data[i + 3]!] ?? "keyword", declaration: (data[i + 4]! & 1) !== 0 });
  }
  return spans;
}

function plainHover(document: TextDocument, hover: Hover | null, offset: number): Requests["hover"]["result"] {
  if (hover === null) return null;
  const markdown = (hover.contents as MarkupContent).value;
  if (hover.range === undefined) return { from: offset, to: offset, markdown };
  return { from: document.offsetAt(hover.range.start), to: document.offsetAt(hover.range.end), markdown };
}

/** LSP completion kinds (numbers) to CodeMirror's completion types, which pick the icon. */
const COMPLETION_TYPES: Record<number, string> = { 3: "function", 6: "variable", 7: "class", 12: "constant", 14: "keyword", 20: "enum", 21: "constant", 24: "keyword" };

function plainCompletions(document: TextDocument, items: readonly CompletionItem[]): Requests["complete"]["result"] {
  const first = items[0];
  if (first === undefined) return null;
  const range = first.textEdit !== undefined && "range" in first.textEdit ? first.textEdit.range : undefined;
  if (range === undefined) return null;
  const options: PlainCompletion[] = items.map((item) => ({
    label: item.label,
    type: COMPLETION_TYPES[item.kind ?? 0] ?? "text",
    detail: item.detail ?? null,
    info: typeof item.documentation === "string" ? item.documentation : (item.documentation?.value ?? null),
    apply: item.textEdit?.newText ?? item.insertText ?? item.label,
  }));
  return { from: document.offsetAt(range.start), to: document.offsetAt(range.end), options };
}

function compiled(document: TextDocument): CompiledOutput {
  const filename = document.uri.slice(URI.length);
  const result = compile(document.getText(), { filename });
  if (result.code !== undefined) return { ok: true, javascript: result.code };
  const errors = result.diagnostics.filter((d) => d.severity === "error");
  const first = errors[0];
  const firstError = first === undefined ? "" : `${filename}:${first.range.start.line}:${first.range.start.column} ${first.code} ${first.message}`;
  return { ok: false, errorCount: errors.length, firstError };
}
