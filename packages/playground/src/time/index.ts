import type { PlaygroundState } from "../state.js";
import type { LanguageClient } from "../worker/client.js";

/**
 * Mounts the time panel (dial, instant and measures, verdicts, Run, the
 * equivalent command; see panel.ts) into `host`. The panel is a chunk of its
 * own, fetched after the page is up: the editor does not wait for it. It
 * compiles, decides and runs through the editor's language worker, `client`.
 */
export function mountTimePanel(host: HTMLElement, state: PlaygroundState, client: LanguageClient): void {
  host.setAttribute("aria-busy", "true");
  host.replaceChildren(Object.assign(document.createElement("p"), { textContent: "Loading the time panel…" }));
  import("./panel.js").then(
    ({ mountPanel }) => {
      mountPanel(host, state, client);
      host.removeAttribute("aria-busy");
    },
    (error: unknown) => {
      host.removeAttribute("aria-busy");
      const message = Object.assign(document.createElement("p"), {
        textContent: `The time panel could not load: ${error instanceof Error ? error.message : String(error)}. Reload the page to try again.`,
      });
      message.setAttribute("role", "alert");
      host.replaceChildren(message);
    },
  );
}
