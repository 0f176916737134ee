import type { EditorView } from "@codemirror/view";
import { missionLanguage, type MissionLanguage } from "./editor/language.js";
import { createReadOnlyView, createSourceEditor, setText } from "./editor/views.js";
import { DEFAULT_EXAMPLE, EXAMPLES } from "./examples.js";
import { createPlaygroundState, type PlaygroundState } from "./state.js";
import { mountTimePanel } from "./time/index.js";
import { renderDiagnosticsList } from "./ui/diagnostics-list.js";
import { showNotice } from "./ui/notice.js";
import { clearFragmentOnNextChange, setUpShareButton, sharedFromFragment } from "./ui/share-button.js";
import { setUpTabs } from "./ui/tabs.js";
import { createLanguageClient } from "./worker/client.js";

/** The page's entry: builds the state and hands each region of the page to the module that owns it. */
async function start(): Promise<void> {
  const shared = await sharedFromFragment(location.hash);
  const state = createPlaygroundState(shared ?? { source: DEFAULT_EXAMPLE.source });

  const worker = new Worker(new URL("./worker/worker.ts", import.meta.url), { type: "module", name: "mission-language" });
  const client = createLanguageClient(worker, (error) => showNotice(`The editor's analysis stopped (${error.message}). Reload the page to start it again.`, "error"));
  const list = byId("diagnostics");
  const count = byId("diagnostics-count");
  let syntaxErrors = 0;
  const language = missionLanguage(client, {
    filename: state.filename,
    onDiagnostics: (diagnostics) => {
      // M1xx are the syntax errors (docs/diagnostics.md), the only ones that stop the formatter.
      syntaxErrors = diagnostics.filter((d) => d.severity === "error" && d.code.startsWith("M1")).length;
      renderDiagnosticsList(list, count, diagnostics, editor);
    },
  });
  const editor = createSourceEditor(byId("editor"), state.source, language.extension, (text) => state.setSource(text));
  byId("skip-to-editor").addEventListener("click", (event) => {
    // Into the editor itself: following the link would only scroll (focus stays on the body) and change the fragment.
    event.preventDefault();
    editor.focus();
  });

  const outputs = setUpOutputTabs(editor, language);
  let shownSource = state.source;
  state.subscribe(() => {
    // A change of settings alone (the time panel's) changes neither the editor nor the outputs.
    if (state.source === shownSource) return;
    shownSource = state.source;
    setText(editor, state.source);
    outputs.refresh();
  });
  if (shared !== null) clearFragmentOnNextChange(state);

  setUpExamplesMenu(byId("examples") as HTMLSelectElement, state, shared === null ? DEFAULT_EXAMPLE.name : null);
  byId("format").addEventListener("click", () => {
    void language.format(editor).then((changed) => {
      // The formatter leaves a file it cannot parse as it is: say so rather than seem to ignore the click.
      if (!changed && syntaxErrors > 0) showNotice("Format needs a source that parses: fix the syntax errors under Problems first.", "error");
    });
  });
  setUpShareButton(byId("share") as HTMLButtonElement, state);
  window.addEventListener("hashchange", () => {
    void sharedFromFragment(location.hash).then((next) => {
      if (next === null) return;
      state.setSource(next.source);
      state.setSettings(next.settings);
      clearFragmentOnNextChange(state);
    });
  });

  mountTimePanel(byId("time-panel"), state, client);
  if (import.meta.env.PROD && "serviceWorker" in navigator) {
    // Offline once loaded: sw.js caches this build's assets (see vite.config.ts).
    navigator.serviceWorker.register("./sw.js").catch(() => {});
  }
}

/** The JavaScript and Formatted tabs, computed by the worker when shown and again after each change while shown. */
function setUpOutputTabs(editor: EditorView, language: MissionLanguage): { refresh(): void } {
  const javascript = createReadOnlyView(byId("javascript-view"), "Compiled JavaScript");
  const formatted = createReadOnlyView(byId("formatted-view"), "Formatted source");
  const message = byId("javascript-message");
  let shown = "tab-source";
  let timer: ReturnType<typeof setTimeout> | undefined;

  async function render(): Promise<void> {
    if (shown === "tab-javascript") {
      const output = await language.compile(editor);
      if (output === undefined) return;
      message.hidden = output.ok;
      if (output.ok) setText(javascript, output.javascript);
      else {
        message.textContent = `No JavaScript: the source has ${output.errorCount === 1 ? "an error" : `${output.errorCount} errors`} (first: ${output.firstError}). Fix ${output.errorCount === 1 ? "it" : "them"} in the Source tab.`;
        setText(javascript, "");
      }
    } else if (shown === "tab-formatted") {
      const text = await language.formatted(editor);
      if (text !== undefined) setText(formatted, text);
    }
  }

  setUpTabs(byId("tabs"), (tabId) => {
    shown = tabId;
    void render();
  });
  return {
    refresh() {
      if (shown === "tab-source") return;
      clearTimeout(timer);
      timer = setTimeout(() => void render(), 200);
    },
  };
}

function setUpExamplesMenu(menu: HTMLSelectElement, state: PlaygroundState, selected: string | null): void {
  const placeholder = new Option("Choose an example…", "");
  placeholder.disabled = true;
  menu.append(placeholder, ...EXAMPLES.map((example) => new Option(`${example.name}.mission`, example.name)));
  menu.value = selected ?? "";
  menu.addEventListener("change", () => {
    const example = EXAMPLES.find((candidate) => candidate.name === menu.value);
    if (example !== undefined) state.setSource(example.source);
  });
}

function byId(id: string): HTMLElement {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`the page has no #${id}: index.html and main.ts disagree`);
  return element;
}

void start();
