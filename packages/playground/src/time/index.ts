import type { PlaygroundState } from "../state.js";

/**
 * Mounts the time panel (dial, instant and measures, verdicts, Run, the
 * equivalent command; see panel.ts) into `host`. The panel brings the
 * compiler and the SDK, so it is a chunk of its own, fetched after the page
 * is up: the editor does not wait for it.
 */
export function mountTimePanel(host: HTMLElement, state: PlaygroundState): void {
  host.setAttribute("aria-busy", "true");
  host.replaceChildren(Object.assign(document.createElement("p"), { textContent: "Loading the time panel…" }));
  import("./panel.js").then(
    ({ mountPanel }) => {
      mountPanel(host, state);
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
