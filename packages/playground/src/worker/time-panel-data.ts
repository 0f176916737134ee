import { createMemoryAuthority, type Authority, type ComposedAuthority, type Mission } from "@temporal/agent-sdk";
import { compile } from "@temporal/compiler";
import { dialSvg, missionDials, viewerTimeZone as runtimeTimeZone } from "@temporal/language-service";
import { instantiateMissions } from "./load-missions.js";
import { SDK_SPECIFIER, type CompiledForPage, type PanelSettings, type Requests } from "./protocol.js";
import { runMissions } from "./run-missions.js";
import { verdictOf } from "./verdict.js";

export interface TimePanelData {
  timePanel(params: PanelSettings): Promise<Requests["timePanel"]["result"]>;
  run(params: PanelSettings): Promise<Requests["run"]["result"]>;
}

/**
 * The time panel's requests, answered in the language worker (which has the
 * compiler and the language service already, and so loads the SDK once for
 * the dial and the decisions: the page would otherwise download it a second
 * time). The source is compiled and its missions instantiated once per text;
 * a new instant (the live clock, the slider) only recomputes the dial and the
 * verdicts. The ring of local hours is `viewerTimeZone`'s: the browser's, as
 * `temporalc show` uses the machine's. One in-memory authority per worker
 * (per page session) decides and runs; its clockchain grows with each Run,
 * and a new one replaces it if it failed.
 */
export function createTimePanelData(viewerTimeZone = runtimeTimeZone()): TimePanelData {
  let last: ({ text: string; filename: string } & CompiledInWorker) | undefined;
  let authority: ComposedAuthority | undefined;
  const sessionAuthority = (): Authority => {
    if (authority === undefined || authority.closed || authority.failed) authority = createMemoryAuthority();
    return authority;
  };
  const compiledFor = ({ text, filename }: PanelSettings): CompiledInWorker => {
    if (last?.text !== text || last.filename !== filename) last = { text, filename, ...compileInWorker(text, filename) };
    return last;
  };
  return {
    async timePanel(params) {
      const { compiled, missions } = compiledFor(params);
      const { at, carbon, hsBloch } = params;
      const data = compiled.ok ? missionDials(compiled.model, { at, viewerTimeZone }) : null;
      if (data === null) return { compiled, dial: null, verdicts: null };
      const verdicts = await Promise.all(missions.map((mission) => verdictOf(mission, data, { at, carbon, hsBloch, authority: sessionAuthority() })));
      return { compiled, dial: { data, svg: dialSvg(data) }, verdicts };
    },
    async run(params) {
      const { compiled, missions } = compiledFor(params);
      if (!compiled.ok) throw new Error("the source has errors: fix them to run");
      const log: string[] = [];
      const { runs, publicKeys } = await runMissions({ missions, settings: params, authority: sessionAuthority(), log: (line) => log.push(line) });
      return { runs, log, publicKeys };
    },
  };
}

/** One compile in the worker: what the page is sent (the model, or the errors) and the missions the code defines, which stay here. */
export interface CompiledInWorker {
  readonly compiled: CompiledForPage;
  readonly missions: readonly Mission[];
}

/** The source compiled as CommonJS requiring the SDK by `SDK_SPECIFIER`, its missions instantiated; the code itself never leaves the worker. */
export function compileInWorker(source: string, filename: string): CompiledInWorker {
  const result = compile(source, { filename, format: "cjs", sdkModule: SDK_SPECIFIER });
  if (result.code === undefined) return { compiled: { ok: false, errors: result.diagnostics.filter((d) => d.severity === "error"), model: result.model }, missions: [] };
  return { compiled: { ok: true, model: result.model }, missions: instantiateMissions(result.code) };
}
