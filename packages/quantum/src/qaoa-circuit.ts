import type { Circuit, Gate } from "./circuit.js";
import type { Ising } from "./qubo.js";
import { StateVector } from "./statevector.js";

/**
 * The QAOA state |gamma, beta> = prod_l e^{-i beta_l B} e^{-i gamma_l H} |+>^n
 * with H the cost (minimised) and B = sum_i X_i, as gates: H on every qubit,
 * then per layer RZ(2 gamma h_i) and RZZ(2 gamma J_ij) (e^{-i gamma H} up to
 * the global phase of the offset) and RX(2 beta) on every qubit.
 */
export function qaoaCircuit(ising: Ising, gammas: readonly number[], betas: readonly number[]): Circuit {
  const gates: Gate[] = [];
  for (let q = 0; q < ising.size; q++) gates.push({ kind: "h", qubit: q });
  gammas.forEach((gamma, layer) => {
    ising.fields.forEach((field, q) => {
      if (field !== 0) gates.push({ kind: "rz", qubit: q, angle: 2 * gamma * field });
    });
    for (const { i, j, coupling } of ising.couplings) if (coupling !== 0) gates.push({ kind: "rzz", qubits: [i, j], angle: 2 * gamma * coupling });
    for (let q = 0; q < ising.size; q++) gates.push({ kind: "rx", qubit: q, angle: 2 * betas[layer]! });
  });
  return { qubits: ising.size, gates };
}

/**
 * The same state on the exact simulator, faster: the cost layer is one pass
 * multiplying amplitude x by e^{-i gamma cost(x)} from the precomputed
 * diagonal, instead of one pass per QUBO term, and the mixer is cache-blocked.
 * Written into `reuse` when given (a state of the same width).
 */
export function qaoaState(diagonal: Float64Array, qubits: number, gammas: readonly number[], betas: readonly number[], reuse?: StateVector): StateVector {
  // An optimiser evaluates hundreds of states: reusing one buffer spares 16 * 2^n bytes of garbage each time.
  const state = reuse ?? new StateVector(qubits);
  state.re.fill(1 / Math.sqrt(state.re.length));
  state.im.fill(0);
  gammas.forEach((gamma, layer) => {
    state.applyDiagonalPhase(diagonal, gamma);
    state.rxAll(2 * betas[layer]!);
  });
  return state;
}
