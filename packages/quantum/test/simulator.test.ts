import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Circuit, Gate } from "../src/index.js";
import { inverseGate } from "../src/circuit.js";
import { applyGate, DensityMatrix, runDensityMatrix, runStateVector } from "../src/simulate.js";
import { StateVector } from "../src/statevector.js";

type Complex = [number, number];

/** The 2x2 matrix of a single-qubit gate, read column by column from its action on |0> and |1>. */
function matrixOf(gate: Gate): Complex[][] {
  const columns = [0, 1].map((input) => {
    const state = new StateVector(1);
    if (input === 1) state.x(0);
    applyGate(state, gate);
    return [0, 1].map((row): Complex => [state.re[row]!, state.im[row]!]);
  });
  return [0, 1].map((row) => [0, 1].map((column) => columns[column]![row]!));
}

function expectMatrix(actual: Complex[][], expected: Complex[][]): void {
  actual.forEach((row, r) =>
    row.forEach(([re, im], c) => {
      expect(re).toBeCloseTo(expected[r]![c]![0], 12);
      expect(im).toBeCloseTo(expected[r]![c]![1], 12);
    }),
  );
}

const angle = fc.double({ min: -2 * Math.PI, max: 2 * Math.PI, noNaN: true });

function arbitraryCircuit(qubits: number, maxGates: number): fc.Arbitrary<Circuit> {
  const qubit = fc.nat(qubits - 1);
  const pair = fc.tuple(qubit, qubit).filter(([a, b]) => a !== b);
  const gate: fc.Arbitrary<Gate> = fc.oneof(
    fc.record({ kind: fc.constantFrom("h" as const, "x" as const), qubit }),
    fc.record({ kind: fc.constantFrom("rx" as const, "ry" as const, "rz" as const), qubit, angle }),
    fc.record({ kind: fc.constant("rzz" as const), qubits: pair, angle }),
    pair.map(([control, target]): Gate => ({ kind: "cnot", control, target })),
  );
  return fc.array(gate, { maxLength: maxGates }).map((gates) => ({ qubits, gates }));
}

function norm(state: StateVector): number {
  let sum = 0;
  for (let i = 0; i < state.re.length; i++) sum += state.re[i]! ** 2 + state.im[i]! ** 2;
  return sum;
}

describe("state-vector gates", () => {
  it("have the textbook matrices, with R_P(theta) = exp(-i theta P / 2)", () => {
    const s = Math.SQRT1_2;
    expectMatrix(matrixOf({ kind: "h", qubit: 0 }), [
      [
        [s, 0],
        [s, 0],
      ],
      [
        [s, 0],
        [-s, 0],
      ],
    ]);
    expectMatrix(matrixOf({ kind: "x", qubit: 0 }), [
      [
        [0, 0],
        [1, 0],
      ],
      [
        [1, 0],
        [0, 0],
      ],
    ]);
    const theta = 0.7;
    const c = Math.cos(theta / 2);
    const n = Math.sin(theta / 2);
    expectMatrix(matrixOf({ kind: "rx", qubit: 0, angle: theta }), [
      [
        [c, 0],
        [0, -n],
      ],
      [
        [0, -n],
        [c, 0],
      ],
    ]);
    expectMatrix(matrixOf({ kind: "ry", qubit: 0, angle: theta }), [
      [
        [c, 0],
        [-n, 0],
      ],
      [
        [n, 0],
        [c, 0],
      ],
    ]);
    expectMatrix(matrixOf({ kind: "rz", qubit: 0, angle: theta }), [
      [
        [c, -n],
        [0, 0],
      ],
      [
        [0, 0],
        [c, n],
      ],
    ]);
  });

  it("address qubit k as bit k of the amplitude index", () => {
    const state = runStateVector({
      qubits: 3,
      gates: [
        { kind: "x", qubit: 1 },
        { kind: "cnot", control: 1, target: 2 },
      ],
    });
    expect(state.re[0b110]).toBe(1);
    expect(norm(state)).toBe(1);
  });

  it("preserve the norm, and every circuit followed by its inverse gates in reverse is the identity", () => {
    fc.assert(
      fc.property(arbitraryCircuit(4, 30), (circuit) => {
        const state = runStateVector(circuit);
        expect(norm(state)).toBeCloseTo(1, 12);
        for (const gate of [...circuit.gates].reverse()) applyGate(state, inverseGate(gate));
        expect(state.re[0]).toBeCloseTo(1, 10);
        expect(state.im[0]).toBeCloseTo(0, 10);
      }),
      { seed: 11, numRuns: 100 },
    );
  });

  it("RZZ(theta) equals CNOT, RZ(theta) on the target, CNOT", () => {
    fc.assert(
      fc.property(arbitraryCircuit(3, 12), angle, (preparation, theta) => {
        const direct = runStateVector({ qubits: 3, gates: [...preparation.gates, { kind: "rzz", qubits: [0, 2], angle: theta }] });
        const composed = runStateVector({
          qubits: 3,
          gates: [...preparation.gates, { kind: "cnot", control: 0, target: 2 }, { kind: "rz", qubit: 2, angle: theta }, { kind: "cnot", control: 0, target: 2 }],
        });
        direct.re.forEach((value, i) => {
          expect(value).toBeCloseTo(composed.re[i]!, 12);
          expect(direct.im[i]).toBeCloseTo(composed.im[i]!, 12);
        });
      }),
      { seed: 5, numRuns: 100 },
    );
  });
});

describe("the QAOA fast path's state-vector kernels", () => {
  it("RX on every qubit, cache-blocked and in pairs beyond the block, equals RX qubit by qubit", () => {
    // 12 qubits fit one block; 14 adds one pair above it, 15 a pair and a single qubit.
    for (const qubits of [3, 14, 15]) {
      const blocked = new StateVector(qubits);
      const plain = new StateVector(qubits);
      for (const state of [blocked, plain]) for (let q = 0; q < qubits; q++) state.ry(q, 0.3 + 0.1 * q);
      for (const state of [blocked, plain]) state.rz(qubits - 1, 0.9);
      blocked.rxAll(0.77);
      for (let q = 0; q < qubits; q++) plain.rx(q, 0.77);
      blocked.re.forEach((value, i) => {
        expect(value).toBeCloseTo(plain.re[i]!, 14);
        expect(blocked.im[i]).toBeCloseTo(plain.im[i]!, 14);
      });
    }
  });

  it("the expectation of a diagonal observable equals the sum over the probabilities", () => {
    const state = runStateVector({
      qubits: 3,
      gates: [
        { kind: "h", qubit: 0 },
        { kind: "ry", qubit: 2, angle: 1 },
      ],
    });
    const diagonal = Float64Array.from([1, 2, 3, 4, 5, 6, 7, 8]);
    const probabilities = state.probabilities();
    expect(state.expectation(diagonal)).toBeCloseTo(
      probabilities.reduce((sum, p, x) => sum + p * diagonal[x]!, 0),
      14,
    );
  });
});

describe("density matrix with depolarizing noise", () => {
  it("without noise is |psi><psi| of the state vector", () => {
    fc.assert(
      fc.property(arbitraryCircuit(3, 20), (circuit) => {
        const psi = runStateVector(circuit);
        const rho = runDensityMatrix(circuit, 0);
        const size = 8;
        for (let r = 0; r < size; r++) {
          for (let c = 0; c < size; c++) {
            // rho_rc = psi_r conj(psi_c)
            expect(rho.vector.re[r + c * size]).toBeCloseTo(psi.re[r]! * psi.re[c]! + psi.im[r]! * psi.im[c]!, 12);
            expect(rho.vector.im[r + c * size]).toBeCloseTo(psi.im[r]! * psi.re[c]! - psi.re[r]! * psi.im[c]!, 12);
          }
        }
      }),
      { seed: 13, numRuns: 60 },
    );
  });

  it("preserves the trace, and purity falls as noise grows", () => {
    fc.assert(
      fc.property(
        arbitraryCircuit(3, 20).filter((circuit) => circuit.gates.length > 0),
        (circuit) => {
          const purities = [0, 0.01, 0.05, 0.2].map((noise) => {
            const rho = runDensityMatrix(circuit, noise);
            expect(rho.probabilities().reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
            return rho.purity();
          });
          expect(purities[0]).toBeCloseTo(1, 12);
          for (let k = 1; k < purities.length; k++) expect(purities[k]!).toBeLessThan(purities[k - 1]!);
        },
      ),
      { seed: 17, numRuns: 60 },
    );
  });

  it("at strength 1 leaves the qubit fully mixed", () => {
    const rho = new DensityMatrix(1);
    rho.applyGate({ kind: "h", qubit: 0 });
    rho.depolarize(0, 1);
    rho.probabilities().forEach((p) => expect(p).toBeCloseTo(0.5, 15));
    // the coherence of |+> is gone
    expect(rho.vector.re[1]).toBe(0);
    expect(rho.purity()).toBeCloseTo(0.5, 15);
  });
});
