import { describeValue } from "../core/errors.js";
import { MissionAbortedError } from "./errors.js";
import { settle, TIMED_OUT } from "./settle.js";
import type { DenyReason, Measure, MeasureFailure, MeasureName } from "./types.js";

interface MeasureKind {
  readonly name: MeasureName;
  /** The prefix of its deny reasons. */
  readonly reasons: "CARBON" | "HS_BLOCH";
  readonly min: number;
  readonly max: number;
  readonly unit: string;
}

export const CARBON: MeasureKind = { name: "carbon", reasons: "CARBON", min: 0, max: Number.POSITIVE_INFINITY, unit: "gCO2eq/kWh, 0 or more" };
export const HS_BLOCH: MeasureKind = { name: "hsBloch", reasons: "HS_BLOCH", min: 0, max: 1, unit: "a score from 0 to 1" };

/** A measure's value (`undefined`: unknown), or why there is none. */
export type Reading = { readonly value: number | undefined } | { readonly failure: MeasureFailure };

export interface ReadOptions {
  readonly timeoutMs: number;
  readonly signal: AbortSignal | undefined;
  readonly onAbort: () => unknown;
}

/**
 * Reads a measure without ever letting its provider decide the verdict by
 * failing: a provider that throws, gives an impossible value (a negative
 * intensity, or an HS-Bloch score of 92, a percentage by mistake, would
 * otherwise let a mission through) or does not settle in time yields a
 * failure, which denies. Only an abort rejects.
 */
export async function readMeasure(measure: Measure, kind: MeasureKind, options: ReadOptions): Promise<Reading> {
  let value: unknown;
  try {
    value = await settle(provide(measure), options);
  } catch (error) {
    if (error instanceof MissionAbortedError) throw error;
    const message = error instanceof Error ? error.message : describeValue(error);
    return failed(kind, "UNAVAILABLE", `the ${kind.name} provider failed: ${message}`, { error: message });
  }
  if (value === TIMED_OUT) return failed(kind, "TIMEOUT", `the ${kind.name} provider did not answer within ${options.timeoutMs} ms`);
  if (value === undefined || value === null) return { value: undefined };
  if (typeof value !== "number" || !Number.isFinite(value) || value < kind.min || value > kind.max) {
    const shown = describeValue(value);
    return failed(kind, "INVALID", `the ${kind.name} provider gave ${shown}; ${kind.name} must be ${kind.unit} (or undefined when unknown)`, { value: shown });
  }
  return { value };
}

/** The provider's answer as a promise, a synchronous throw included. */
function provide(measure: Measure): Promise<unknown> {
  try {
    return Promise.resolve(typeof measure === "function" ? measure() : measure);
  } catch (error) {
    return Promise.reject(error);
  }
}

function failed(kind: MeasureKind, what: "UNAVAILABLE" | "INVALID" | "TIMEOUT", message: string, extra: { error?: string; value?: string } = {}): Reading {
  return { failure: { measure: kind.name, reason: `${kind.reasons}_${what}`, message, ...extra } };
}

export function valueOf(reading: Reading | undefined): number | undefined {
  return reading === undefined || "failure" in reading ? undefined : reading.value;
}

/**
 * The check's reasons with each failed measure's reason in place of its
 * `*_UNKNOWN` (the generated check sees a failed measure as unknown), or
 * added at the end if a hand-written check did not deny for it.
 */
export function withFailures(reasons: readonly DenyReason[], failures: readonly MeasureFailure[]): DenyReason[] {
  const result = [...reasons];
  for (const failure of failures) {
    const unknown: DenyReason = failure.measure === "carbon" ? "CARBON_UNKNOWN" : "HS_BLOCH_UNKNOWN";
    const at = result.indexOf(unknown);
    if (at === -1) result.push(failure.reason);
    else result[at] = failure.reason;
  }
  return result;
}
