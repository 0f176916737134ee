import { compile } from "@temporal/compiler";
import { dialSvg, missionDials, viewerTimeZone as runtimeTimeZone } from "@temporal/language-service";
import { SDK_SPECIFIER, type CompiledForPage, type Requests } from "./protocol.js";

type TimePanelRequest = Requests["timePanel"];

/**
 * The time panel's request, answered in the language worker (which has the
 * compiler and the language service already: the page would otherwise
 * download them a second time). The source is compiled once per text; a new
 * instant (the live clock, the slider) only recomputes the dial. The ring of
 * local hours is `viewerTimeZone`'s: the browser's, as `temporalc show` uses the machine's.
 */
export function createTimePanelData(viewerTimeZone = runtimeTimeZone()): (params: TimePanelRequest["params"]) => TimePanelRequest["result"] {
  let last: { text: string; filename: string; compiled: CompiledForPage } | undefined;
  return ({ text, filename, at }) => {
    if (last?.text !== text || last.filename !== filename) last = { text, filename, compiled: compileForPage(text, filename) };
    const { compiled } = last;
    const data = compiled.ok ? missionDials(compiled.model, { at, viewerTimeZone }) : null;
    return { compiled, dial: data === null ? null : { data, svg: dialSvg(data) } };
  };
}

function compileForPage(source: string, filename: string): CompiledForPage {
  const result = compile(source, { filename, format: "cjs", sdkModule: SDK_SPECIFIER });
  if (result.code === undefined) return { ok: false, errors: result.diagnostics.filter((d) => d.severity === "error"), model: result.model };
  return { ok: true, code: result.code, model: result.model };
}
