import type { PlaygroundSettings } from "../state.js";
import { commandLines, TASKS_MODULE } from "./command-line.js";
import { h } from "./dom.js";

/** The equivalent `temporalc` commands for what is on screen, with a copy button. */
export interface CommandView {
  readonly element: HTMLElement;
  show(filename: string, settings: PlaygroundSettings, executesTasks: boolean): void;
}

export function createCommandView(): CommandView {
  const code = h("code", {});
  const block = h("pre", { class: "tp-command", "data-testid": "command-line", "aria-labelledby": "tp-command-heading" }, code);
  const status = h("span", { class: "tp-hint", role: "status" });
  const note = h("p", { class: "tp-hint" });
  const copy = h("button", { type: "button", "data-testid": "copy-command" }, "Copy");
  copy.addEventListener("click", () => {
    navigator.clipboard.writeText(code.textContent ?? "").then(
      () => (status.textContent = "Copied."),
      () => (status.textContent = "Could not copy: select the text and copy it."),
    );
  });
  return {
    element: h("div", { class: "tp-commands" }, h("h3", { id: "tp-command-heading" }, "The same on a terminal"), block, h("div", { class: "tp-row" }, copy, status), note),
    show(filename, settings, executesTasks) {
      const lines = commandLines(filename, settings, { executesTasks });
      code.textContent = `${lines.show}\n${lines.run}`;
      status.textContent = "";
      note.textContent = executesTasks ? `${TASKS_MODULE}: a module whose named exports are the task functions (see examples/tasks.mjs).` : "";
    },
  };
}
