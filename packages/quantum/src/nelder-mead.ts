export type Objective = (point: number[]) => Promise<number>;

export interface Minimum {
  readonly point: number[];
  readonly value: number;
  readonly evaluations: number;
}

/** Stop when the simplex's values agree to this and its points to SIZE_TOLERANCE: nothing left to gain. */
const VALUE_TOLERANCE = 1e-12;
const SIZE_TOLERANCE = 1e-9;

/**
 * Derivative-free local minimisation (Nelder and Mead 1965, standard
 * coefficients: reflection 1, expansion 2, contraction 1/2, shrink 1/2),
 * from `start` with an initial simplex of `steps` along each axis, within
 * `budget` objective evaluations. Derivative-free because energies from a
 * sampling backend are noisy and have no gradient.
 */
export async function nelderMead(objective: Objective, start: readonly number[], steps: readonly number[], budget: number): Promise<Minimum> {
  const dimension = start.length;
  let evaluations = 0;
  const evaluate = async (point: number[]): Promise<{ point: number[]; value: number }> => {
    evaluations++;
    return { point, value: await objective(point) };
  };
  const simplex = [await evaluate([...start])];
  for (let axis = 0; axis < dimension && evaluations < budget; axis++) {
    const point = [...start];
    point[axis]! += steps[axis]!;
    simplex.push(await evaluate(point));
  }
  const along = (from: number[], to: number[], t: number): number[] => from.map((value, i) => value + t * (to[i]! - value));
  while (evaluations < budget && simplex.length === dimension + 1) {
    simplex.sort((a, b) => a.value - b.value);
    const best = simplex[0]!;
    const worst = simplex[dimension]!;
    const spread = worst.value - best.value;
    const size = Math.max(...simplex.map((vertex) => Math.max(...vertex.point.map((value, i) => Math.abs(value - best.point[i]!)))));
    if (spread <= VALUE_TOLERANCE && size <= SIZE_TOLERANCE) break;
    const centroid = start.map((_, i) => simplex.slice(0, dimension).reduce((sum, vertex) => sum + vertex.point[i]!, 0) / dimension);
    const reflected = await evaluate(along(centroid, worst.point, -1));
    if (reflected.value < best.value) {
      const expanded = evaluations < budget ? await evaluate(along(centroid, worst.point, -2)) : reflected;
      simplex[dimension] = expanded.value < reflected.value ? expanded : reflected;
    } else if (reflected.value < simplex[dimension - 1]!.value) {
      simplex[dimension] = reflected;
    } else {
      if (evaluations >= budget) break;
      const outside = reflected.value < worst.value;
      const contracted = await evaluate(along(centroid, outside ? reflected.point : worst.point, 0.5));
      if (contracted.value < (outside ? reflected.value : worst.value)) {
        simplex[dimension] = contracted;
      } else {
        for (let k = 1; k <= dimension && evaluations < budget; k++) simplex[k] = await evaluate(along(best.point, simplex[k]!.point, 0.5));
      }
    }
  }
  simplex.sort((a, b) => a.value - b.value);
  const best = simplex[0]!;
  return { point: best.point, value: best.value, evaluations };
}
