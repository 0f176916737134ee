import type { PlaygroundState } from "../state.js";

/**
 * Placeholder owned by wip-pgtime, who replaces this file: the time panel
 * (dial, slider, verdict, Run, equivalent command) mounted into `host`.
 */
export function mountTimePanel(host: HTMLElement, _state: PlaygroundState): void {
  host.replaceChildren();
}
