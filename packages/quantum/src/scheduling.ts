/**
 * The meaning of the quantum job: placing `nTasks` tasks into the next `nHS`
 * horizon slots of the cycle, as a QUBO, and reading a schedule back from a
 * bit string. Platform-free; docs/quantum.md states the model and its weights.
 *
 * Variable `x[t * nHS + s]` is 1 when task `t` runs in slot `s`. Slot `s`
 * covers `[startMs + s h, startMs + (s + 1) h)`: 15-degree (one-hour) slots,
 * the phase model's hour, starting at the orchestration instant.
 */

import type { CarbonSeries } from "@temporal/agent-sdk";
import { QuantumError } from "./errors.js";
import { MAX_BRUTE_FORCE_SIZE, quboCost, type Qubo, type QuboTerm } from "./qubo.js";

export const SLOT_DEGREES = 15;
export const SLOT_MS = 3_600_000;
/**
 * Largest `nTasks * nHS` a schedule may have: the brute-force limit, so every schedule has its exact optimum.
 * The backend may allow fewer (a state vector of 2^n amplitudes takes 16 x 2^n bytes: 256 MiB at 24).
 */
export const MAX_SCHEDULE_QUBITS = MAX_BRUTE_FORCE_SIZE;

export interface SchedulingProblem {
  readonly nTasks: number;
  readonly nHS: number;
  /** Start of slot 0, Unix ms. */
  readonly startMs: number;
  /** Zone-local phase at `startMs`, degrees in [0, 360). */
  readonly startPhaseDeg: number;
  /**
   * `conflicts[t][u]` >= 0: the cost of tasks t and u sharing a slot (symmetric, diagonal ignored).
   * Default: every pair 1, so tasks spread over the slots.
   */
  readonly conflicts?: readonly (readonly number[])[];
  /** Preferred phase per task, degrees in [0, 360), or null for none. Default: none. */
  readonly preferences?: readonly (number | null)[];
  /** Weight of a preference at the far side of the cycle (180 degrees away); default 1. */
  readonly preferenceWeight?: number;
  /** With a forecast, each slot's average intensity (normalised by the horizon's dirtiest slot) is a cost per task placed there. */
  readonly carbon?: CarbonSeries;
  /** Weight of a slot's normalised intensity; default 1. */
  readonly carbonWeight?: number;
}

export interface Slot {
  readonly index: number;
  readonly start_unix_ms: number;
  readonly end_unix_ms: number;
  /** Zone-local phase at the slot's middle, degrees. */
  readonly phase_deg: number;
  /** Average forecast intensity over the slot, gCO2eq/kWh, when carbon-aware. */
  readonly carbon_intensity?: number;
}

export interface SchedulingQubo {
  readonly qubo: Qubo;
  readonly slots: readonly Slot[];
  /** The one-hot penalty weight: larger than anything leaving a task out or doubling it up can gain. */
  readonly penalty: number;
}

export interface Schedule {
  /** Slot index per task. */
  readonly assignment: readonly number[];
  /** Cost of the schedule under the QUBO (no penalty is ever included: it is feasible). */
  readonly cost: number;
  /** True when the sampled bits put some task in no slot or several, and `assignment` is their greedy repair. */
  readonly repaired: boolean;
  /** Pairs of tasks (t < u) sharing a slot with a positive conflict weight. */
  readonly conflicts: readonly (readonly [number, number])[];
}

/** Encodes the problem as a QUBO (cost to minimise) and lists its slots. */
export function schedulingQubo(problem: SchedulingProblem): SchedulingQubo {
  const { nTasks, nHS } = checkShape(problem);
  const conflicts = conflictMatrix(problem.conflicts, nTasks);
  const slots = horizonSlots(problem, nHS);
  const preference = preferenceCosts(problem.preferences, problem.preferenceWeight ?? 1, nTasks, slots);
  const carbon = carbonCosts(slots, problem.carbonWeight ?? 1);

  // linear[t][s] >= 0: what placing task t in slot s costs on its own.
  const linearCost = (t: number, s: number): number => preference[t]![s]! + carbon[s]!;
  // A task left out gains at most its conflicts and its dearest slot; doubling up gains nothing, since every cost is >= 0.
  let maxGain = 0;
  for (let t = 0; t < nTasks; t++) {
    let gain = Math.max(...slots.map((_, s) => linearCost(t, s)));
    for (let u = 0; u < nTasks; u++) if (u !== t) gain += conflicts[t]![u]!;
    maxGain = Math.max(maxGain, gain);
  }
  const penalty = maxGain + 1;

  const size = nTasks * nHS;
  const linear = new Array<number>(size).fill(0);
  const quadratic: QuboTerm[] = [];
  for (let t = 0; t < nTasks; t++) {
    // penalty (1 - sum_s x_ts)^2 = penalty (1 - sum_s x_ts + 2 sum_{s<s'} x_ts x_ts'), since x^2 = x.
    for (let s = 0; s < nHS; s++) {
      linear[t * nHS + s] = linearCost(t, s) - penalty;
      for (let s2 = s + 1; s2 < nHS; s2++) quadratic.push({ i: t * nHS + s, j: t * nHS + s2, weight: 2 * penalty });
    }
    for (let u = t + 1; u < nTasks; u++) {
      const weight = conflicts[t]![u]!;
      if (weight > 0) for (let s = 0; s < nHS; s++) quadratic.push({ i: t * nHS + s, j: u * nHS + s, weight });
    }
  }
  return { qubo: { size, linear, quadratic, offset: penalty * nTasks }, slots, penalty };
}

/**
 * Reads a schedule from bits. A task in exactly one slot keeps it; tasks in
 * none or several are repaired greedily, in task order, to the candidate slot
 * (one of theirs, or any when they have none) that adds the least cost given
 * the tasks placed so far. Each such repair lowers the QUBO cost (see the
 * penalty's bound), so a repaired schedule never costs more than the sample.
 */
export function decodeSchedule(encoded: SchedulingQubo, bits: readonly number[]): Schedule {
  const { qubo, slots } = encoded;
  const nHS = slots.length;
  const nTasks = qubo.size / nHS;
  if (bits.length !== qubo.size) throw new QuantumError("INVALID_OPTION", `expected ${qubo.size} bits (${nTasks} tasks x ${nHS} slots), got ${bits.length}`);
  const chosen = Array.from({ length: nTasks }, (_, t) => slots.map((_, s) => s).filter((s) => bits[t * nHS + s] === 1));
  const assignment: (number | undefined)[] = chosen.map((c) => (c.length === 1 ? c[0] : undefined));
  const pairWeight = pairWeights(qubo);
  let repaired = false;
  for (let t = 0; t < nTasks; t++) {
    if (assignment[t] !== undefined) continue;
    repaired = true;
    const candidates = chosen[t]!.length > 0 ? chosen[t]! : slots.map((_, s) => s);
    let best = candidates[0]!;
    let bestCost = Infinity;
    for (const s of candidates) {
      let cost = qubo.linear[t * nHS + s]!;
      assignment.forEach((slot, u) => {
        if (slot === s && u !== t) cost += pairWeight(t * nHS + s, u * nHS + s);
      });
      if (cost < bestCost) [best, bestCost] = [s, cost];
    }
    assignment[t] = best;
  }
  const final = assignment as number[];
  const conflicts: [number, number][] = [];
  for (let t = 0; t < nTasks; t++) {
    for (let u = t + 1; u < nTasks; u++) if (final[t] === final[u] && pairWeight(t * nHS + final[t]!, u * nHS + final[u]!) > 0) conflicts.push([t, u]);
  }
  return { assignment: final, cost: quboCost(qubo, scheduleBits(final, nHS)), repaired, conflicts };
}

/** The bit string of an assignment (slot per task). */
export function scheduleBits(assignment: readonly number[], nHS: number): number[] {
  const bits = new Array<number>(assignment.length * nHS).fill(0);
  assignment.forEach((s, t) => (bits[t * nHS + s] = 1));
  return bits;
}

/** Weight lookup of the quadratic terms between two variables (either order); several terms on one pair add up. */
function pairWeights(qubo: Qubo): (i: number, j: number) => number {
  const weights = new Map<number, number>();
  const key = (i: number, j: number): number => Math.min(i, j) * qubo.size + Math.max(i, j);
  for (const { i, j, weight } of qubo.quadratic) weights.set(key(i, j), (weights.get(key(i, j)) ?? 0) + weight);
  return (i, j) => weights.get(key(i, j)) ?? 0;
}

function checkShape(problem: SchedulingProblem): { nTasks: number; nHS: number } {
  const { nTasks, nHS } = problem;
  if (!Number.isInteger(nTasks) || nTasks < 1) throw new QuantumError("INVALID_OPTION", `nTasks must be an integer >= 1, got ${String(nTasks)}`);
  if (!Number.isInteger(nHS) || nHS < 1 || nHS > 24) throw new QuantumError("INVALID_OPTION", `nHS must be an integer 1..24 (one-hour slots of the next cycle), got ${String(nHS)}`);
  if (nTasks * nHS > MAX_SCHEDULE_QUBITS) {
    throw new QuantumError("TOO_LARGE", `nTasks * nHS = ${nTasks * nHS} qubits exceeds ${MAX_SCHEDULE_QUBITS} (a state vector of 2^n amplitudes, 16 bytes each): use fewer tasks or slots`);
  }
  if (!Number.isSafeInteger(problem.startMs)) throw new QuantumError("INVALID_OPTION", `startMs must be integer Unix milliseconds, got ${String(problem.startMs)}`);
  if (!(problem.startPhaseDeg >= 0 && problem.startPhaseDeg < 360)) throw new QuantumError("INVALID_OPTION", `startPhaseDeg must be in [0, 360), got ${String(problem.startPhaseDeg)}`);
  for (const [name, value] of [
    ["preferenceWeight", problem.preferenceWeight],
    ["carbonWeight", problem.carbonWeight],
  ] as const) {
    if (value !== undefined && !(Number.isFinite(value) && value >= 0)) throw new QuantumError("INVALID_OPTION", `${name} must be a finite number >= 0, got ${String(value)}`);
  }
  return { nTasks, nHS };
}

function conflictMatrix(given: SchedulingProblem["conflicts"], nTasks: number): number[][] {
  if (given === undefined) return Array.from({ length: nTasks }, (_, t) => Array.from({ length: nTasks }, (_, u) => (t === u ? 0 : 1)));
  const rows: unknown = given;
  if (!isList(rows) || rows.length !== nTasks) throw new QuantumError("INVALID_OPTION", `conflicts must be an ${nTasks} x ${nTasks} matrix (one row per task)`);
  const matrix = rows.map((row, t) => {
    if (!isList(row) || row.length !== nTasks) throw new QuantumError("INVALID_OPTION", `conflicts[${t}] must hold ${nTasks} numbers`);
    return row.map((w, u) => {
      if (typeof w !== "number" || !(Number.isFinite(w) && w >= 0)) throw new QuantumError("INVALID_OPTION", `conflicts[${t}][${u}] must be a finite number >= 0, got ${String(w)}`);
      return u === t ? 0 : w;
    });
  });
  matrix.forEach((row, t) =>
    row.forEach((w, u) => {
      if (matrix[u]![t] !== w) throw new QuantumError("INVALID_OPTION", `conflicts must be symmetric: conflicts[${t}][${u}] = ${w} but conflicts[${u}][${t}] = ${matrix[u]![t]}`);
    }),
  );
  return matrix;
}

function isList(value: unknown): value is readonly unknown[] {
  return Array.isArray(value);
}

function horizonSlots(problem: SchedulingProblem, nHS: number): Slot[] {
  return Array.from({ length: nHS }, (_, s) => {
    const start = problem.startMs + s * SLOT_MS;
    const slot = { index: s, start_unix_ms: start, end_unix_ms: start + SLOT_MS, phase_deg: (problem.startPhaseDeg + SLOT_DEGREES * (s + 0.5)) % 360 };
    return problem.carbon === undefined ? slot : { ...slot, carbon_intensity: averageIntensity(problem.carbon, start, start + SLOT_MS) };
  });
}

/** Cost of each task in each slot: weight x (angular distance from the preferred phase) / 180. */
function preferenceCosts(preferences: SchedulingProblem["preferences"], weight: number, nTasks: number, slots: readonly Slot[]): number[][] {
  if (preferences !== undefined && (!isList(preferences) || preferences.length !== nTasks)) {
    throw new QuantumError("INVALID_OPTION", `preferences must hold one phase (degrees) or null per task: ${nTasks} entries`);
  }
  return Array.from({ length: nTasks }, (_, t) => {
    const preferred = preferences?.[t] ?? null;
    if (preferred === null) return slots.map(() => 0);
    if (!(typeof preferred === "number" && preferred >= 0 && preferred < 360)) {
      throw new QuantumError("INVALID_OPTION", `preferences[${t}] must be a phase in [0, 360) degrees or null, got ${String(preferred)}`);
    }
    return slots.map((slot) => (weight * angularDistance(preferred, slot.phase_deg)) / 180);
  });
}

function angularDistance(a: number, b: number): number {
  const d = Math.abs(a - b) % 360;
  return d > 180 ? 360 - d : d;
}

/** Each slot's intensity divided by the dirtiest slot's, times the weight: in [0, weight]. */
function carbonCosts(slots: readonly Slot[], weight: number): number[] {
  const intensities = slots.map((slot) => slot.carbon_intensity ?? 0);
  const max = Math.max(...intensities);
  return intensities.map((value) => (max > 0 ? (weight * value) / max : 0));
}

/**
 * Time-weighted average intensity over `[start, end)`; `INVALID_OPTION`
 * when the forecast leaves part of it uncovered, rather than guess.
 */
export function averageIntensity(series: CarbonSeries, start: number, end: number): number {
  let covered = 0;
  let integral = 0;
  for (const point of series) {
    const from = Math.max(point.start_unix_ms, start);
    const to = Math.min(point.end_unix_ms, end);
    if (to > from) {
      covered += to - from;
      integral += point.intensity * (to - from);
    }
  }
  if (covered < end - start) {
    throw new QuantumError(
      "INVALID_OPTION",
      `the carbon forecast does not cover the slot ${new Date(start).toISOString()} to ${new Date(end).toISOString()}: give a forecast spanning the whole horizon`,
    );
  }
  return integral / (end - start);
}
