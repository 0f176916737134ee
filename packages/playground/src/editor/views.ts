import { closeBrackets, closeBracketsKeymap, completionKeymap } from "@codemirror/autocomplete";
import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { bracketMatching, indentOnInput } from "@codemirror/language";
import { lintGutter, lintKeymap } from "@codemirror/lint";
import { highlightSelectionMatches, searchKeymap } from "@codemirror/search";
import { EditorState, type Extension } from "@codemirror/state";
import { drawSelection, EditorView, highlightActiveLine, highlightActiveLineGutter, keymap, lineNumbers } from "@codemirror/view";

/**
 * CodeMirror's own colours are for a light page: this theme takes the page's (style.css), which follow
 * `prefers-color-scheme`, so tooltips, gutters and the active line stay legible in a dark scheme too.
 */
const pageColours = EditorView.theme({
  "&": { color: "var(--fg)", backgroundColor: "var(--bg)" },
  ".cm-content": { caretColor: "var(--fg)" },
  ".cm-cursor, .cm-dropCursor": { borderLeftColor: "var(--fg)" },
  ".cm-gutters": { backgroundColor: "var(--panel)", color: "var(--muted)", borderRightColor: "var(--border)" },
  ".cm-activeLine": { backgroundColor: "var(--active-line)" },
  ".cm-activeLineGutter": { backgroundColor: "var(--active-line)", color: "var(--fg)" },
  "&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground": { backgroundColor: "var(--selection)" },
  ".cm-tooltip": { backgroundColor: "var(--panel)", color: "var(--fg)", border: "1px solid var(--border)" },
  ".cm-tooltip-autocomplete > ul > li[aria-selected]": { backgroundColor: "var(--accent)", color: "var(--bg)" },
  ".cm-panels": { backgroundColor: "var(--panel)", color: "var(--fg)" },
});

/**
 * The playground's CodeMirror views: the source editor and the read-only
 * output viewers. Tab is left to move focus (not bound to indent), so the
 * page stays operable from the keyboard.
 */
export function createSourceEditor(parent: HTMLElement, text: string, language: Extension, onChange: (text: string) => void): EditorView {
  return new EditorView({
    parent,
    state: EditorState.create({
      doc: text,
      extensions: [
        lineNumbers(),
        highlightActiveLineGutter(),
        highlightActiveLine(),
        history(),
        drawSelection(),
        indentOnInput(),
        bracketMatching(),
        closeBrackets(),
        highlightSelectionMatches(),
        lintGutter(),
        // Long comments wrap rather than run out of the editor's width (cut off at 740 px before).
        EditorView.lineWrapping,
        keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...searchKeymap, ...historyKeymap, ...completionKeymap, ...lintKeymap]),
        EditorView.contentAttributes.of({ "aria-label": "Mission source", "data-testid": "source-editor" }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) onChange(update.state.doc.toString());
        }),
        pageColours,
        language,
      ],
    }),
  });
}

export function createReadOnlyView(parent: HTMLElement, label: string): EditorView {
  return new EditorView({
    parent,
    state: EditorState.create({
      extensions: [
        lineNumbers(),
        EditorState.readOnly.of(true),
        EditorView.contentAttributes.of({ "aria-label": label, "aria-readonly": "true" }),
        highlightSelectionMatches(),
        keymap.of([...defaultKeymap, ...searchKeymap]),
      ],
    }),
  });
}

/** Replaces a view's whole text unless it is that text already (keeps the cursor and history otherwise untouched). */
export function setText(view: EditorView, text: string): void {
  if (view.state.doc.toString() === text) return;
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
}
