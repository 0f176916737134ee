import type { Circuit } from "./circuit.js";
import { QuantumError } from "./errors.js";

/**
 * Where circuits run. The two built-in simulators implement both methods; a
 * remote device implements `sample` only (and its id goes into receipts).
 */
export interface Backend {
  readonly id: string;
  /** The widest circuit it accepts. */
  readonly maxQubits: number;
  /** Exact outcome probabilities after the circuit, indexed by basis state (bit i = qubit i). Simulators only. */
  probabilities?(circuit: Circuit): Promise<Float64Array>;
  /** `shots` measurements of all qubits: basis-state index -> count; all randomness from `seed`. */
  sample(circuit: Circuit, shots: number, seed: number): Promise<ReadonlyMap<number, number>>;
}

export const KNOWN_BACKENDS: readonly string[] = ["statevector", "statevector-noisy"];

/** Depolarizing strength per gate of "statevector-noisy" when none is given. */
export const DEFAULT_NOISE = 0.01;

export function backendById(id: string, options: { noise?: number } = {}): Backend {
  void options;
  throw new QuantumError("UNKNOWN_BACKEND", `Unknown quantum backend "${id}"; known backends: ${KNOWN_BACKENDS.join(", ")}`);
}
