import type { Random } from "./rng.js";

/** Measurements per estimate when none are asked for. */
export const DEFAULT_SHOTS = 1024;

/**
 * `shots` seeded draws from a distribution over basis states: index -> count.
 * Inverse-CDF sampling with a binary search per shot, O(2^n + shots * n).
 * The distribution need not sum to exactly 1 (rounding): draws scale to its total.
 */
export function sampleCounts(probabilities: Float64Array, shots: number, random: Random): Map<number, number> {
  const cumulative = new Float64Array(probabilities.length);
  let total = 0;
  for (let i = 0; i < probabilities.length; i++) {
    // Clamp tiny negative rounding (density-matrix diagonals) so the CDF never decreases.
    total += Math.max(0, probabilities[i]!);
    cumulative[i] = total;
  }
  const counts = new Map<number, number>();
  for (let shot = 0; shot < shots; shot++) {
    const target = random() * total;
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (cumulative[middle]! > target) high = middle;
      else low = middle + 1;
    }
    counts.set(low, (counts.get(low) ?? 0) + 1);
  }
  return counts;
}
