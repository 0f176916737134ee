import { createPlaygroundState } from "./state.js";
import { mountTimePanel } from "./time/index.js";

/** The page's entry: builds the state and hands each region of the page to the module that owns it. */
function start(): void {
  const state = createPlaygroundState();
  const timePanel = document.getElementById("time-panel");
  if (timePanel !== null) mountTimePanel(timePanel, state);
}

start();
