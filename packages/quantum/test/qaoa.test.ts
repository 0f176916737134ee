import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Backend } from "../src/index.js";
import { backendById, bruteForce, qaoaCircuit, quboToIsing, runQaoa } from "../src/index.js";
import { qaoaState } from "../src/qaoa-circuit.js";
import { costDiagonal } from "../src/qubo.js";
import { runStateVector } from "../src/simulate.js";
import { arbitraryGraph, arbitraryQubo, expectQuantumError, maxCutQubo } from "./helpers.js";

type Edge = readonly [number, number];
const TRIANGLE: Edge[] = [
  [0, 1],
  [1, 2],
  [0, 2],
];
const RING4: Edge[] = [
  [0, 1],
  [1, 2],
  [2, 3],
  [3, 0],
];

/**
 * <C> of p = 1 QAOA for MaxCut in Farhi's convention (maximise C = cut,
 * state e^{-i beta B} e^{-i gamma C} |+>), by the closed form of Wang,
 * Hadfield, Jiang and Rieffel, PRA 97, 022304 (2018), Theorem 1: per edge uv,
 * 1/2 + 1/4 sin 4b sin g (cos^d g + cos^e g) - 1/4 sin^2 2b cos^(d+e-2f) g (1 - cos^f 2g),
 * with d + 1, e + 1 the degrees of u, v and f the triangles on the edge.
 */
function wangExpectation(size: number, edges: readonly Edge[], gamma: number, beta: number): number {
  const neighbours = Array.from({ length: size }, () => new Set<number>());
  for (const [u, v] of edges) {
    neighbours[u]!.add(v);
    neighbours[v]!.add(u);
  }
  return edges.reduce((sum, [u, v]) => {
    const d = neighbours[u]!.size - 1;
    const e = neighbours[v]!.size - 1;
    const f = [...neighbours[u]!].filter((w) => neighbours[v]!.has(w)).length;
    const cos = Math.cos(gamma);
    return sum + 0.5 + 0.25 * Math.sin(4 * beta) * Math.sin(gamma) * (cos ** d + cos ** e) - 0.25 * Math.sin(2 * beta) ** 2 * cos ** (d + e - 2 * f) * (1 - Math.cos(2 * gamma) ** f);
  }, 0);
}

/** The simulator's <cut> in Farhi's convention: the exact path on the cut diagonal. */
function simulatedCut(size: number, edges: readonly Edge[], gamma: number, beta: number): number {
  const cut = costDiagonal(maxCutQubo(size, edges)).map((cost) => -cost);
  return qaoaState(cut, size, [gamma], [beta])
    .probabilities()
    .reduce((sum, p, x) => sum + p * cut[x]!, 0);
}

/**
 * The same through the gate-level circuit of the minimisation QUBO H = -cut:
 * e^{-i gamma' H} with gamma' = -gamma is Farhi's e^{-i gamma C}.
 */
function circuitCut(size: number, edges: readonly Edge[], gamma: number, beta: number): number {
  const qubo = maxCutQubo(size, edges);
  const cut = costDiagonal(qubo).map((cost) => -cost);
  return runStateVector(qaoaCircuit(quboToIsing(qubo), [-gamma], [beta]))
    .probabilities()
    .reduce((sum, p, x) => sum + p * cut[x]!, 0);
}

describe("QAOA, p = 1 MaxCut", () => {
  it("gives 1.875 on a triangle at (gamma, beta) = (pi/4, pi/8)", () => {
    expect(Math.abs(simulatedCut(3, TRIANGLE, Math.PI / 4, Math.PI / 8) - 1.875)).toBeLessThan(1e-12);
    expect(Math.abs(circuitCut(3, TRIANGLE, Math.PI / 4, Math.PI / 8) - 1.875)).toBeLessThan(1e-12);
  });

  it("reaches the triangle's maximum cut 2 at gamma = arcsin(1/sqrt 3), beta = gamma / 2", () => {
    const gamma = Math.asin(1 / Math.sqrt(3));
    expect(Math.abs(simulatedCut(3, TRIANGLE, gamma, gamma / 2) - 2)).toBeLessThan(1e-12);
  });

  it("agrees with the closed form of Wang et al. on random graphs to 1e-9, by both simulation paths", () => {
    const angle = fc.double({ min: -Math.PI, max: Math.PI, noNaN: true });
    fc.assert(
      fc.property(arbitraryGraph(2, 8), angle, angle, ({ size, edges }, gamma, beta) => {
        const expected = wangExpectation(size, edges, gamma, beta);
        expect(Math.abs(simulatedCut(size, edges, gamma, beta) - expected)).toBeLessThan(1e-9);
        expect(Math.abs(circuitCut(size, edges, gamma, beta) - expected)).toBeLessThan(1e-9);
      }),
      { seed: 19, numRuns: 120 },
    );
  });

  it("optimises the triangle to energy -2 (every sample a maximum cut) and the 4-cycle to -3, the p = 1 bound of 3/4 per edge", async () => {
    const triangle = await runQaoa(maxCutQubo(3, TRIANGLE));
    expect(Math.abs(triangle.energy + 2)).toBeLessThan(1e-6);
    expect(triangle.best.cost).toBe(-2);
    expect(triangle.approximationRatio).toBeCloseTo(1, 6);

    const ring = await runQaoa(maxCutQubo(4, RING4));
    expect(Math.abs(ring.energy + 3)).toBeLessThan(1e-6);
    expect(ring.exact).toEqual({ bits: [1, 0, 1, 0], cost: -4 });
    expect(ring.best.cost).toBe(-4);
    // 3 out of a range from 0 (no edge cut) to 4
    expect(ring.approximationRatio).toBeCloseTo(0.75, 6);
    // The closed form confirms 3 is the p = 1 optimum: 1/2 + 1/4 sin 4b sin 2g per edge of a 2-regular triangle-free graph.
    expect(wangExpectation(4, RING4, Math.PI / 4, Math.PI / 8)).toBeCloseTo(3, 12);
  });

  it("gets closer to the 4-cycle's maximum cut with depth 2", async () => {
    const ring = await runQaoa(maxCutQubo(4, RING4), { depth: 2 });
    expect(ring.params.gammas).toHaveLength(2);
    expect(ring.energy).toBeLessThan(-3.5);
  });
});

describe("runQaoa", () => {
  it("never reports a best below the brute-force optimum, reports that optimum, and finds it on small instances", async () => {
    const instances = fc.sample(arbitraryQubo(6), { seed: 23, numRuns: 30 });
    let found = 0;
    for (const qubo of instances) {
      const result = await runQaoa(qubo, { seed: 1, maxEvaluations: 60 });
      const optimum = bruteForce(qubo);
      expect(result.exact).toEqual(optimum);
      expect(result.best.cost).toBeGreaterThanOrEqual(optimum.cost);
      expect(result.energy).toBeGreaterThanOrEqual(optimum.cost - 1e-9);
      expect(result.approximationRatio).toBeGreaterThanOrEqual(0);
      expect(result.approximationRatio).toBeLessThanOrEqual(1 + 1e-12);
      if (result.best.cost === optimum.cost) found++;
    }
    expect(found).toBe(instances.length);
  });

  it("simulates the same state by the fast diagonal path and by gates", () => {
    const angle = fc.double({ min: -2, max: 2, noNaN: true });
    fc.assert(
      fc.property(arbitraryQubo(5), fc.array(fc.tuple(angle, angle), { minLength: 1, maxLength: 3 }), (qubo, layers) => {
        const gammas = layers.map(([gamma]) => gamma);
        const betas = layers.map(([, beta]) => beta);
        const fast = qaoaState(costDiagonal(qubo), qubo.size, gammas, betas).probabilities();
        const gates = runStateVector(qaoaCircuit(quboToIsing(qubo), gammas, betas)).probabilities();
        fast.forEach((p, x) => expect(p).toBeCloseTo(gates[x]!, 12));
      }),
      { seed: 29, numRuns: 80 },
    );
  });

  it("is deterministic: same inputs and seed, identical results", async () => {
    const qubo = maxCutQubo(4, [...RING4, [0, 2]]);
    for (const options of [{ seed: 5 }, { seed: 5, backend: "statevector-noisy", zne: true, shots: 200 }]) {
      expect(await runQaoa(qubo, options)).toEqual(await runQaoa(qubo, options));
    }
  });

  it("runs on a remote-style backend that only samples, with energies estimated from shots", async () => {
    const simulator = backendById("statevector");
    const remote: Backend = { id: "remote-device", maxQubits: 8, sample: (circuit, shots, seed) => simulator.sample(circuit, shots, seed) };
    const result = await runQaoa(maxCutQubo(3, TRIANGLE), { backend: remote, shots: 4000, maxEvaluations: 40 });
    expect(result.backend).toBe("remote-device");
    expect(result.best.cost).toBe(-2);
    // within shot noise of the true expectation, which is at most -1.5 (a random cut)
    expect(result.energy).toBeLessThan(-1.7);
    expect(result.energy).toBeGreaterThanOrEqual(-2);
  });

  it("rejects bad options with what to fix", async () => {
    const qubo = maxCutQubo(3, TRIANGLE);
    await expectQuantumError(() => runQaoa(qubo, { depth: 0 }), "INVALID_OPTION", /depth must be an integer in 1\.\.64, got 0/);
    await expectQuantumError(() => runQaoa(qubo, { shots: 1.5 }), "INVALID_OPTION", /shots must be a positive integer/);
    await expectQuantumError(() => runQaoa(qubo, { maxEvaluations: 3 }), "INVALID_OPTION", /maxEvaluations must be an integer of at least 10 per layer \(10 at depth 1\), got 3/);
    await expectQuantumError(() => runQaoa(qubo, { depth: 3, maxEvaluations: 29 }), "INVALID_OPTION", /at least 10 per layer \(30 at depth 3\), got 29/);
    await expectQuantumError(() => runQaoa(qubo, { backend: "ibm-eagle" }), "UNKNOWN_BACKEND", /Unknown quantum backend "ibm-eagle"; known backends: statevector, statevector-noisy/);
    await expectQuantumError(() => runQaoa(qubo, { backend: "statevector-noisy", noise: 2 }), "INVALID_OPTION", /noise is a depolarizing strength in \[0, 1\], got 2/);
    await expectQuantumError(() => runQaoa(qubo, { noise: 0.05 }), "INVALID_OPTION", /backend "statevector" does not take it/);
    await expectQuantumError(() => runQaoa(qubo, { zne: { extrapolation: "cubic" as "linear" } }), "INVALID_OPTION", /zne\.extrapolation must be "richardson" or "linear"/);
    const remote: Backend = { id: "big-device", maxQubits: 100, sample: async () => new Map() };
    await expectQuantumError(() => runQaoa(maxCutQubo(54, [[0, 53]]), { backend: remote }), "TOO_LARGE", /"big-device" runs at most 53 qubits; this QUBO has 54/);
    const wide = maxCutQubo(11, [[0, 10]]);
    await expectQuantumError(() => runQaoa(wide, { backend: "statevector-noisy" }), "TOO_LARGE", /runs at most 10 qubits; this QUBO has 11/);
  });
});
