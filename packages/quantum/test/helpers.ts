import fc from "fast-check";
import { expect } from "vitest";
import type { Qubo } from "../src/index.js";
import { QuantumError } from "../src/index.js";

/** MaxCut as a QUBO to minimise: cost = -cut, since an edge is cut when x_i + x_j - 2 x_i x_j = 1. */
export function maxCutQubo(size: number, edges: readonly (readonly [number, number])[]): Qubo {
  const linear = Array<number>(size).fill(0);
  const quadratic = edges.map(([i, j]) => {
    linear[i]! -= 1;
    linear[j]! -= 1;
    return { i, j, weight: 2 };
  });
  return { size, linear, quadratic, offset: 0 };
}

/**
 * Random QUBOs of 1..maxSize variables, repeated and diagonal terms included.
 * Coefficients are multiples of 1/4 in [-5, 5]: sums are exact in binary
 * floating point, so ties between assignments are real ties.
 */
export function arbitraryQubo(maxSize: number): fc.Arbitrary<Qubo> {
  const coefficient = fc.integer({ min: -20, max: 20 }).map((quarters) => quarters / 4);
  return fc.integer({ min: 1, max: maxSize }).chain((size) =>
    fc.record({
      size: fc.constant(size),
      linear: fc.array(coefficient, { minLength: size, maxLength: size }),
      quadratic: fc.array(fc.record({ i: fc.nat(size - 1), j: fc.nat(size - 1), weight: coefficient }), { maxLength: 2 * size }),
      offset: coefficient,
    }),
  );
}

/** Random simple graphs: n nodes and a subset of the possible edges. */
export function arbitraryGraph(minNodes: number, maxNodes: number): fc.Arbitrary<{ size: number; edges: [number, number][] }> {
  return fc.integer({ min: minNodes, max: maxNodes }).chain((size) => {
    const pairs: [number, number][] = [];
    for (let i = 0; i < size; i++) for (let j = i + 1; j < size; j++) pairs.push([i, j]);
    return fc.subarray(pairs, { minLength: 1 }).map((edges) => ({ size, edges }));
  });
}

export function allBits(size: number): number[][] {
  return Array.from({ length: 2 ** size }, (_, index) => Array.from({ length: size }, (_, i) => (index >> i) & 1));
}

export async function expectQuantumError(run: () => unknown, code: string, message: RegExp): Promise<void> {
  let caught: unknown;
  try {
    await run();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(QuantumError);
  expect((caught as QuantumError).code).toBe(code);
  expect((caught as QuantumError).message).toMatch(message);
}
