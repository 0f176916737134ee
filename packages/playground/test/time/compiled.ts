import type { Mission } from "@temporal/agent-sdk";
import type { MissionModel } from "@temporal/compiler";
import { compileInWorker } from "../../src/worker/time-panel-data.js";

/** The missions the language worker decides and runs after it compiled `source`; undefined when it has errors. */
export function loadedMissions(source: string): { missions: readonly Mission[]; model: MissionModel } | undefined {
  const { compiled, missions } = compileInWorker(source, "playground.mission");
  // The model through a structured clone, as it crosses to the page.
  return compiled.ok ? { missions, model: structuredClone(compiled.model) } : undefined;
}

export function mustLoad(source: string): { missions: readonly Mission[]; model: MissionModel } {
  const loaded = loadedMissions(source);
  if (loaded === undefined) throw new Error(`does not compile:\n${source}`);
  return loaded;
}
