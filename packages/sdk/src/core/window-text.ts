/**
 * The text a person types for a window and a zone: `temporalc verify --window 330,30 --zone Z1` and
 * `temporal-service --ztt-window 330,30 --ztt-zone Z1` both read it here, so both accept exactly the same strings.
 * Strict on purpose, and the same values the config file's `ztt` takes as JSON:
 *
 * - a window is two plain decimal numbers of degrees in 0..360, start,end (spaces around them allowed); `start >
 *   end` wraps through 0, as `allow` reads windows; no signs, exponents, hex or missing digits (`1e2`, `0x10`,
 *   `.5`, `5.`), since those are typos far more often than intent. The numbers are kept as written, not
 *   normalised: `allow` treats 360 and 0 as the same phase, but ZTT's `certificate_interval` compares a
 *   certificate's `window_deg` exactly, so `330,0` does not match a certificate for [330, 360];
 * - a zone is `Z0`..`Z11`, or its number `0`..`11` in canonical digits (`01` is refused, like `z1` and ` 1`).
 *
 * Bad text is an answer, not an exception: `undefined`, and the caller reports the rule (`WINDOW_TEXT_RULE`,
 * `ZONE_TEXT_RULE`) with its own flag name and error code.
 */
import type { Window } from "./types.js";

/** What `parseWindowText` accepts, for a usage message. */
export const WINDOW_TEXT_RULE = "a window is two phases in degrees 0..360 as start,end, e.g. 330,30 (which wraps through 0)";

/** What `parseZoneText` accepts, for a usage message. */
export const ZONE_TEXT_RULE = "a zone is Z0..Z11, or its number 0..11";

const WINDOW_TEXT = /^\s*(\d+(?:\.\d+)?)\s*,\s*(\d+(?:\.\d+)?)\s*$/;
const ZONE_TEXT = /^Z?([0-9]|1[01])$/;

/** `"330,30"` to `[330, 30]`; undefined unless it is two degrees in 0..360 (see the rules above). */
export function parseWindowText(text: string): Window | undefined {
  const match = WINDOW_TEXT.exec(text);
  if (match === null) return undefined;
  const start = Number(match[1]);
  const end = Number(match[2]);
  return start <= 360 && end <= 360 ? [start, end] : undefined;
}

/** `"Z1"` or `"1"` to `1`; undefined for anything else. */
export function parseZoneText(text: string): number | undefined {
  const match = ZONE_TEXT.exec(text);
  return match === null ? undefined : Number(match[1]);
}
