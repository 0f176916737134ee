/**
 * Phase windows as sets of whole ticks (1 tick = 1 ms = 1/240,000 degree),
 * the same resolution the runtime decides `allow` in, so what the checker
 * calls "never overlaps" is exactly what can never be ALLOW at run time.
 */

export const TICKS_PER_DEGREE = 240_000;
export const TICKS_PER_CYCLE = 360 * TICKS_PER_DEGREE;
const LAST_TICK = TICKS_PER_CYCLE - 1;

/** Closed interval of ticks, `low <= high`. */
export type TickInterval = readonly [low: number, high: number];

export const FULL_CYCLE: TickInterval[] = [[0, LAST_TICK]];

export function degreesToTicks(degrees: number): number {
  return Math.round(degrees * TICKS_PER_DEGREE);
}

/**
 * The ticks of the daily cycle inside `[start, end]`, as sorted disjoint
 * intervals. Bounds are inclusive; 360 is the same point as 0, except that
 * `[0, 360]` is the whole cycle; `start > end` wraps through 0. These are
 * the runtime's `allow` semantics. A window that covers every tick is
 * `FULL_CYCLE` itself.
 */
export function windowTicks(startDegrees: number, endDegrees: number): TickInterval[] {
  const start = degreesToTicks(startDegrees);
  const end = degreesToTicks(endDegrees);
  if (start === 0 && end === TICKS_PER_CYCLE) return FULL_CYCLE;
  const from = start === TICKS_PER_CYCLE ? 0 : start;
  const to = end === TICKS_PER_CYCLE ? 0 : end;
  if (from <= to) return [[from, to]];
  return [
    [0, to],
    [from, LAST_TICK],
  ];
}

export function intersectTicks(a: readonly TickInterval[], b: readonly TickInterval[]): TickInterval[] {
  const result: TickInterval[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const [aLow, aHigh] = a[i]!;
    const [bLow, bHigh] = b[j]!;
    const low = Math.max(aLow, bLow);
    const high = Math.min(aHigh, bHigh);
    if (low <= high) result.push([low, high]);
    if (aHigh < bHigh) i++;
    else j++;
  }
  return result;
}
