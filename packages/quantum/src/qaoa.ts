import type { Backend } from "./backends.js";
import { QuantumError } from "./errors.js";
import type { Qubo } from "./qubo.js";

export interface QaoaOptions {
  /** p, the number of cost + mixer layers; default 1. */
  readonly depth?: number;
  /** A backend or its id; default "statevector". */
  readonly backend?: string | Backend;
  /** Depolarizing strength per gate for "statevector-noisy" (default DEFAULT_NOISE). */
  readonly noise?: number;
  /** Measurements of the final state, to pick the best bitstring; default DEFAULT_SHOTS. */
  readonly shots?: number;
  /** All randomness is seeded: same inputs + seed, same result. Default 0. */
  readonly seed?: number;
  /** Zero-noise extrapolation of the energy at the chosen angles; true means Richardson. */
  readonly zne?: boolean | { readonly extrapolation: "richardson" | "linear" };
  /** The optimiser's budget of energy evaluations; default 100 per layer plus the grid. */
  readonly maxEvaluations?: number;
}

export interface QaoaResult {
  readonly qubits: number;
  readonly depth: number;
  readonly backend: string;
  readonly params: { readonly gammas: number[]; readonly betas: number[] };
  /** <H_cost> at the chosen angles (raw, unmitigated, when zne). */
  readonly energy: number;
  readonly zne?: { readonly raw: number; readonly mitigated: number; readonly scales: number[]; readonly values: number[]; readonly extrapolation: string };
  /** The lowest-cost bitstring among the shots; bits[i] = x_i. */
  readonly best: { readonly bits: number[]; readonly cost: number };
  /** The brute-force optimum, when the QUBO has at most MAX_BRUTE_FORCE_SIZE variables. */
  readonly exact?: { readonly bits: number[]; readonly cost: number };
  /** (maxCost - energy) / (maxCost - minCost): 1 when the energy is the optimum, 0 at the worst assignment; with exact. */
  readonly approximationRatio?: number;
  readonly evaluations: number;
}

export const DEFAULT_SHOTS = 1024;

export async function runQaoa(qubo: Qubo, options: QaoaOptions = {}): Promise<QaoaResult> {
  void qubo;
  void options;
  throw new QuantumError("INVALID_OPTION", "runQaoa is not implemented yet");
}
