/**
 * The dial's times in words, shared by `temporalc show` and the playground's
 * time panel so both say the same thing for the same instants. Dependency
 * free: the playground's page imports these without the compiler.
 */

const MS_PER_MINUTE = 60_000;

/**
 * `in 35 min`, `in 14 h 40 min`, `in 2 d 3 h`, or `now`: how long from `from` until `to`. `to` is taken to the
 * minute first, as the clock time shown beside it (a window closes the millisecond after its end, and that reads
 * 02:00, not 02:00:00.001); the wait is then rounded up, so it never says a minute less than there is.
 */
export function timeUntilText(from: number, to: number): string {
  const wait = Math.floor(to / MS_PER_MINUTE) * MS_PER_MINUTE - from;
  return wait <= 0 ? "now" : `in ${durationText(wait)}`;
}

/**
 * The anchored clock's `HH:MM` at `degrees` (a quarter degree a minute), to the minute it has reached, as a clock
 * reads: the clock now (`nowDeg`), or a window's bound (360, the end of the day, is `24:00`).
 */
export function dialClockText(degrees: number): string {
  const minutes = Math.min(Math.max(0, Math.floor(degrees * 4)), 24 * 60);
  return `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
}

/** Minutes as `35 min`, `2 h 5 min`, `1 d 3 h`. */
export function durationText(ms: number): string {
  const minutes = Math.max(1, Math.ceil(ms / MS_PER_MINUTE));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
  return hours % 24 === 0 ? `${Math.floor(hours / 24)} d` : `${Math.floor(hours / 24)} d ${hours % 24} h`;
}
