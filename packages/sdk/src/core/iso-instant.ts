/**
 * Strict parsing of ISO 8601 / RFC 3339 instants such as
 * `2024-05-01T12:30:00Z` or `2024-05-01T14:30:00+02:00`.
 *
 * `Date.parse` is not used: it reads a timestamp without an offset as local
 * time (so the result would depend on the machine's time zone) and accepts
 * engine-specific formats. Here an offset is required and the date is
 * converted with integer arithmetic.
 */

// date T time [seconds [fraction]] offset; "," is ISO 8601's other decimal sign
const ISO_INSTANT = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:([Zz])|([+-])(\d{2}):?(\d{2}))$/;

const MS_PER_DAY = 86_400_000;

/**
 * Unix milliseconds of an ISO 8601 instant with a UTC offset (`Z` or
 * `+hh:mm`), or `undefined` when `text` is not one. Seconds are optional;
 * fractions beyond the millisecond are truncated; a leap second (`:60`) is
 * not accepted.
 */
export function parseIsoInstant(text: string): number | undefined {
  const m = ISO_INSTANT.exec(text);
  if (m === null) return undefined;
  const [, y, mo, d, h, mi, s = "0", fraction = "", zulu, sign, offsetH = "0", offsetM = "0"] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const offsetMinutes = zulu !== undefined ? 0 : (sign === "-" ? -1 : 1) * (Number(offsetH) * 60 + Number(offsetM));
  if (Number(offsetH) > 23 || Number(offsetM) > 59) return undefined;
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
