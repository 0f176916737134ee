import type { PlaygroundState } from "../state.js";

/**
 * The time panel: per mission its dial, verdict and next transition; the
 * time slider and measures that drive them; Run; the equivalent command.
 */
export function mountTimePanel(host: HTMLElement, state: PlaygroundState): void {
  void host;
  void state;
}
