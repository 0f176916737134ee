import { TemporalRangeError, describeValue } from "./errors.js";
import type { Duration, TimeStamp } from "./types.js";
import { MAX_ABS_DAY_INDEX, TICKS_PER_DAY } from "./units.js";

const TICKS_PER_HOUR = 3_600_000;
const TICKS_PER_MINUTE = 60_000;
const TICKS_PER_SECOND = 1_000;

/** T-Watch: the signed duration from `start` to `end`. */
export function diff(start: TimeStamp, end: TimeStamp): Duration {
  assertStamp(start, "start");
  assertStamp(end, "end");
  // TICKS_PER_DAY = 2^10 * 84375, so the product is exact for any valid day delta; only the sum can leave the safe range
  const ticks = (end.day_index - start.day_index) * TICKS_PER_DAY + (end.phi_ticks - start.phi_ticks);
  if (!Number.isSafeInteger(ticks)) {
    throw new TemporalRangeError("DURATION_OUT_OF_RANGE", `the duration between ${describeValue(start)} and ${describeValue(end)} exceeds ${Number.MAX_SAFE_INTEGER} ms`);
  }
  return { ticks, ms: ticks, seconds: ticks / TICKS_PER_SECOND, iso8601: isoDuration(ticks) };
}

function assertStamp(stamp: TimeStamp, name: string): void {
  if (typeof stamp !== "object" || stamp === null) {
    throw new TemporalRangeError("INVALID_STAMP", `${name} must be a { day_index, phi_ticks } stamp, got ${describeValue(stamp)}`);
  }
  const { day_index, phi_ticks } = stamp;
  if (!Number.isInteger(day_index) || Math.abs(day_index) > MAX_ABS_DAY_INDEX) {
    throw new TemporalRangeError("INVALID_STAMP", `${name}.day_index must be an integer in [-${MAX_ABS_DAY_INDEX}, ${MAX_ABS_DAY_INDEX}], got ${describeValue(day_index)}`);
  }
  if (!Number.isInteger(phi_ticks) || phi_ticks < 0 || phi_ticks >= TICKS_PER_DAY) {
    throw new TemporalRangeError("INVALID_STAMP", `${name}.phi_ticks must be an integer in [0, ${TICKS_PER_DAY}), got ${describeValue(phi_ticks)}`);
  }
}

/** ISO 8601 duration with days of 24 hours, e.g. `P1DT2H3M4.005S`; negative durations get a leading `-`. */
function isoDuration(ticks: number): string {
  if (ticks === 0) return "PT0S";
  let rest = Math.abs(ticks);
  const days = Math.floor(rest / TICKS_PER_DAY);
  rest -= days * TICKS_PER_DAY;
  const hours = Math.floor(rest / TICKS_PER_HOUR);
  rest -= hours * TICKS_PER_HOUR;
  const minutes = Math.floor(rest / TICKS_PER_MINUTE);
  const millis = rest - minutes * TICKS_PER_MINUTE;
  let time = "";
  if (hours > 0) time += `${hours}H`;
  if (minutes > 0) time += `${minutes}M`;
  if (millis > 0) time += `${formatSeconds(millis)}S`;
  return `${ticks < 0 ? "-" : ""}P${days > 0 ? `${days}D` : ""}${time === "" ? "" : `T${time}`}`;
}

function formatSeconds(millis: number): string {
  const whole = Math.floor(millis / TICKS_PER_SECOND);
  const fraction = millis % TICKS_PER_SECOND;
  return fraction === 0 ? `${whole}` : `${whole}.${String(fraction).padStart(3, "0").replace(/0+$/, "")}`;
}
