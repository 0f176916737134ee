import { describe, expect, it } from "vitest";
import { seededRandom } from "../src/rng.js";
import { sampleCounts } from "../src/sampling.js";

describe("seeded randomness", () => {
  it("gives uniform floats in [0, 1), the same stream for the same seed and another for another seed", () => {
    const draws = Array.from({ length: 50_000 }, seededRandom(42));
    expect(draws.every((x) => x >= 0 && x < 1)).toBe(true);
    const mean = draws.reduce((a, b) => a + b, 0) / draws.length;
    // the mean of n uniforms has standard deviation 1 / sqrt(12 n), about 0.0013 here
    expect(Math.abs(mean - 0.5)).toBeLessThan(0.006);
    const deciles = Array<number>(10).fill(0);
    for (const x of draws) deciles[Math.floor(x * 10)]!++;
    for (const count of deciles) expect(Math.abs(count - 5000)).toBeLessThan(300);
    expect(Array.from({ length: 5 }, seededRandom(42))).toEqual(draws.slice(0, 5));
    expect(Array.from({ length: 5 }, seededRandom(43))).not.toEqual(draws.slice(0, 5));
    // seeds beyond 32 bits are mixed in, not truncated away
    expect(seededRandom(2 ** 32 + 1)()).not.toBe(seededRandom(1)());
  });
});

describe("shot sampling", () => {
  it("draws each outcome with its probability, and never one of probability 0", () => {
    const probabilities = Float64Array.from([0.5, 0, 0.125, 0.375]);
    const shots = 40_000;
    const counts = sampleCounts(probabilities, shots, seededRandom(1));
    expect(counts.has(1)).toBe(false);
    expect([...counts.values()].reduce((a, b) => a + b, 0)).toBe(shots);
    probabilities.forEach((p, x) => {
      // within 5 standard deviations of the binomial count
      expect(Math.abs((counts.get(x) ?? 0) - p * shots)).toBeLessThanOrEqual(5 * Math.sqrt(shots * p * (1 - p)));
    });
  });

  it("is reproducible from its seed", () => {
    const probabilities = Float64Array.from([0.25, 0.25, 0.25, 0.25]);
    expect(sampleCounts(probabilities, 100, seededRandom(9))).toEqual(sampleCounts(probabilities, 100, seededRandom(9)));
    expect(sampleCounts(probabilities, 100, seededRandom(9))).not.toEqual(sampleCounts(probabilities, 100, seededRandom(10)));
  });

  it("tolerates rounding: a distribution summing to 1 - 1e-15 with a tiny negative entry", () => {
    const counts = sampleCounts(Float64Array.from([-1e-17, 1 - 1e-15]), 1000, seededRandom(2));
    expect(counts.get(1)).toBe(1000);
  });
});
