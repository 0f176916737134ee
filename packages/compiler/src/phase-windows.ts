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

/**
 * How many windows, taken in order, leave some tick open in all of them:
 * the index of the first window after which no tick is open, or
 * `windows.length` when some tick is open in every window.
 *
 * Adding a window can only close ticks, so the answer is found by binary
 * search over prefixes; each prefix is tested by one sweep over interval
 * ends sorted once, counting at each point how many windows are open there
 * (a window's own intervals are disjoint, so it counts at most once).
 * O(n log n) in all, where intersecting window after window was O(n²): the
 * open set of n windows can have n pieces.
 */
export function satisfiablePrefix(windows: readonly (readonly TickInterval[])[]): number {
  if (windows.length > MAX_OWNERS) throw new RangeError(`satisfiablePrefix: at most ${MAX_OWNERS} windows`);
  // One number per interval end, sorted natively: (point * 2 + opens) * MAX_OWNERS + window.
  // Half-open [low, high + 1), so at one point a window closes (even) before another opens (odd).
  const events = new Float64Array(windows.reduce((count, intervals) => count + intervals.length * 2, 0));
  let next = 0;
  windows.forEach((intervals, owner) => {
    for (const [low, high] of intervals) {
      events[next++] = (low * 2 + 1) * MAX_OWNERS + owner;
      events[next++] = (high + 1) * 2 * MAX_OWNERS + owner;
    }
  });
  events.sort();
  const allOpenSomewhere = (count: number): boolean => {
    let depth = 0;
    for (const event of events) {
      if (event % MAX_OWNERS >= count) continue;
      if (Math.floor(event / MAX_OWNERS) % 2 === 0) depth--;
      else if (++depth === count) return true;
    }
    return count === 0;
  };
  let low = 0;
  let high = windows.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (allOpenSomewhere(middle)) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** Keys stay exact doubles: 2 * TICKS_PER_CYCLE + 1 < 2^28, times 2^25 windows, is below 2^53. */
const MAX_OWNERS = 2 ** 25;
