/**
 * The time slider's arithmetic: the slider covers the viewer's local
 * calendar day that contains the chosen instant, one step a minute. Its
 * value is minutes elapsed since local midnight, not the clock's minutes, so
 * a day with a daylight-saving change has 23 or 25 hours of steps and every
 * step is a distinct instant.
 */

const MS_PER_MINUTE = 60_000;

export interface DayRange {
  /** Local midnight that starts the day, epoch ms. */
  readonly start: number;
  /** Minutes in that day (1440, or 1380/1500 on a daylight-saving change). */
  readonly minutes: number;
}

export function dayAround(instant: number): DayRange {
  const midnight = new Date(instant);
  midnight.setHours(0, 0, 0, 0);
  const next = new Date(midnight);
  next.setDate(next.getDate() + 1);
  return { start: midnight.getTime(), minutes: Math.round((next.getTime() - midnight.getTime()) / MS_PER_MINUTE) };
}

/** The slider position of an instant (whole minutes since local midnight). */
export function sliderValue(instant: number, day: DayRange): number {
  return Math.min(day.minutes - 1, Math.max(0, Math.floor((instant - day.start) / MS_PER_MINUTE)));
}

export function instantAt(value: number, day: DayRange): number {
  return day.start + value * MS_PER_MINUTE;
}

// Formatters are made once: one per call costs more than the formatting, and the slider formats on every step.
const localTime = new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
const utcTime = new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: "UTC" });
const localDate = new Intl.DateTimeFormat("en-GB", { weekday: "short", day: "numeric", month: "short", year: "numeric" });

/** `23:30 local, 21:30 UTC, Thu, 26 Nov 2026`: what a screen reader says for the slider (aria-valuetext). */
export function instantInWords(instant: number): string {
  return `${localTime.format(instant)} local, ${utcTime.format(instant)} UTC, ${localDate.format(instant)}`;
}

/** The `<input type="datetime-local">` value of an instant, in the viewer's zone, to the minute. */
export function localInputValue(instant: number): string {
  const d = new Date(instant);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${String(d.getFullYear()).padStart(4, "0")}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** An instant from a datetime-local value (read in the viewer's zone); undefined when empty or not a date. */
export function fromLocalInput(value: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?$/.test(value)) return undefined;
  const instant = new Date(value).getTime();
  return Number.isNaN(instant) ? undefined : instant;
}
