/**
 * Integer units of the phase model. Every decision (windows, durations,
 * tiles) is made in whole ticks so that no floating-point rounding can move
 * a boundary.
 */

/** One tick is one millisecond. */
export const TICKS_PER_DAY = 86_400_000;

/** 360 degrees per day: 15 degrees an hour. */
export const TICKS_PER_DEGREE = 240_000;

export const ZONE_COUNT = 12;

/** Each SWT zone is 30 degrees (two hours) ahead of the previous one. */
export const TICKS_PER_ZONE = 7_200_000;

/** ECMAScript Dates span +/- 8.64e15 ms, which is +/- 1e8 days. */
export const MAX_ABS_DAY_INDEX = 100_000_000;
export const MAX_ABS_UNIX_MS = MAX_ABS_DAY_INDEX * TICKS_PER_DAY;
