/**
 * The replies of the service's phase endpoints (`core/state`, `allow`,
 * `ai/tpe-vector`), computed here so that the service and any other caller
 * produce the same JSON for the same instant.
 */

import { TemporalTypeError, describeValue } from "./errors.js";
import { contextAt, contextUnixMs, localTicks } from "./phase.js";
import type { AllowResult, CoreState, TpeVectorResult } from "./service-types.js";
import { TPE_CYCLES, tpeVector, type TpeOptions } from "./tpe.js";
import type { PhaseContext, Window } from "./types.js";
import { TICKS_PER_DEGREE } from "./units.js";
import { allow, nextOpen } from "./window.js";

/** `GET core/state`: the instant and its UTC phase, nothing zone-specific. */
export function coreState(ctx: PhaseContext): CoreState {
  return coreStateOf(checkedContext(ctx));
}

/** `coreState` of a context `contextAt` made (the service's own), which needs no check. */
export function coreStateOf(checked: PhaseContext): CoreState {
  return {
    kernel_version: checked.kernel_version,
    unix_ms: checked.unix_ms,
    day_index: checked.day_index,
    phi_ticks: checked.phi_ticks,
    phase_deg: checked.utc_phase_deg,
  };
}

/** `POST allow`: the verdict of `allow`, the zone-local phase it judged and when the window is next open. */
export function allowResult(ctx: PhaseContext, window: Window): AllowResult {
  return allowResultOf(checkedContext(ctx), window);
}

/** `allowResult` for a context `contextAt` made (the service's own), which needs no check. */
export function allowResultOf(checked: PhaseContext, window: Window): AllowResult {
  const allowed = allow(checked, window);
  return {
    allow: allowed,
    verdict: allowed ? "ALLOW" : "DENY",
    phase_deg: localTicks(checked) / TICKS_PER_DEGREE,
    next_open_unix_ms: nextOpen(checked, window),
    ctx: checked,
  };
}

/** `GET ai/tpe-vector`: `tpeVector` with its layout spelled out, so a consumer need not know the SDK's order. */
export function tpeVectorResult(ctx: PhaseContext, options: TpeOptions = {}): TpeVectorResult {
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw new TemporalTypeError("INVALID_HARMONICS", `options must be an object such as { harmonics: 8 }, got ${describeValue(options)}`);
  }
  const checked = checkedContext(ctx);
  const harmonics = options.harmonics ?? 8;
  const vector = tpeVector(checked, { harmonics });
  return {
    vector,
    harmonics,
    layout: {
      cycles: [TPE_CYCLES[0], TPE_CYCLES[1], TPE_CYCLES[2]],
      // a sine and a cosine per harmonic
      per_cycle: 2 * harmonics,
      order: "sin_cos_by_harmonic",
    },
    ctx: checked,
  };
}

/**
 * The context recomputed from its instant, zone and source. Replies then
 * carry exactly the fields of a `PhaseContext`, consistent with each other,
 * whatever else the object passed in held.
 */
export function checkedContext(ctx: PhaseContext): PhaseContext {
  const unixMs = contextUnixMs(ctx); // also checks ctx is an object with a valid phi_ticks and swt_zone
  const source = ctx.source;
  if (source !== "local" && source !== "remote") {
    throw new TemporalTypeError("INVALID_CONTEXT", `ctx.source must be "local" or "remote", got ${describeValue(source)}`);
  }
  return contextAt(unixMs, { zone: ctx.swt_zone, source });
}
