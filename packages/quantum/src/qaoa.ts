import type { Backend } from "./backends.js";
import { resolveBackend, StatevectorBackend } from "./backends.js";
import { foldCircuit } from "./circuit.js";
import { QuantumError } from "./errors.js";
import { nelderMead } from "./nelder-mead.js";
import { checkSeed, checkShots } from "./options.js";
import { qaoaCircuit, qaoaState } from "./qaoa-circuit.js";
import type { Qubo } from "./qubo.js";
import { costDiagonal, costRange, indexToBits, MAX_BRUTE_FORCE_SIZE, quboCost, quboToIsing, validateQubo } from "./qubo.js";
import { seededRandom } from "./rng.js";
import { StateVector } from "./statevector.js";
import { DEFAULT_SHOTS, sampleCounts } from "./sampling.js";
import type { Extrapolation } from "./zne.js";
import { extrapolateToZero, ZNE_SCALES } from "./zne.js";

export interface QaoaOptions {
  /** p, the number of cost + mixer layers; default 1. */
  readonly depth?: number;
  /** A backend or its id; default "statevector". */
  readonly backend?: string | Backend;
  /** Depolarizing strength per gate for "statevector-noisy" (default DEFAULT_NOISE). */
  readonly noise?: number;
  /** Measurements of the final state, to pick the best bitstring (and each energy estimate on a sampling-only backend); default DEFAULT_SHOTS. */
  readonly shots?: number;
  /** All randomness is seeded: same inputs + seed, same result. Default 0. */
  readonly seed?: number;
  /** Zero-noise extrapolation of the energy at the chosen angles; true means Richardson. */
  readonly zne?: boolean | { readonly extrapolation: Extrapolation };
  /** The optimiser's budget of energy evaluations (at least MIN_EVALUATIONS per layer); default 100 + 100 per layer. */
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
  /** (maxCost - energy) / (maxCost - minCost): 1 when the energy is the optimum, 0 at the worst assignment (1 when all costs are equal); with exact. */
  readonly approximationRatio?: number;
  /** Energy evaluations in all: the optimiser's plus those of ZNE. */
  readonly evaluations: number;
}

export const MIN_EVALUATIONS = 10;
/** Outcomes are basis-state indices held in JavaScript numbers, exact up to 2^53. */
const MAX_OUTCOME_BITS = 53;
const MAX_DEPTH = 64;
/** The p = 1 grid is at most GRID_SIDE x GRID_SIDE angle pairs, and uses at most a third of the budget. */
const GRID_SIDE = 10;

interface Settings {
  readonly depth: number;
  readonly shots: number;
  readonly seed: number;
  readonly zne: Extrapolation | undefined;
  readonly budget: number;
}

/**
 * Minimises the QUBO's cost with QAOA: the angles by a grid over (gamma,
 * beta) at p = 1 and Nelder-Mead, then for each further layer Nelder-Mead
 * from the previous optimum interpolated to one more layer (INTERP, Zhou et
 * al., PRX 10, 021067, 2020); then the best of `shots` samples of the final
 * state, optional ZNE of the energy, and the exact optimum when small.
 */
export async function runQaoa(qubo: Qubo, options: QaoaOptions = {}): Promise<QaoaResult> {
  validateQubo(qubo);
  const settings = readOptions(options);
  const backend = resolveBackend(options.backend ?? "statevector", options.noise);
  const limit = Math.min(backend.maxQubits, MAX_OUTCOME_BITS);
  if (qubo.size > limit) throw new QuantumError("TOO_LARGE", `Backend "${backend.id}" runs at most ${limit} qubits; this QUBO has ${qubo.size} variables`);
  const ising = quboToIsing(qubo);
  const diagonal = qubo.size <= MAX_BRUTE_FORCE_SIZE ? costDiagonal(qubo) : undefined;
  const costOf = (index: number): number => (diagonal === undefined ? quboCost(qubo, indexToBits(index, qubo.size)) : diagonal[index]!);
  const fastPath = backend instanceof StatevectorBackend && diagonal !== undefined;
  let evaluations = 0;
  let scratch: StateVector | undefined;

  const energy = async (gammas: readonly number[], betas: readonly number[], scale = 1): Promise<number> => {
    evaluations++;
    if (fastPath && scale === 1) return qaoaState(diagonal, qubo.size, gammas, betas, (scratch ??= new StateVector(qubo.size))).expectation(diagonal);
    const circuit = foldCircuit(qaoaCircuit(ising, gammas, betas), scale);
    if (backend.probabilities !== undefined) return expectation(await backend.probabilities(circuit), costOf);
    return expectation(await backend.sample(circuit, settings.shots, settings.seed + evaluations), costOf);
  };

  const optimum = await optimiseAngles(qubo, settings, energy);
  const { gammas, betas } = optimum;
  // From shots, the optimiser's lowest value is biased low (the luckiest of many noisy estimates): measure again.
  const value = backend.probabilities === undefined ? await energy(gammas, betas) : optimum.value;
  let zne: QaoaResult["zne"];
  if (settings.zne !== undefined) {
    const values: number[] = [];
    for (const scale of ZNE_SCALES) values.push(scale === 1 ? value : await energy(gammas, betas, scale));
    zne = { raw: values[0]!, mitigated: extrapolateToZero(ZNE_SCALES, values, settings.zne), scales: [...ZNE_SCALES], values, extrapolation: settings.zne };
  }

  const counts = fastPath
    ? sampleCounts(qaoaState(diagonal, qubo.size, gammas, betas).probabilities(), settings.shots, seededRandom(settings.seed))
    : await backend.sample(qaoaCircuit(ising, gammas, betas), settings.shots, settings.seed + evaluations);
  const bestIndex = [...counts.keys()].reduce((best, index) => (costOf(index) < costOf(best) || (costOf(index) === costOf(best) && index < best) ? index : best));
  const bestBits = indexToBits(bestIndex, qubo.size);
  const result: QaoaResult = {
    qubits: qubo.size,
    depth: settings.depth,
    backend: backend.id,
    params: { gammas, betas },
    energy: value,
    ...(zne === undefined ? {} : { zne }),
    best: { bits: bestBits, cost: quboCost(qubo, bestBits) },
    evaluations,
  };
  if (diagonal === undefined) return result;
  const { min, max } = costRange(qubo, diagonal);
  const exactBits = indexToBits(min.index, qubo.size);
  const approximationRatio = max.cost === min.cost ? 1 : (max.cost - value) / (max.cost - min.cost);
  return { ...result, exact: { bits: exactBits, cost: quboCost(qubo, exactBits) }, approximationRatio };
}

/** <H> from exact probabilities or from shot counts. */
function expectation(outcomes: Float64Array | ReadonlyMap<number, number>, costOf: (index: number) => number): number {
  let sum = 0;
  if (outcomes instanceof Float64Array) {
    for (let x = 0; x < outcomes.length; x++) if (outcomes[x] !== 0) sum += outcomes[x]! * costOf(x);
    return sum;
  }
  let shots = 0;
  for (const [index, count] of outcomes) {
    sum += count * costOf(index);
    shots += count;
  }
  return sum / shots;
}

type Energy = (gammas: readonly number[], betas: readonly number[]) => Promise<number>;

async function optimiseAngles(qubo: Qubo, settings: Settings, energy: Energy): Promise<{ gammas: number[]; betas: number[]; value: number }> {
  // Costs with integer coefficients are 2 pi-periodic in gamma; scaled coefficients scale the period.
  const largest = Math.max(...qubo.linear.map(Math.abs), ...qubo.quadratic.map((term) => Math.abs(term.weight)));
  const gammaRange = largest > 0 ? Math.PI / largest : Math.PI;
  const side = Math.max(2, Math.min(GRID_SIDE, Math.floor(Math.sqrt(settings.budget / 3))));
  // gamma in (0, pi / largest) is enough: the energy is symmetric under (gamma, beta) -> (-gamma, -beta).
  let best = { gammas: [0], betas: [0], value: Infinity };
  for (let a = 0; a < side; a++) {
    for (let b = 0; b < side; b++) {
      const gammas = [(gammaRange * (a + 0.5)) / side];
      const betas = [-Math.PI / 2 + (Math.PI * (b + 0.5)) / side];
      const value = await energy(gammas, betas);
      if (value < best.value) best = { gammas, betas, value };
    }
  }
  const remaining = settings.budget - side * side;
  for (let layers = 1; layers <= settings.depth; layers++) {
    const start = layers === 1 ? best : interpolate(best, layers);
    const steps = [...Array<number>(layers).fill(gammaRange / side / 2), ...Array<number>(layers).fill(Math.PI / side / 2)];
    const budget = layers === settings.depth ? remaining - Math.floor(remaining / settings.depth) * (settings.depth - 1) : Math.floor(remaining / settings.depth);
    const minimum = await nelderMead((point) => energy(point.slice(0, layers), point.slice(layers)), [...start.gammas, ...start.betas], steps, budget);
    best = { gammas: minimum.point.slice(0, layers), betas: minimum.point.slice(layers), value: minimum.value };
  }
  return best;
}

/** INTERP: the angles of p layers stretched to p + 1 by linear interpolation of the schedule. */
function interpolate(angles: { gammas: number[]; betas: number[] }, layers: number): { gammas: number[]; betas: number[] } {
  const stretch = (values: number[]): number[] => {
    const k = values.length;
    return Array.from({ length: layers }, (_, j) => (j / k) * (values[j - 1] ?? 0) + ((k - j) / k) * (values[j] ?? 0));
  };
  return { gammas: stretch(angles.gammas), betas: stretch(angles.betas) };
}

function readOptions(options: QaoaOptions): Settings {
  const depth = options.depth ?? 1;
  if (!Number.isInteger(depth) || depth < 1 || depth > MAX_DEPTH) throw new QuantumError("INVALID_OPTION", `depth must be an integer in 1..${MAX_DEPTH}, got ${String(depth)}`);
  const shots = options.shots ?? DEFAULT_SHOTS;
  checkShots(shots);
  const seed = options.seed ?? 0;
  checkSeed(seed);
  const budget = options.maxEvaluations ?? 100 + 100 * depth;
  // Every layer's Nelder-Mead needs room for its simplex (2p + 1 points) and some steps.
  if (!Number.isInteger(budget) || budget < MIN_EVALUATIONS * depth) {
    throw new QuantumError(
      "INVALID_OPTION",
      `maxEvaluations must be an integer of at least ${MIN_EVALUATIONS} per layer (${MIN_EVALUATIONS * depth} at depth ${depth}), got ${String(budget)}`,
    );
  }
  const zne = options.zne === true ? "richardson" : options.zne === false || options.zne === undefined ? undefined : options.zne.extrapolation;
  if (zne !== undefined && zne !== "richardson" && zne !== "linear") throw new QuantumError("INVALID_OPTION", `zne.extrapolation must be "richardson" or "linear", got ${String(zne)}`);
  return { depth, shots, seed, zne, budget };
}
