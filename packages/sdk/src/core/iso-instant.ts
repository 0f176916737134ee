/**
 * The one parser of ISO 8601 / RFC 3339 instants in temporalc, such as
 * `2024-05-01T12:30:00Z` or `2024-05-01T14:30:00+02:00`. The rules:
 *
 * - a date, `T` (or `t`), hours and minutes, optional seconds and an
 *   optional fraction (`.` or `,`; digits beyond the millisecond are
 *   truncated), then a zone: `Z` (or `z`) or an offset `+hh:mm` / `+hhmm`;
 * - the zone is required: a time without one would mean the local time of
 *   whichever machine reads it; a date alone is refused for the same reason;
 * - the date must exist (no 02-30, no 2023-02-29); hours 00..23, no leap
 *   second (`:60`), offsets up to 23:59.
 *
 * `Date.parse` is not used: it reads a timestamp without an offset as local
 * time and accepts engine-specific formats. The date is converted with
 * integer arithmetic instead.
 */

import { TemporalRangeError, describeValue } from "./errors.js";

// date [T time [seconds [fraction]] [zone]]; what is missing is reported, not just rejected
const ISO_INSTANT = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:([Zz])|([+-])(\d{2}):?(\d{2}))?)?$/;

const MS_PER_DAY = 86_400_000;

const EXAMPLE = "2026-11-22T23:30:00Z";

/**
 * Unix milliseconds of an ISO 8601 instant with a zone, or `undefined` when
 * `text` is not one (see the rules above).
 */
export function parseIsoInstant(text: string): number | undefined {
  const parsed = readInstant(text);
  return typeof parsed === "number" ? parsed : undefined;
}

/**
 * Unix milliseconds of an ISO 8601 instant with a zone; otherwise a
 * `TemporalRangeError` (`INVALID_TIME`) saying what is wrong and how to
 * write it, e.g. `no such date: 2026-02 has 28 days`.
 */
export function requireIsoInstant(text: string): number {
  const parsed = typeof text === "string" ? readInstant(text) : `expected a string such as ${EXAMPLE}`;
  if (typeof parsed === "number") return parsed;
  throw new TemporalRangeError("INVALID_TIME", `${describeValue(text)} is not an ISO 8601 time with a zone: ${parsed}`);
}

/** The instant, or why `text` is not one. */
function readInstant(text: string): number | string {
  const m = ISO_INSTANT.exec(text);
  if (m === null) return `expected a time such as ${EXAMPLE} or 2026-11-23T01:30:00+02:00`;
  const [, y, mo, d, h, mi, s = "0", fraction = "", zulu, sign, offsetH = "0", offsetM = "0"] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12) return `no such month: ${mo}`;
  const days = daysInMonth(year, month);
  if (day < 1 || day > days) return `no such date: ${y}-${mo} has ${days} days`;
  if (h === undefined || mi === undefined) return `a date alone is not an instant; add a time and a zone, e.g. ${y}-${mo}-${d}T00:00:00Z`;
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (hour > 23 || minute > 59 || second > 59) return `no such time of day: ${h}:${mi}${m[6] === undefined ? "" : `:${s}`} (hours 00-23, minutes and seconds 00-59)`;
  if (zulu === undefined && sign === undefined) return `the time has no zone; add Z for UTC or an offset, e.g. ${text}Z or ${text}+02:00`;
  if (Number(offsetH) > 23 || Number(offsetM) > 59) return `no such UTC offset: ${sign}${offsetH}:${offsetM}`;
  const offsetMinutes = zulu !== undefined ? 0 : (sign === "-" ? -1 : 1) * (Number(offsetH) * 60 + Number(offsetM));
  const millis = Number(fraction.padEnd(3, "0").slice(0, 3));
  return daysFromCivil(year, month, day) * MS_PER_DAY + ((hour * 60 + minute - offsetMinutes) * 60 + second) * 1000 + millis;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant's days_from_civil). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}
