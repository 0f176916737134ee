import { TemporalRangeError, describeValue } from "./errors.js";
import { ZONE_COUNT } from "./units.js";

const ZONE_CODE = /^Z(?:[0-9]|1[01])$/;

/** Accepts a `ZoneInput` (`3` or `"Z3"`) from anywhere; anything else is a RangeError naming the value. */
export function parseZone(zone: unknown): number {
  if (typeof zone === "number" && Number.isInteger(zone) && zone >= 0 && zone < ZONE_COUNT) return zone;
  if (typeof zone === "string" && ZONE_CODE.test(zone)) return Number(zone.slice(1));
  throw new TemporalRangeError("INVALID_ZONE", `zone must be an integer 0..11 or "Z0".."Z11", got ${describeValue(zone)}`);
}

/** Zones are two hours wide: round(minutes / 120) mod 12, so UTC+1 -> Z1, UTC-5 -> Z10, UTC+5:30 -> Z3. */
export function zoneFromUtcOffset(minutes: number): number {
  if (typeof minutes !== "number" || !(Math.abs(minutes) <= 1440)) {
    throw new TemporalRangeError("INVALID_UTC_OFFSET", `UTC offset must be a number of minutes in [-1440, 1440], got ${describeValue(minutes)}`);
  }
  const zone = Math.round(minutes / 120) % ZONE_COUNT;
  return zone < 0 ? zone + ZONE_COUNT : zone + 0; // + 0 turns -0 into 0
}

/** The zone of an IANA time zone at a given instant (offsets change with daylight saving). */
export function zoneFromTimeZone(ianaName: string, date: Date | number = Date.now()): number {
  const instant = typeof date === "number" ? date : date instanceof Date ? date.getTime() : Number.NaN;
  if (!Number.isFinite(instant)) {
    throw new TemporalRangeError("INVALID_TIME", `date must be a valid Date or Unix milliseconds, got ${describeValue(date)}`);
  }
  return zoneFromUtcOffset(utcOffsetMinutes(ianaName, instant));
}

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

function offsetFormatter(ianaName: string): Intl.DateTimeFormat {
  let formatter = offsetFormatters.get(ianaName);
  if (formatter === undefined) {
    try {
      formatter = new Intl.DateTimeFormat("en-US", { timeZone: ianaName, timeZoneName: "longOffset" });
    } catch {
      throw new TemporalRangeError("INVALID_TIME_ZONE", `unknown IANA time zone ${describeValue(ianaName)}`);
    }
    offsetFormatters.set(ianaName, formatter);
  }
  return formatter;
}

// "GMT", "GMT+05:30", "GMT-10:00"; some engines print U+2212 for the minus sign.
const LONG_OFFSET = /^GMT(?:([+\u2212-])(\d{1,2})(?::?(\d{2}))?(?::?(\d{2}))?)?$/;

/** The UTC offset of an IANA time zone at an instant, in minutes (fractional for offsets with seconds); `INVALID_TIME_ZONE` for unknown names. */
export function utcOffsetMinutes(ianaName: string, instant: number): number {
  if (typeof ianaName !== "string" || ianaName === "") {
    throw new TemporalRangeError("INVALID_TIME_ZONE", `time zone must be an IANA name such as "Europe/Paris", got ${describeValue(ianaName)}`);
  }
  const part = offsetFormatter(ianaName)
    .formatToParts(instant)
    .find((p) => p.type === "timeZoneName");
  const match = part === undefined ? null : LONG_OFFSET.exec(part.value);
  if (match === null) {
    throw new TemporalRangeError("INVALID_TIME_ZONE", `cannot read the UTC offset of ${describeValue(ianaName)} (got ${describeValue(part?.value)})`);
  }
  const [, sign, hours = "0", minutes = "0", seconds = "0"] = match;
  const magnitude = Number(hours) * 60 + Number(minutes) + Number(seconds) / 60;
  return sign === "+" || sign === undefined ? magnitude : -magnitude;
}
