import type { Mission } from "@temporal/agent-sdk";
import type { MissionModel } from "@temporal/compiler";
import { instantiateMissions } from "../../src/worker/load-missions.js";
import { compileForPage } from "../../src/worker/time-panel-data.js";

/** The missions the language worker decides and runs after it compiled `source`; undefined when it has errors. */
export function loadedMissions(source: string): { missions: Mission[]; model: MissionModel } | undefined {
  // Through a structured clone, as the compiled model crosses to the page.
  const compiled = structuredClone(compileForPage(source, "playground.mission"));
  return compiled.ok ? { missions: instantiateMissions(compiled.code), model: compiled.model } : undefined;
}

export function mustLoad(source: string): { missions: Mission[]; model: MissionModel } {
  const loaded = loadedMissions(source);
  if (loaded === undefined) throw new Error(`does not compile:\n${source}`);
  return loaded;
}
