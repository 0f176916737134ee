import { QuantumError } from "./errors.js";

/** cost(x) = offset + sum_i linear[i] x_i + sum_k weight_k x_{i_k} x_{j_k}, x in {0,1}^size; minimised. */
export interface Qubo {
  readonly size: number;
  readonly linear: readonly number[];
  readonly quadratic: readonly QuboTerm[];
  readonly offset: number;
}

/** One quadratic term; i = j is allowed and means weight * x_i (since x_i^2 = x_i). Repeated pairs add up. */
export interface QuboTerm {
  readonly i: number;
  readonly j: number;
  readonly weight: number;
}

/**
 * E(z) = offset + sum_i fields[i] z_i + sum_k coupling_k z_{i_k} z_{j_k}, z in {+1,-1}^size.
 * Spin z_i = +1 is qubit state |0> (x_i = 0), z_i = -1 is |1> (x_i = 1): x_i = (1 - z_i) / 2, the eigenvalue of Z_i.
 */
export interface Ising {
  readonly size: number;
  readonly fields: readonly number[];
  /** Merged by pair (i < j), in first-appearance order; a pair whose weights cancel stays, with coupling 0. */
  readonly couplings: readonly IsingTerm[];
  readonly offset: number;
}

export interface IsingTerm {
  readonly i: number;
  readonly j: number;
  readonly coupling: number;
}

/** The largest QUBO bruteForce() enumerates: 2^24 (about 17 million) assignments, around a second. */
export const MAX_BRUTE_FORCE_SIZE = 24;

/** Throws QuantumError INVALID_QUBO naming the first field that is wrong. */
export function validateQubo(qubo: Qubo): void {
  const fail = (message: string): never => {
    throw new QuantumError("INVALID_QUBO", `Invalid QUBO: ${message}`);
  };
  if (!Number.isInteger(qubo.size) || qubo.size < 1) fail(`size must be a positive integer, got ${String(qubo.size)}`);
  if (!Array.isArray(qubo.linear) || qubo.linear.length !== qubo.size) fail(`linear must have size (${qubo.size}) entries, got ${String(qubo.linear?.length)}`);
  qubo.linear.forEach((value, index) => {
    if (!Number.isFinite(value)) fail(`linear[${index}] must be a finite number, got ${String(value)}`);
  });
  if (!Array.isArray(qubo.quadratic)) fail("quadratic must be an array of { i, j, weight }");
  qubo.quadratic.forEach((term, index) => {
    for (const key of ["i", "j"] as const) {
      const value = term[key];
      if (!Number.isInteger(value) || value < 0 || value >= qubo.size) fail(`quadratic[${index}].${key} must be an integer in 0..${qubo.size - 1}, got ${String(value)}`);
    }
    if (!Number.isFinite(term.weight)) fail(`quadratic[${index}].weight must be a finite number, got ${String(term.weight)}`);
  });
  if (!Number.isFinite(qubo.offset)) fail(`offset must be a finite number, got ${String(qubo.offset)}`);
}

/** The cost of one assignment; bits[i] is x_i (0 or 1). */
export function quboCost(qubo: Qubo, bits: readonly number[]): number {
  validateQubo(qubo);
  if (bits.length !== qubo.size || bits.some((bit) => bit !== 0 && bit !== 1)) {
    throw new QuantumError("INVALID_OPTION", `bits must be ${qubo.size} values, each 0 or 1, got [${bits.join(", ")}]`);
  }
  let cost = qubo.offset;
  qubo.linear.forEach((value, i) => (cost += value * bits[i]!));
  for (const { i, j, weight } of qubo.quadratic) cost += weight * bits[i]! * bits[j]!;
  return cost;
}

/** The assignment of a basis-state index: bit i of the index is x_i (qubit i). */
export function indexToBits(index: number, size: number): number[] {
  return Array.from({ length: size }, (_, i) => Math.floor(index / 2 ** i) % 2);
}

/**
 * Calls visit(index, cost) once for every assignment, in Gray-code order:
 * consecutive assignments differ in one bit, so each cost is the previous one
 * plus that bit's local field (kept up to date in O(size) per step) instead
 * of a full re-evaluation. `index` has bit i = x_i.
 */
export function forEachCost(qubo: Qubo, visit: (index: number, cost: number) => void): void {
  validateQubo(qubo);
  const n = qubo.size;
  // Symmetric coupling matrix without its diagonal; diagonal terms are linear ones (x_i^2 = x_i).
  const coupling = new Float64Array(n * n);
  const field = Float64Array.from(qubo.linear);
  for (const { i, j, weight } of qubo.quadratic) {
    if (i === j) {
      field[i]! += weight;
    } else {
      coupling[i * n + j]! += weight;
      coupling[j * n + i]! += weight;
    }
  }
  const bits = new Uint8Array(n);
  let index = 0;
  let cost = qubo.offset;
  visit(0, cost);
  const count = 2 ** n;
  for (let step = 1; step < count; step++) {
    const k = trailingZeros(step);
    const rising = bits[k] === 0;
    cost += rising ? field[k]! : -field[k]!;
    bits[k] = rising ? 1 : 0;
    index ^= 1 << k;
    const sign = rising ? 1 : -1;
    const row = k * n;
    for (let j = 0; j < n; j++) field[j]! += sign * coupling[row + j]!;
    visit(index, cost);
  }
}

function trailingZeros(value: number): number {
  return 31 - Math.clz32(value & -value);
}

/** The cost of every assignment, indexed by basis state (bit i = x_i): the QUBO as a diagonal Hamiltonian. */
export function costDiagonal(qubo: Qubo): Float64Array {
  const diagonal = new Float64Array(2 ** qubo.size);
  forEachCost(qubo, (index, cost) => (diagonal[index] = cost));
  return diagonal;
}

/**
 * The lowest and highest cost, each with its lowest basis-state index (ties
 * go to the smaller index), read from `diagonal` when the caller has it.
 */
export function costRange(qubo: Qubo, diagonal?: Float64Array): { min: { index: number; cost: number }; max: { index: number; cost: number } } {
  checkBruteForceSize(qubo);
  const min = { index: 0, cost: Infinity };
  const max = { index: 0, cost: -Infinity };
  const visit = (index: number, cost: number): void => {
    if (cost < min.cost || (cost === min.cost && index < min.index)) Object.assign(min, { index, cost });
    if (cost > max.cost || (cost === max.cost && index < max.index)) Object.assign(max, { index, cost });
  };
  if (diagonal === undefined) forEachCost(qubo, visit);
  else diagonal.forEach((cost, index) => visit(index, cost));
  return { min, max };
}

/** The exact optimum by enumeration; QuantumError TOO_LARGE above MAX_BRUTE_FORCE_SIZE variables. Ties: the smallest index (bit i = x_i). */
export function bruteForce(qubo: Qubo): { bits: number[]; cost: number } {
  const { min } = costRange(qubo);
  const bits = indexToBits(min.index, qubo.size);
  // Re-evaluated directly: the incremental walk may carry rounding from millions of steps.
  return { bits, cost: quboCost(qubo, bits) };
}

function checkBruteForceSize(qubo: Qubo): void {
  if (qubo.size > MAX_BRUTE_FORCE_SIZE) {
    throw new QuantumError("TOO_LARGE", `bruteForce enumerates at most ${MAX_BRUTE_FORCE_SIZE} variables (2^${MAX_BRUTE_FORCE_SIZE} assignments); this QUBO has ${qubo.size}`);
  }
}

/** The same cost as an Ising energy over spins z_i = 1 - 2 x_i: energies equal costs for every assignment. */
export function quboToIsing(qubo: Qubo): Ising {
  validateQubo(qubo);
  const fields = qubo.linear.map((value) => -value / 2);
  let offset = qubo.offset + qubo.linear.reduce((sum, value) => sum + value / 2, 0);
  const couplings: { i: number; j: number; coupling: number }[] = [];
  const byPair = new Map<number, { i: number; j: number; coupling: number }>();
  for (const { i, j, weight } of qubo.quadratic) {
    if (i === j) {
      // w x_i = w/2 - (w/2) z_i
      fields[i]! -= weight / 2;
      offset += weight / 2;
      continue;
    }
    // w x_i x_j = w/4 (1 - z_i - z_j + z_i z_j)
    fields[i]! -= weight / 4;
    fields[j]! -= weight / 4;
    offset += weight / 4;
    const [low, high] = i < j ? [i, j] : [j, i];
    const key = low * qubo.size + high;
    const existing = byPair.get(key);
    if (existing === undefined) {
      const term = { i: low, j: high, coupling: weight / 4 };
      byPair.set(key, term);
      couplings.push(term);
    } else {
      existing.coupling += weight / 4;
    }
  }
  return { size: qubo.size, fields, couplings, offset };
}

/** The energy of one spin configuration; spins[i] is +1 or -1. */
export function isingEnergy(ising: Ising, spins: readonly number[]): number {
  let energy = ising.offset;
  ising.fields.forEach((value, i) => (energy += value * spins[i]!));
  for (const { i, j, coupling } of ising.couplings) energy += coupling * spins[i]! * spins[j]!;
  return energy;
}
