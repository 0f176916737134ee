import { TemporalRangeError, describeValue } from "./errors.js";
import { contextUnixMs } from "./phase.js";
import type { PhaseContext } from "./types.js";
import { TICKS_PER_DAY } from "./units.js";

export interface TpeOptions {
  /** Harmonics per cycle, an integer 1..64; default 8. */
  readonly harmonics?: number;
}

/** The cycles of the embedding, in vector order. */
export const TPE_CYCLES = ["daily", "weekly", "yearly"] as const;

const MAX_HARMONICS = 64;
const TICKS_PER_WEEK = 7 * TICKS_PER_DAY;
// 1970-01-01 was a Thursday; shifting by three days puts the weekly origin on Monday 00:00 UTC (ISO weeks).
const WEEK_ORIGIN_SHIFT = 3 * TICKS_PER_DAY;

/**
 * Temporal positional embedding of the instant `ctx.unix_ms`:
 * `[sin(k*theta), cos(k*theta)]` for k = 1..harmonics, for the daily, weekly
 * and yearly cycles in that order, so the length is `6 * harmonics`.
 * Angles are reduced in integer ticks before the trigonometry, so the result
 * depends only on the instant (not the zone) and is deterministic.
 */
export function tpeVector(ctx: PhaseContext, options: TpeOptions = {}): number[] {
  const harmonics = options.harmonics ?? 8;
  if (!Number.isInteger(harmonics) || harmonics < 1 || harmonics > MAX_HARMONICS) {
    throw new TemporalRangeError("INVALID_HARMONICS", `harmonics must be an integer 1..${MAX_HARMONICS}, got ${describeValue(harmonics)}`);
  }
  const unixMs = contextUnixMs(ctx);
  const year = yearBounds(unixMs);
  const vector: number[] = [];
  appendHarmonics(vector, ctx.phi_ticks, TICKS_PER_DAY, harmonics);
  appendHarmonics(vector, modulo(unixMs + WEEK_ORIGIN_SHIFT, TICKS_PER_WEEK), TICKS_PER_WEEK, harmonics);
  appendHarmonics(vector, unixMs - year.start, year.length, harmonics);
  return vector;
}

function appendHarmonics(vector: number[], position: number, period: number, harmonics: number): void {
  for (let k = 1; k <= harmonics; k++) {
    const angle = (2 * Math.PI * ((k * position) % period)) / period;
    vector.push(Math.sin(angle), Math.cos(angle));
  }
}

/**
 * The proleptic Gregorian UTC year containing `unixMs`, so the yearly cycle
 * starts on 1 January. Computed arithmetically because `Date` cannot
 * represent 1 January of its first and last years.
 */
function yearBounds(unixMs: number): { start: number; length: number } {
  const year = new Date(unixMs).getUTCFullYear();
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return { start: daysBeforeYear(year) * TICKS_PER_DAY, length: (leap ? 366 : 365) * TICKS_PER_DAY };
}

/** Days from 1970-01-01 to 1 January of `year`. */
function daysBeforeYear(year: number): number {
  const leapDays = (y: number): number => Math.floor(y / 4) - Math.floor(y / 100) + Math.floor(y / 400);
  return 365 * (year - 1970) + leapDays(year - 1) - leapDays(1969);
}

function modulo(value: number, period: number): number {
  const r = value % period;
  return r < 0 ? r + period : r;
}
