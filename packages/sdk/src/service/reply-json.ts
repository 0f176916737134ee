import { ZONE_COUNT, type AllowResult, type CoreState, type PhaseContext } from "../core/index.js";

/**
 * JSON text of the replies that carry a phase context, byte for byte what `JSON.stringify` gives.
 *
 * Why not `JSON.stringify` alone: serializing the `allow` reply was the largest cost of the service's own
 * work per request (about 1.5 µs of a ~10 µs overhead over a bare server), most of it formatting the
 * context's floating-point numbers. A context made by the SDK is determined by its instant, zone and source,
 * and a busy service answers many requests within one millisecond, so the context's text is kept per zone
 * and source for as long as its millisecond lasts; `core/state` likewise follows from the instant alone.
 */

const SOURCES: readonly PhaseContext["source"][] = ["local", "remote"];

/** The last context text per source and zone: `lastText[source index][zone]`. */
const lastText = SOURCES.map(() => Array.from({ length: ZONE_COUNT }, () => ({ unixMs: Number.NaN, json: "" })));

/** `JSON.stringify(ctx)` for a context made by the SDK (`contextAt`, `now`), whose other fields follow from its instant, zone and source. */
export function contextJson(ctx: PhaseContext): string {
  const cached = Number.isInteger(ctx.swt_zone) ? lastText[SOURCES.indexOf(ctx.source)]?.[ctx.swt_zone] : undefined;
  if (cached === undefined) return JSON.stringify(ctx);
  if (cached.unixMs !== ctx.unix_ms) {
    cached.json = JSON.stringify(ctx);
    cached.unixMs = ctx.unix_ms;
  }
  return cached.json;
}

/** `JSON.stringify(result)` for the SDK's `allowResult`; its numbers are finite, so template text equals JSON's. */
export function allowJson(result: AllowResult): string {
  return `{"allow":${result.allow},"verdict":"${result.verdict}","phase_deg":${phaseText(result.phase_deg)},"next_open_unix_ms":${result.next_open_unix_ms},"ctx":${contextJson(result.ctx)}}`;
}

const lastPhase = { degrees: Number.NaN, text: "" };

/** A phase's text, kept while the phase repeats: within a millisecond every `allow` of one zone judges the same phase. */
function phaseText(degrees: number): string {
  if (lastPhase.degrees !== degrees) {
    lastPhase.text = String(degrees);
    lastPhase.degrees = degrees;
  }
  return lastPhase.text;
}

const lastState = { unixMs: Number.NaN, json: "" };

/** `JSON.stringify(state)` for the SDK's `coreState`, whose fields follow from its instant. */
export function coreStateJson(state: CoreState): string {
  if (lastState.unixMs !== state.unix_ms) {
    lastState.json = JSON.stringify(state);
    lastState.unixMs = state.unix_ms;
  }
  return lastState.json;
}
