/**
 * The HS-Bloch quality gate (`GET quantum/decision`): a quality score,
 * produced elsewhere, compared with a threshold. The gate only decides; it
 * does not compute the score.
 */

import { TemporalRangeError, TemporalTypeError, describeValue } from "./errors.js";
import type { QualityDecision } from "./service-types.js";
import { MAX_ABS_UNIX_MS } from "./units.js";

export interface QualityInput {
  /** The current quality score, a finite number in [0, 1]. */
  readonly score: number;
  /** The least score that passes, a finite number in [0, 1]. */
  readonly threshold: number;
  /** When the score was last updated, Unix milliseconds (fractions are floored, as file times carry them). */
  readonly updated_unix_ms: number;
  readonly source: QualityDecision["source"];
}

/**
 * ALLOW when `score >= threshold`, else DENY. The threshold itself passes,
 * so a threshold of 0 allows every score and a threshold of 1 only a
 * perfect one.
 */
export function qualityDecision(input: QualityInput): QualityDecision {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw new TemporalTypeError("INVALID_QUALITY_INPUT", `quality input must be an object { score, threshold, updated_unix_ms, source }, got ${describeValue(input)}`);
  }
  const score = unitInterval(input.score, "score");
  const threshold = unitInterval(input.threshold, "threshold");
  const updated = input.updated_unix_ms;
  if (typeof updated !== "number" || !(updated >= 0 && updated <= MAX_ABS_UNIX_MS)) {
    throw new TemporalRangeError("INVALID_QUALITY_INPUT", `updated_unix_ms must be Unix milliseconds in [0, ${MAX_ABS_UNIX_MS}], got ${describeValue(updated)}`);
  }
  const source = input.source;
  if (source !== "static" && source !== "file" && source !== "simulator") {
    throw new TemporalRangeError("INVALID_QUALITY_INPUT", `source must be "static", "file" or "simulator", got ${describeValue(source)}`);
  }
  return {
    score,
    threshold,
    verdict: score >= threshold ? "ALLOW" : "DENY",
    updated_unix_ms: Math.floor(updated),
    source,
  };
}

function unitInterval(value: unknown, field: string): number {
  if (typeof value !== "number" || !(value >= 0 && value <= 1)) {
    throw new TemporalRangeError("INVALID_QUALITY_INPUT", `${field} must be a finite number in [0, 1], got ${describeValue(value)}`);
  }
  return value + 0; // + 0 turns -0 into 0
}
