import { TemporalRangeError, TemporalTypeError, describeValue } from "./errors.js";
import type { KernelVersion, PhaseContext, ZoneInput } from "./types.js";
import { MAX_ABS_UNIX_MS, TICKS_PER_DAY, TICKS_PER_DEGREE, TICKS_PER_ZONE, ZONE_COUNT } from "./units.js";
import { parseZone } from "./zones.js";

export const KERNEL_VERSION: KernelVersion = "4.6.2";

export interface NowOptions {
  /** Pins time for tests and simulations; defaults to `Date.now`. */
  readonly clock?: () => number | Date;
  /** SWT zone of the context; defaults to Z0 (UTC). */
  readonly zone?: ZoneInput;
}

export interface ContextOptions {
  readonly zone?: ZoneInput;
  readonly source?: PhaseContext["source"];
}

/** The current phase context; asynchronous to share its shape with a remote authority's `now`. */
export async function now(options: NowOptions = {}): Promise<PhaseContext> {
  const { clock } = options;
  if (clock !== undefined && typeof clock !== "function") {
    throw new TemporalTypeError("INVALID_TIME", `clock must be a function returning Unix milliseconds or a Date, got ${describeValue(clock)}`);
  }
  return contextAt(clock === undefined ? Date.now() : clock(), { zone: options.zone });
}

/** The phase context of a given instant; fractional milliseconds are floored to the tick. */
export function contextAt(time: number | Date, options: ContextOptions = {}): PhaseContext {
  const unix_ms = toUnixMs(time);
  const swt_zone = options.zone === undefined ? 0 : parseZone(options.zone);
  const day_index = Math.floor(unix_ms / TICKS_PER_DAY);
  const phi_ticks = unix_ms - day_index * TICKS_PER_DAY;
  return {
    kernel_version: KERNEL_VERSION,
    unix_ms,
    utc: isoUtc(unix_ms),
    day_index,
    phi_ticks,
    swt_zone,
    tile_id: day_index * ZONE_COUNT + swt_zone,
    phase_deg: zoneTicks(phi_ticks, swt_zone) / TICKS_PER_DEGREE,
    utc_phase_deg: phi_ticks / TICKS_PER_DEGREE,
    source: options.source ?? "local",
  };
}

/**
 * The last instant formatted and its text. Formatting is the costliest part of a context, and a busy
 * service builds many contexts, often two per reply, within the same millisecond.
 */
let formattedMs = Number.NaN;
let formattedUtc = "";

function isoUtc(unixMs: number): string {
  if (unixMs !== formattedMs) {
    formattedUtc = new Date(unixMs).toISOString();
    formattedMs = unixMs;
  }
  return formattedUtc;
}

/** Unix milliseconds of a clock reading, floored to the tick; a RangeError for anything else. */
export function toUnixMs(time: number | Date): number {
  const ms = time instanceof Date ? time.getTime() : time;
  if (typeof ms !== "number" || !(Math.abs(ms) <= MAX_ABS_UNIX_MS)) {
    throw new TemporalRangeError("INVALID_TIME", `time must be a valid Date or Unix milliseconds within the Date range, got ${describeValue(time)}`);
  }
  return Math.floor(ms) + 0; // + 0 turns -0 into 0
}

function zoneTicks(phiTicks: number, zone: number): number {
  const ticks = phiTicks + zone * TICKS_PER_ZONE;
  return ticks >= TICKS_PER_DAY ? ticks - TICKS_PER_DAY : ticks;
}

/**
 * The zone-local phase of a context in ticks, validating only the two fields
 * it reads so that `allow` stays cheap.
 */
export function localTicks(ctx: PhaseContext): number {
  if (typeof ctx !== "object" || ctx === null) {
    throw new TemporalTypeError("INVALID_CONTEXT", `ctx must be a phase context object, got ${describeValue(ctx)}`);
  }
  const phi = ctx.phi_ticks;
  const zone = ctx.swt_zone;
  if (!(phi >= 0 && phi < TICKS_PER_DAY && (phi | 0) === phi)) {
    throw new TemporalTypeError("INVALID_CONTEXT", `ctx.phi_ticks must be an integer in [0, ${TICKS_PER_DAY}), got ${describeValue(phi)}`);
  }
  if (!(zone >= 0 && zone < ZONE_COUNT && (zone | 0) === zone)) {
    throw new TemporalTypeError("INVALID_CONTEXT", `ctx.swt_zone must be an integer 0..11, got ${describeValue(zone)}`);
  }
  return zoneTicks(phi, zone);
}

/** `ctx.unix_ms`, checked against `ctx.phi_ticks` so the two can be used together. */
export function contextUnixMs(ctx: PhaseContext): number {
  localTicks(ctx);
  const ms = ctx.unix_ms;
  if (!(Number.isSafeInteger(ms) && Math.abs(ms) <= MAX_ABS_UNIX_MS)) {
    throw new TemporalTypeError("INVALID_CONTEXT", `ctx.unix_ms must be an integer within the Date range, got ${describeValue(ms)}`);
  }
  const phi = ms - Math.floor(ms / TICKS_PER_DAY) * TICKS_PER_DAY;
  if (phi !== ctx.phi_ticks) {
    throw new TemporalTypeError("INVALID_CONTEXT", `ctx.unix_ms ${ms} does not match ctx.phi_ticks ${ctx.phi_ticks}`);
  }
  return ms;
}
