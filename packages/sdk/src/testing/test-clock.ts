import { TemporalRangeError, TemporalTypeError } from "../core/index.js";

/** The largest |Unix ms| a `Date` can hold. */
const MAX_ABS_UNIX_MS = 8.64e15;

/** A clock a test moves by hand. */
export interface TestClock {
  /** Unix ms now. */
  now(): number;
  /** Pins the clock at `time`. */
  set(time: number | Date): void;
  /** Moves the clock `ms` (may be negative) from now, and pins it there. */
  advance(ms: number): void;
}

/**
 * Pinned at `start` when given; otherwise it follows the system clock until the first `set` or `advance`,
 * so a test that never touches it sees the real time.
 */
export function createTestClock(start?: number | Date): TestClock {
  let pinned: number | undefined = start === undefined ? undefined : unixMs(start, "now");
  const now = () => pinned ?? Date.now();
  return {
    now,
    set(time) {
      pinned = unixMs(time, "clock.set");
    },
    advance(ms) {
      if (typeof ms !== "number" || !Number.isFinite(ms)) throw new TemporalTypeError("INVALID_ARGUMENT", `clock.advance takes a finite number of milliseconds, got ${String(ms)}`);
      pinned = unixMs(now() + ms, "clock.advance");
    },
  };
}

function unixMs(time: number | Date, what: string): number {
  const ms = time instanceof Date ? time.getTime() : time;
  if (typeof ms !== "number" || !(Math.abs(ms) <= MAX_ABS_UNIX_MS)) {
    throw new TemporalRangeError("INVALID_TIME", `${what} takes a Date or Unix milliseconds within the Date range, got ${time instanceof Date ? "an invalid Date" : String(time)}`);
  }
  return Math.floor(ms);
}
