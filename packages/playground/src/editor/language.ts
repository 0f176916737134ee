import { autocompletion, type CompletionContext, type CompletionResult } from "@codemirror/autocomplete";
import { setDiagnostics, type Diagnostic } from "@codemirror/lint";
import { StateEffect, StateField, type Extension, type Text } from "@codemirror/state";
import { activateHover, closeHoverTooltips, Decoration, EditorView, hasHoverTooltips, hoverTooltip, keymap, ViewPlugin, type DecorationSet, type ViewUpdate } from "@codemirror/view";
import type { LanguageClient } from "../worker/client.js";
import type { CompiledOutput, HighlightSpan, Method, PlainDiagnostic, Requests } from "../worker/protocol.js";
import { visibleRange } from "./diagnostic-range.js";
import { renderMarkdown } from "./markdown.js";

/**
 * The mission language in CodeMirror, over the language worker: highlighting
 * from semantic tokens, diagnostics, hover, completion and formatting.
 * Typing only schedules an `update`; every request first sends the text the
 * editor holds (`flush`), so the worker always answers about what is on screen.
 */
export interface MissionLanguage {
  extension: Extension;
  /** Replaces the document with its formatted text; false when nothing changed (formatted already, or a syntax error). */
  format(view: EditorView): Promise<boolean>;
  /** The source formatted, or as it is when it cannot be formatted; undefined when the document changed meanwhile. */
  formatted(view: EditorView): Promise<string | undefined>;
  compile(view: EditorView): Promise<CompiledOutput | undefined>;
}

export interface MissionLanguageOptions {
  filename: string;
  /** Called with each fresh set of diagnostics (for the list under the editor). */
  onDiagnostics: (diagnostics: readonly PlainDiagnostic[]) => void;
  /** How long typing must pause before the document is analysed. */
  debounceMs?: number;
}

const setHighlights = StateEffect.define<readonly HighlightSpan[]>();

const highlightField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(decorations, transaction) {
    let next = decorations.map(transaction.changes);
    for (const effect of transaction.effects) {
      if (!effect.is(setHighlights)) continue;
      const length = transaction.state.doc.length;
      const marks = effect.value.filter((span) => span.from < span.to && span.to <= length).map((span) => tokenMark(span).range(span.from, span.to));
      next = Decoration.set(marks, true);
    }
    return next;
  },
  provide: (field) => EditorView.decorations.from(field),
});

const marks = new Map<string, Decoration>();
function tokenMark(span: HighlightSpan): Decoration {
  const className = `tok-${span.type}${span.declaration ? " tok-declaration" : ""}`;
  let mark = marks.get(className);
  // The colour is the page's variable for the type (style.css, light and dark): one rule for every type.
  if (mark === undefined) marks.set(className, (mark = Decoration.mark({ class: className, attributes: { style: `color: var(--tok-${span.type})` } })));
  return mark;
}

export function missionLanguage(client: LanguageClient, options: MissionLanguageOptions): MissionLanguage {
  const { filename, onDiagnostics, debounceMs = 150 } = options;
  let sentDoc: Text | null = null;
  // A failed worker is reported once, by the client's onFailure (a notice): here its rejections just mean "no answer".
  const ask = <M extends Exclude<Method, "update">>(method: M, params: Requests[M]["params"]) => client.request(method, params).catch(() => undefined);

  /** Sends the editor's text unless the worker has it already; applies the analysis if the text is still current when it comes back. */
  function flush(view: EditorView): void {
    const doc = view.state.doc;
    if (doc === sentDoc) return;
    sentDoc = doc;
    const text = doc.toString();
    void client.update(text, filename).then(
      (result) => {
        if (result === undefined || view.state.doc !== doc) return;
        view.dispatch(
          setDiagnostics(
            view.state,
            result.diagnostics.map((d) => cmDiagnostic(d, text)),
          ),
          { effects: setHighlights.of(result.highlights) },
        );
        onDiagnostics(result.diagnostics);
      },
      () => {},
    );
  }

  const analyseAfterTyping = ViewPlugin.fromClass(
    class {
      private timer: ReturnType<typeof setTimeout> | undefined;
      constructor(private readonly view: EditorView) {
        flush(view);
      }
      update(update: ViewUpdate): void {
        if (!update.docChanged) return;
        clearTimeout(this.timer);
        this.timer = setTimeout(() => flush(this.view), debounceMs);
      }
      destroy(): void {
        clearTimeout(this.timer);
      }
    },
  );

  const hover = hoverTooltip(async (view, pos) => {
    flush(view);
    const answer = await ask("hover", { offset: pos });
    if (answer === undefined || answer === null) return null;
    return { pos: answer.from, end: answer.to, above: true, create: () => ({ dom: renderMarkdown(answer.markdown) }) };
  });

  async function complete(context: CompletionContext): Promise<CompletionResult | null> {
    if (!context.explicit && context.matchBefore(/[\w@/.+-]+$/) === null) return null;
    flush(context.view!);
    const answer = await ask("complete", { offset: context.pos });
    if (answer === undefined || answer === null) return null;
    return {
      from: answer.from,
      to: answer.to,
      options: answer.options.map(({ label, type, detail, info, apply }) => ({ label, type, apply, ...(detail === null ? {} : { detail }), ...(info === null ? {} : { info }) })),
      validFor: /^[\w/.+-]*$/,
    };
  }

  async function formatted(view: EditorView): Promise<string | undefined> {
    flush(view);
    const doc = view.state.doc;
    const answer = await ask("format", {});
    if (answer === undefined || view.state.doc !== doc) return undefined;
    return answer?.text ?? doc.toString();
  }

  async function format(view: EditorView): Promise<boolean> {
    const before = view.state.doc;
    const text = await formatted(view);
    if (text === undefined || view.state.doc !== before || text === before.toString()) return false;
    view.dispatch({ changes: { from: 0, to: before.length, insert: text } });
    return true;
  }

  return {
    extension: [
      highlightField,
      analyseAfterTyping,
      hover,
      autocompletion({ override: [complete] }),
      keymap.of([
        { key: "Shift-Alt-f", run: (view) => (void format(view), true) },
        // The hover at the cursor, for keyboard users (VS Code's binding); it closes on the next edit, move or Escape.
        { key: "Mod-k Mod-i", run: (view) => (activateHover(view, view.state.selection.main.head, 1, { tooltip: hover, until: (tr) => tr.docChanged || tr.selection !== undefined }), true) },
        { key: "Escape", run: (view) => hasHoverTooltips(view.state) && (view.dispatch({ effects: closeHoverTooltips }), true) },
      ]),
    ],
    format,
    formatted,
    compile: async (view) => {
      flush(view);
      return ask("compile", {});
    },
  };
}

function cmDiagnostic(d: PlainDiagnostic, text: string): Diagnostic {
  return {
    ...visibleRange(d.from, d.to, text),
    severity: d.severity,
    source: d.code,
    message: d.message,
    renderMessage: () => diagnosticMessage(d),
  };
}

/** The message, led by its code, which links the code's explanation when there is one. */
export function diagnosticMessage(d: PlainDiagnostic): HTMLElement {
  const line = document.createElement("span");
  const code = document.createElement(d.docsUrl === null ? "strong" : "a");
  code.textContent = d.code;
  code.className = "diagnostic-code";
  if (code instanceof HTMLAnchorElement && d.docsUrl !== null) {
    code.href = d.docsUrl;
    code.target = "_blank";
    code.rel = "noopener";
    code.title = `${d.code} explained in docs/diagnostics.md`;
  }
  line.append(code, ` ${d.message}`);
  return line;
}
