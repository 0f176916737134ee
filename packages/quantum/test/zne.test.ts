import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { backendById, extrapolateToZero, foldCircuit, qaoaCircuit, quboToIsing, runQaoa, ZNE_SCALES } from "../src/index.js";
import { costDiagonal } from "../src/qubo.js";
import { runStateVector } from "../src/simulate.js";
import { arbitraryQubo, expectQuantumError } from "./helpers.js";

describe("zero-noise extrapolation", () => {
  it("Richardson recovers a quadratic's value at 0 from scales 1, 3, 5; linear recovers a line's", () => {
    const quadratic = (s: number): number => 2 - 0.3 * s + 0.01 * s * s;
    expect(extrapolateToZero(ZNE_SCALES, ZNE_SCALES.map(quadratic), "richardson")).toBeCloseTo(2, 12);
    // the weights of E1, E3, E5
    expect(extrapolateToZero(ZNE_SCALES, [1, 0, 0], "richardson")).toBeCloseTo(15 / 8, 12);
    expect(extrapolateToZero(ZNE_SCALES, [0, 1, 0], "richardson")).toBeCloseTo(-5 / 4, 12);
    expect(extrapolateToZero(ZNE_SCALES, [0, 0, 1], "richardson")).toBeCloseTo(3 / 8, 12);
    expect(
      extrapolateToZero(
        ZNE_SCALES,
        ZNE_SCALES.map((s) => 1 - 0.1 * s),
        "linear",
      ),
    ).toBeCloseTo(1, 12);
  });

  it("folds every gate G into G (G^dagger G)^k: the same unitary with scale times the gates", () => {
    const qubo = { size: 3, linear: [1, -1, 0.5], quadratic: [{ i: 0, j: 2, weight: 2 }], offset: 0 };
    const circuit = qaoaCircuit(quboToIsing(qubo), [0.4], [0.3]);
    const reference = runStateVector(circuit).probabilities();
    for (const scale of ZNE_SCALES) {
      const folded = foldCircuit(circuit, scale);
      expect(folded.gates).toHaveLength(circuit.gates.length * scale);
      runStateVector(folded)
        .probabilities()
        .forEach((p, x) => expect(p).toBeCloseTo(reference[x]!, 12));
    }
  });

  it("rejects a scale that is not an odd positive integer", async () => {
    await expectQuantumError(() => foldCircuit({ qubits: 1, gates: [] }, 2), "INVALID_OPTION", /odd positive integer, got 2/);
  });

  it("lands closer to the noiseless energy than the raw estimate in at least 90% of seeded trials", async () => {
    const trials = fc.sample(fc.tuple(arbitraryQubo(4), fc.double({ min: 0.002, max: 0.03, noNaN: true })), { seed: 31, numRuns: 50 });
    const exact = backendById("statevector");
    let closer = 0;
    let counted = 0;
    for (const [qubo, noise] of trials) {
      const result = await runQaoa(qubo, { backend: "statevector-noisy", noise, zne: true, maxEvaluations: 30, seed: 7 });
      const diagonal = costDiagonal(qubo);
      const ideal = (await exact.probabilities!(qaoaCircuit(quboToIsing(qubo), result.params.gammas, result.params.betas))).reduce((sum, p, x) => sum + p * diagonal[x]!, 0);
      const { raw, mitigated } = result.zne!;
      expect(result.energy).toBe(raw);
      // A raw value already at the ideal one (a constant cost, say) leaves nothing to mitigate.
      if (Math.abs(raw - ideal) < 1e-9) continue;
      counted++;
      if (Math.abs(mitigated - ideal) < Math.abs(raw - ideal)) closer++;
    }
    expect(counted).toBeGreaterThanOrEqual(40);
    expect(closer / counted).toBeGreaterThanOrEqual(0.9);
  });

  it("reports the linear extrapolation when asked", async () => {
    const qubo = { size: 2, linear: [1, -1], quadratic: [{ i: 0, j: 1, weight: 1.5 }], offset: 0 };
    const result = await runQaoa(qubo, { backend: "statevector-noisy", noise: 0.02, zne: { extrapolation: "linear" }, maxEvaluations: 20 });
    expect(result.zne?.extrapolation).toBe("linear");
    expect(result.zne?.scales).toEqual([1, 3, 5]);
    expect(result.zne?.mitigated).toBeCloseTo(extrapolateToZero(ZNE_SCALES, result.zne!.values, "linear"), 15);
  });
});
