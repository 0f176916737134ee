import type { Mission } from "@temporal/agent-sdk";
import type { MissionModel } from "@temporal/compiler";
import { compileForPage, instantiateMissions } from "../../src/time/load-missions.js";

/** What the panel has after the worker compiled `source` and the page loaded its code; undefined when it has errors. */
export function loadedMissions(source: string): { missions: Mission[]; model: MissionModel } | undefined {
  // Through a structured clone, as the worker's reply crosses to the page.
  const compiled = structuredClone(compileForPage(source, "playground.mission"));
  return compiled.ok ? { missions: instantiateMissions(compiled.code), model: compiled.model } : undefined;
}

export function mustLoad(source: string): { missions: Mission[]; model: MissionModel } {
  const loaded = loadedMissions(source);
  if (loaded === undefined) throw new Error(`does not compile:\n${source}`);
  return loaded;
}
