import type { Circuit } from "./circuit.js";
import { validateCircuit } from "./circuit.js";
import { QuantumError } from "./errors.js";
import { checkNoise, checkShots } from "./options.js";
import { seededRandom } from "./rng.js";
import { sampleCounts } from "./sampling.js";
import { runDensityMatrix, runStateVector } from "./simulate.js";

/**
 * Where circuits run. The two built-in simulators implement both methods; a
 * remote device implements `sample` only (and its id goes into receipts).
 * Circuits start from |0...0> and measure every qubit in the computational
 * basis; outcome index bit i is qubit i.
 */
export interface Backend {
  readonly id: string;
  /** The widest circuit it accepts. */
  readonly maxQubits: number;
  /** Exact outcome probabilities after the circuit, indexed by basis state. Simulators only. */
  probabilities?(circuit: Circuit): Promise<Float64Array>;
  /** `shots` measurements of all qubits: basis-state index -> count; all randomness from `seed`. */
  sample(circuit: Circuit, shots: number, seed: number): Promise<ReadonlyMap<number, number>>;
}

export const KNOWN_BACKENDS: readonly string[] = ["statevector", "statevector-noisy"];

/** Depolarizing strength per gate of "statevector-noisy" when none is given. */
export const DEFAULT_NOISE = 0.01;

/** 2^24 amplitudes: 256 MiB in two Float64Arrays. */
const STATEVECTOR_MAX_QUBITS = 24;
/** A density matrix of n qubits holds 4^n entries: 16 MiB at 10 qubits, and every gate passes over all of them. */
const DENSITY_MATRIX_MAX_QUBITS = 10;

abstract class Simulator implements Backend {
  abstract readonly id: string;
  abstract readonly maxQubits: number;

  async probabilities(circuit: Circuit): Promise<Float64Array> {
    validateCircuit(circuit, this);
    return this.simulate(circuit);
  }

  async sample(circuit: Circuit, shots: number, seed: number): Promise<ReadonlyMap<number, number>> {
    checkShots(shots);
    return sampleCounts(await this.probabilities(circuit), shots, seededRandom(seed));
  }

  protected abstract simulate(circuit: Circuit): Float64Array;
}

/** Exact and noiseless: the state vector. */
export class StatevectorBackend extends Simulator {
  readonly id = "statevector";
  readonly maxQubits = STATEVECTOR_MAX_QUBITS;

  protected simulate(circuit: Circuit): Float64Array {
    return runStateVector(circuit).probabilities();
  }
}

/**
 * Depolarizing noise of strength `noise` after every gate on each qubit it
 * touched, simulated exactly with a density matrix (no trajectory sampling,
 * so energies are deterministic and ZNE sees the noise, not shot noise).
 */
export class NoisyStatevectorBackend extends Simulator {
  readonly id = "statevector-noisy";
  readonly maxQubits = DENSITY_MATRIX_MAX_QUBITS;
  readonly noise: number;

  constructor(noise: number) {
    super();
    checkNoise(noise);
    this.noise = noise;
  }

  protected simulate(circuit: Circuit): Float64Array {
    return runDensityMatrix(circuit, this.noise).probabilities();
  }
}

/** A built-in backend by id; QuantumError UNKNOWN_BACKEND lists the known ids. `noise` applies to "statevector-noisy" only (INVALID_OPTION elsewhere). */
export function backendById(id: string, options: { noise?: number } = {}): Backend {
  switch (id) {
    case "statevector":
      if (options.noise !== undefined) throw noiseMisplaced(id);
      return new StatevectorBackend();
    case "statevector-noisy":
      return new NoisyStatevectorBackend(options.noise ?? DEFAULT_NOISE);
    default:
      throw new QuantumError("UNKNOWN_BACKEND", `Unknown quantum backend "${id}"; known backends: ${KNOWN_BACKENDS.join(", ")}`);
  }
}

/** A backend given as itself or by id. */
export function resolveBackend(backend: string | Backend, noise: number | undefined): Backend {
  if (typeof backend === "string") return backendById(backend, noise === undefined ? {} : { noise });
  if (typeof backend?.id !== "string" || typeof backend.sample !== "function" || !Number.isInteger(backend.maxQubits)) {
    throw new QuantumError("INVALID_OPTION", `backend must be one of ${KNOWN_BACKENDS.join(", ")} or an object with id, maxQubits and sample()`);
  }
  if (noise !== undefined) throw noiseMisplaced(backend.id);
  return backend;
}

/** A noise strength for a backend without the model is a mistake worth saying, not a setting to drop. */
function noiseMisplaced(id: string): QuantumError {
  return new QuantumError(
    "INVALID_OPTION",
    `noise sets the depolarizing strength of "statevector-noisy" only; backend "${id}" does not take it (choose backend "statevector-noisy" or drop noise)`,
  );
}
