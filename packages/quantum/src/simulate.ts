import type { Circuit, Gate } from "./circuit.js";
import { gateQubits } from "./circuit.js";
import { StateVector } from "./statevector.js";

/**
 * Applies one gate to a state vector, on qubits shifted up by `shift`, as its
 * complex conjugate when `conjugate` (the density matrix applies U to its
 * row qubits and conj(U) to its column qubits). Of the gates, only RX, RZ and
 * RZZ have imaginary entries, and their conjugate is the opposite angle.
 */
export function applyGate(state: StateVector, gate: Gate, shift = 0, conjugate = false): void {
  switch (gate.kind) {
    case "h":
      return state.h(gate.qubit + shift);
    case "x":
      return state.x(gate.qubit + shift);
    case "rx":
      return state.rx(gate.qubit + shift, conjugate ? -gate.angle : gate.angle);
    case "ry":
      return state.ry(gate.qubit + shift, gate.angle);
    case "rz":
      return state.rz(gate.qubit + shift, conjugate ? -gate.angle : gate.angle);
    case "rzz":
      return state.rzz(gate.qubits[0] + shift, gate.qubits[1] + shift, conjugate ? -gate.angle : gate.angle);
    case "cnot":
      return state.cnot(gate.control + shift, gate.target + shift);
  }
}

/** The final state of a noiseless run. */
export function runStateVector(circuit: Circuit): StateVector {
  const state = new StateVector(circuit.qubits);
  for (const gate of circuit.gates) applyGate(state, gate);
  return state;
}

/**
 * A density matrix rho of n qubits, stored as a state vector of 2n qubits:
 * entry rho[r][c] at index r + c * 2^n, so U rho U^dagger is U on qubits
 * 0..n-1 and conj(U) on qubits n..2n-1, by the same gate loops.
 */
export class DensityMatrix {
  readonly qubits: number;
  readonly vector: StateVector;

  /** |0...0><0...0|. */
  constructor(qubits: number) {
    this.qubits = qubits;
    this.vector = new StateVector(2 * qubits);
  }

  applyGate(gate: Gate): void {
    applyGate(this.vector, gate);
    applyGate(this.vector, gate, this.qubits, true);
  }

  /**
   * The depolarizing channel on qubit k with strength lambda in [0, 1]:
   * rho -> (1 - lambda) rho + lambda (I/2 (x) Tr_k rho). In the 2x2 blocks of
   * qubit k: the diagonal entries move towards their mean, the off-diagonal
   * ones shrink by (1 - lambda).
   */
  depolarize(k: number, lambda: number): void {
    const { re, im } = this.vector;
    const rowBit = 1 << k;
    const columnBit = 1 << (k + this.qubits);
    const keep = 1 - lambda / 2;
    const move = lambda / 2;
    const shrink = 1 - lambda;
    // Visit each 2x2 block once, from its 00 entry: indices with both bits clear.
    for (let high = 0; high < re.length; high += columnBit << 1) {
      for (let middle = high; middle < high + columnBit; middle += rowBit << 1) {
        for (let i = middle; i < middle + rowBit; i++) {
          const i11 = i | rowBit | columnBit;
          const r00 = re[i]!;
          const m00 = im[i]!;
          re[i] = keep * r00 + move * re[i11]!;
          im[i] = keep * m00 + move * im[i11]!;
          re[i11] = keep * re[i11]! + move * r00;
          im[i11] = keep * im[i11]! + move * m00;
          re[i | rowBit]! *= shrink;
          im[i | rowBit]! *= shrink;
          re[i | columnBit]! *= shrink;
          im[i | columnBit]! *= shrink;
        }
      }
    }
  }

  /** The diagonal: the probability of each basis state. */
  probabilities(): Float64Array {
    const size = 2 ** this.qubits;
    const result = new Float64Array(size);
    for (let x = 0; x < size; x++) result[x] = this.vector.re[x * (size + 1)]!;
    return result;
  }

  /** Tr(rho^2) = sum |rho_rc|^2 for a Hermitian rho: 1 for a pure state, 2^-n for the fully mixed one. */
  purity(): number {
    const { re, im } = this.vector;
    let sum = 0;
    for (let i = 0; i < re.length; i++) sum += re[i]! * re[i]! + im[i]! * im[i]!;
    return sum;
  }
}

/** The final density matrix of a run where every gate is followed by depolarizing noise of strength `noise` on each qubit it touched. */
export function runDensityMatrix(circuit: Circuit, noise: number): DensityMatrix {
  const rho = new DensityMatrix(circuit.qubits);
  for (const gate of circuit.gates) {
    rho.applyGate(gate);
    if (noise > 0) for (const qubit of gateQubits(gate)) rho.depolarize(qubit, noise);
  }
  return rho;
}
