import { describeValue, TemporalTypeError } from "../core/errors.js";
import { MAX_FINALITY_TIMEOUT_MS } from "../core/finality.js";
import type { EvaluateOptions, RunOptions } from "./types.js";

export const DEFAULT_MEASURE_TIMEOUT_MS = 10_000;
/** setTimeout's ceiling: a longer delay fires at once. */
const MAX_TIMEOUT_MS = 2_147_483_647;

function invalid(message: string): TemporalTypeError {
  return new TemporalTypeError("INVALID_MISSION_OPTIONS", message);
}

/** Checks the options `evaluate` and `run` share, before anything is read or run. */
export function assertEvaluateOptions(options: EvaluateOptions): void {
  if (options === null || typeof options !== "object") throw invalid(`options must be an object, got ${describeValue(options)}`);
  const { sdk, signal, measureTimeoutMs, localClock } = options;
  if (
    sdk !== undefined &&
    (sdk === null || typeof sdk !== "object" || !["issueReceipt", "anchor", "ready", "now"].every((method) => typeof (sdk as unknown as Record<string, unknown>)[method] === "function"))
  ) {
    throw invalid(`options.sdk must be an authority with ready(), now(), issueReceipt() and anchor(), got ${describeValue(sdk)}`);
  }
  if (signal !== undefined && !(signal instanceof AbortSignal)) throw invalid(`options.signal must be an AbortSignal, got ${describeValue(signal)}`);
  if (measureTimeoutMs !== undefined && !(typeof measureTimeoutMs === "number" && measureTimeoutMs > 0 && measureTimeoutMs <= MAX_TIMEOUT_MS)) {
    throw invalid(`options.measureTimeoutMs must be a number of milliseconds in (0, ${MAX_TIMEOUT_MS}], got ${describeValue(measureTimeoutMs)}`);
  }
  if (localClock !== undefined && typeof localClock !== "boolean") throw invalid(`options.localClock must be true or false, got ${describeValue(localClock)}`);
}

export function assertRunOptions(options: RunOptions): void {
  assertEvaluateOptions(options);
  const { tasks, finalityTimeoutMs } = options;
  if (finalityTimeoutMs !== undefined && !(Number.isSafeInteger(finalityTimeoutMs) && finalityTimeoutMs > 0 && finalityTimeoutMs <= MAX_FINALITY_TIMEOUT_MS)) {
    throw invalid(`options.finalityTimeoutMs must be a whole number of milliseconds in 1..${MAX_FINALITY_TIMEOUT_MS}, got ${describeValue(finalityTimeoutMs)}`);
  }
  if (tasks !== undefined && (tasks === null || typeof tasks !== "object")) {
    throw invalid(`options.tasks must be an object of task functions, got ${describeValue(tasks)}`);
  }
}
