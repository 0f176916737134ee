import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bruteForce, isingEnergy, MAX_BRUTE_FORCE_SIZE, quboCost, quboToIsing, type Qubo } from "../src/index.js";
import { costDiagonal } from "../src/qubo.js";
import { allBits, arbitraryQubo, expectQuantumError, maxCutQubo } from "./helpers.js";

describe("QUBO", () => {
  it("evaluates a cost term by term", () => {
    const qubo: Qubo = {
      size: 3,
      linear: [1, -2, 0.5],
      quadratic: [
        { i: 0, j: 2, weight: 4 },
        { i: 1, j: 1, weight: 3 },
      ],
      offset: 10,
    };
    expect(quboCost(qubo, [0, 0, 0])).toBe(10);
    expect(quboCost(qubo, [1, 0, 1])).toBe(10 + 1 + 0.5 + 4);
    // x_1^2 = x_1: the diagonal term adds to the linear one
    expect(quboCost(qubo, [0, 1, 0])).toBe(10 - 2 + 3);
  });

  it("finds the exact optimum, equal to a plain enumeration, lowest index on ties", () => {
    fc.assert(
      fc.property(arbitraryQubo(8), (qubo) => {
        const costs = allBits(qubo.size).map((bits) => quboCost(qubo, bits));
        const minimum = Math.min(...costs);
        const result = bruteForce(qubo);
        expect(result.cost).toBe(minimum);
        expect(result.bits).toEqual(allBits(qubo.size)[costs.indexOf(minimum)]);
      }),
      { seed: 19, numRuns: 200 },
    );
  });

  it("walks every assignment in Gray-code order with the same cost as a direct evaluation", () => {
    fc.assert(
      fc.property(arbitraryQubo(7), (qubo) => {
        const diagonal = costDiagonal(qubo);
        allBits(qubo.size).forEach((bits, index) => expect(diagonal[index]).toBeCloseTo(quboCost(qubo, bits), 9));
      }),
      { seed: 7, numRuns: 100 },
    );
  });

  it("maps to an Ising Hamiltonian whose energies equal the costs for every assignment", () => {
    fc.assert(
      fc.property(arbitraryQubo(7), (qubo) => {
        const ising = quboToIsing(qubo);
        expect(ising.couplings.every(({ i, j }) => i < j)).toBe(true);
        for (const bits of allBits(qubo.size)) {
          expect(
            isingEnergy(
              ising,
              bits.map((bit) => 1 - 2 * bit),
            ),
          ).toBeCloseTo(quboCost(qubo, bits), 9);
        }
      }),
      { seed: 3, numRuns: 150 },
    );
  });

  it("merges repeated pairs in either order into one coupling", () => {
    const ising = quboToIsing({
      size: 2,
      linear: [0, 0],
      quadratic: [
        { i: 0, j: 1, weight: 1 },
        { i: 1, j: 0, weight: 3 },
      ],
      offset: 0,
    });
    expect(ising.couplings).toEqual([{ i: 0, j: 1, coupling: 1 }]);
  });

  it("solves MaxCut of a 4-cycle: cut 4 by alternating sides", () => {
    expect(
      bruteForce(
        maxCutQubo(4, [
          [0, 1],
          [1, 2],
          [2, 3],
          [3, 0],
        ]),
      ),
    ).toEqual({ bits: [1, 0, 1, 0], cost: -4 });
  });

  it("rejects malformed QUBOs with the field to fix", async () => {
    await expectQuantumError(() => bruteForce({ size: 0, linear: [], quadratic: [], offset: 0 }), "INVALID_QUBO", /size must be a positive integer/);
    await expectQuantumError(() => bruteForce({ size: 2, linear: [1], quadratic: [], offset: 0 }), "INVALID_QUBO", /linear must have size \(2\) entries, got 1/);
    await expectQuantumError(() => quboToIsing({ size: 2, linear: [1, NaN], quadratic: [], offset: 0 }), "INVALID_QUBO", /linear\[1\] must be a finite number/);
    await expectQuantumError(
      () => quboToIsing({ size: 2, linear: [1, 1], quadratic: [{ i: 0, j: 2, weight: 1 }], offset: 0 }),
      "INVALID_QUBO",
      /quadratic\[0\]\.j must be an integer in 0\.\.1, got 2/,
    );
    await expectQuantumError(() => quboCost({ size: 2, linear: [1, 1], quadratic: [], offset: 0 }, [1, 2]), "INVALID_OPTION", /each 0 or 1/);
  });

  it("refuses to enumerate above its documented size", async () => {
    const size = MAX_BRUTE_FORCE_SIZE + 1;
    await expectQuantumError(() => bruteForce({ size, linear: Array<number>(size).fill(1), quadratic: [], offset: 0 }), "TOO_LARGE", /at most 24 variables/);
  });
});
