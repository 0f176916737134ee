import { QuantumError } from "./errors.js";

export type Extrapolation = "richardson" | "linear";

/** The folding scale factors of zero-noise extrapolation. */
export const ZNE_SCALES: readonly number[] = [1, 3, 5];

/**
 * The value at noise scale 0 of the curve through (scales[i], values[i]).
 * Richardson: the polynomial through all points (Lagrange form at 0); with
 * scales 1, 3, 5 that is 15/8 E1 - 5/4 E3 + 3/8 E5. Linear: the
 * least-squares line's intercept, less variance but more bias.
 */
export function extrapolateToZero(scales: readonly number[], values: readonly number[], extrapolation: Extrapolation): number {
  if (scales.length !== values.length || scales.length < 2) throw new QuantumError("INVALID_OPTION", "extrapolation needs at least two (scale, value) points");
  if (extrapolation === "richardson") {
    let result = 0;
    scales.forEach((scale, i) => {
      let weight = 1;
      scales.forEach((other, j) => {
        if (j !== i) weight *= other / (other - scale);
      });
      result += weight * values[i]!;
    });
    return result;
  }
  const n = scales.length;
  const meanScale = scales.reduce((a, b) => a + b, 0) / n;
  const meanValue = values.reduce((a, b) => a + b, 0) / n;
  let covariance = 0;
  let variance = 0;
  scales.forEach((scale, i) => {
    covariance += (scale - meanScale) * (values[i]! - meanValue);
    variance += (scale - meanScale) ** 2;
  });
  return meanValue - (covariance / variance) * meanScale;
}
