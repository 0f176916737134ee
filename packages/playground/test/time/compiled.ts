import type { Mission } from "@temporal/agent-sdk";
import type { MissionModel } from "@temporal/compiler";
import { instantiateMissions } from "../../src/time/load-missions.js";
import { createTimePanelData } from "../../src/worker/time-panel-data.js";

const timePanelData = createTimePanelData("UTC");

/** What the panel has after the worker compiled `source` and the page loaded its code; undefined when it has errors. */
export function loadedMissions(source: string): { missions: Mission[]; model: MissionModel } | undefined {
  // The language worker's answer, through a structured clone, as it crosses to the page.
  const { compiled } = structuredClone(timePanelData({ text: source, filename: "playground.mission", at: 0 }));
  return compiled.ok ? { missions: instantiateMissions(compiled.code), model: compiled.model } : undefined;
}

export function mustLoad(source: string): { missions: Mission[]; model: MissionModel } {
  const loaded = loadedMissions(source);
  if (loaded === undefined) throw new Error(`does not compile:\n${source}`);
  return loaded;
}
