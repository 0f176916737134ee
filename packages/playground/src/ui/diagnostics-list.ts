import { EditorSelection } from "@codemirror/state";
import type { EditorView } from "@codemirror/view";
import { diagnosticMessage } from "../editor/language.js";
import type { PlainDiagnostic } from "../worker/protocol.js";

/**
 * The problems under the editor, as a list a screen reader and a keyboard
 * can walk: each names its line and column (a button that moves the cursor
 * there), its code (linking its explanation) and its message.
 */
export function renderDiagnosticsList(list: HTMLElement, count: HTMLElement, diagnostics: readonly PlainDiagnostic[], editor: EditorView): void {
  const counts = (["error", "warning", "info"] as const).map((severity) => [severity, diagnostics.filter((d) => d.severity === severity).length] as const);
  const named = counts.filter(([, n]) => n > 0).map(([severity, n]) => plural(n, severity === "info" ? "note" : severity));
  count.textContent = named.length === 0 ? "none" : named.join(", ");
  list.replaceChildren(
    ...diagnostics.map((d) => {
      const item = document.createElement("li");
      item.className = `diagnostic ${d.severity}`;
      item.dataset.code = d.code;
      const at = Math.min(d.from, editor.state.doc.length);
      const line = editor.state.doc.lineAt(at);
      const go = document.createElement("button");
      go.type = "button";
      go.className = "diagnostic-location";
      go.textContent = `${line.number}:${at - line.from + 1}`;
      go.setAttribute("aria-label", `${d.severity} at line ${line.number}, column ${at - line.from + 1}: go there`);
      go.addEventListener("click", () => {
        editor.dispatch({ selection: EditorSelection.single(at), scrollIntoView: true });
        editor.focus();
      });
      item.append(go, " ", diagnosticMessage(d));
      return item;
    }),
  );
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}
