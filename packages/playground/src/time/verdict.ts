import { clockTicks, contextAt, nextOpen, nextOpenInTimeZone, TICKS_PER_DEGREE, TICKS_PER_ZONE, TemporalError } from "@temporal/agent-sdk";
import type { Authority, Decision, DenyReason, Mission, MissionZone, PhaseContext, Verdict, Window } from "@temporal/agent-sdk";
import { formatClockTime } from "@temporal/compiler";

/**
 * What the panel says about one mission at the chosen instant: the verdict
 * and reasons of the compiled mission itself (`evaluate()`, the SDK's
 * decision, never a second reading of the rules), the reasons in words, and
 * when its phase windows next open or close, by the SDK's own searches.
 */
export interface VerdictView {
  readonly mission: string;
  readonly verdict: Verdict;
  readonly reasons: readonly { readonly code: DenyReason; readonly text: string }[];
  /** When every phase window is next open (`opens`), or, while they all are, when the first closes; undefined if never. */
  readonly next: { readonly kind: "opens" | "closes"; readonly unixMs: number } | undefined;
  /** `opens at 22:00 Z1 (UTC+2), in 2 h 5 min`, `closes at ...`, `always open`, `never opens again`. */
  readonly nextText: string;
}

export interface VerdictInput {
  readonly at: number;
  readonly carbon: number | null;
  readonly hsBloch: number | null;
  /** Only consulted for its clock when remote; the panel passes its in-memory one, so nothing runs on the default. */
  readonly authority: Authority;
}

export async function verdictOf(mission: Mission, input: VerdictInput): Promise<VerdictView> {
  const decision = await mission.evaluate({ sdk: input.authority, clock: () => input.at, carbon: input.carbon ?? undefined, hsBloch: input.hsBloch ?? undefined });
  const next = nextTransition(mission, decision);
  return {
    mission: mission.name,
    verdict: decision.verdict,
    reasons: decision.reasons.map((code) => ({ code, text: reasonText(code, mission, decision, input) })),
    next,
    nextText: transitionText(next, mission, decision),
  };
}

function nextTransition(mission: Mission, decision: Decision): VerdictView["next"] {
  if (decision.reasons.includes("PHASE_OUTSIDE_WINDOW")) return decision.next_open_unix_ms === undefined ? undefined : { kind: "opens", unixMs: decision.next_open_unix_ms };
  const closes = mission.requires.phase.flatMap((window) => {
    const closed = complement(window);
    return closed === undefined ? [] : (firstInstant(mission.zone, decision.ctx, closed) ?? []);
  });
  return closes.length === 0 ? undefined : { kind: "closes", unixMs: Math.min(...closes) };
}

/**
 * The ticks a window does not cover, as a window: bounds are inclusive and whole ticks,
 * so `[start, end]` is closed exactly on `[end + 1 tick, start - 1 tick]`. Undefined for the whole day.
 */
function complement([start, end]: Window): Window | undefined {
  const day = 360 * TICKS_PER_DEGREE;
  const startTick = Math.round(start * TICKS_PER_DEGREE);
  const endTick = Math.round(end * TICKS_PER_DEGREE);
  if (startTick === 0 && endTick === day) return undefined;
  return [((endTick + 1) % day) / TICKS_PER_DEGREE, ((startTick - 1 + day) % day) / TICKS_PER_DEGREE];
}

/** The SDK's search for the first instant at or after `ctx` the zone's clock is in `window`; undefined past the Date range. */
function firstInstant(zone: MissionZone, ctx: PhaseContext, window: Window): number | undefined {
  try {
    return typeof zone === "string" ? nextOpenInTimeZone(ctx, window, zone) : nextOpen(contextAt(ctx.unix_ms, { zone }), window);
  } catch (error) {
    if (error instanceof TemporalError && error.code === "BEYOND_DATE_RANGE") return undefined;
    throw error;
  }
}

function transitionText(next: VerdictView["next"], mission: Mission, decision: Decision): string {
  if (next === undefined) return decision.reasons.includes("PHASE_OUTSIDE_WINDOW") ? "never opens again" : "always open";
  return `${next.kind} at ${clockAt(next.unixMs, mission.zone)} ${zoneLabel(mission.zone)}, in ${durationText(next.unixMs - decision.ctx.unix_ms)}`;
}

function reasonText(code: DenyReason, mission: Mission, decision: Decision, input: VerdictInput): string {
  const { carbon, hs_bloch: hsBloch } = mission.requires;
  switch (code) {
    case "PHASE_OUTSIDE_WINDOW": {
      const windows = mission.requires.phase.map(([start, end]) => `${formatClockTime(start) ?? start}–${formatClockTime(end) ?? end}`).join(" and ");
      return `outside its window ${windows} in ${zoneLabel(mission.zone)}: the clock there reads ${clockAt(decision.ctx.unix_ms, mission.zone)}`;
    }
    case "CARBON_ABOVE_THRESHOLD":
      return `carbon ${input.carbon} gCO2eq/kWh is not ${carbon?.operator} ${carbon?.threshold}`;
    case "CARBON_UNKNOWN":
      return `carbon not measured: it needs ${carbon?.operator} ${carbon?.threshold} gCO2eq/kWh`;
    case "HS_BLOCH_BELOW_THRESHOLD":
      return `HS-Bloch ${input.hsBloch} is not ${hsBloch?.operator} ${hsBloch?.threshold}`;
    case "HS_BLOCH_UNKNOWN":
      return `HS-Bloch not measured: it needs ${hsBloch?.operator} ${hsBloch?.threshold}`;
    default:
      // The provider failures (*_UNAVAILABLE, *_INVALID, *_TIMEOUT): the SDK's own sentence.
      return decision.measure_failures?.find((failure) => failure.reason === code)?.message ?? code;
  }
}

/** The instant's clock time in the mission's zone: `22:00`, with seconds only when not zero. */
function clockAt(unixMs: number, zone: MissionZone): string {
  const ticks = typeof zone === "string" ? clockTicks(unixMs, zone) : contextAt(unixMs, { zone }).phase_deg * TICKS_PER_DEGREE;
  const minuteTicks = Math.round(ticks / 1000) * 1000;
  return formatClockTime(minuteTicks / TICKS_PER_DEGREE) ?? "";
}

/** `Z1 (UTC+2)`, `Z0 (UTC)`, or the IANA name. */
function zoneLabel(zone: MissionZone): string {
  if (typeof zone === "string") return zone;
  const hours = (zone * TICKS_PER_ZONE) / 3_600_000;
  const offset = hours > 12 ? hours - 24 : hours;
  return `Z${zone} (UTC${offset === 0 ? "" : offset > 0 ? `+${offset}` : offset})`;
}

/** `35 min`, `2 h 5 min`, `1 d 3 h`: to the nearest minute (a window closes 1 ms after its end), at least 1. */
function durationText(ms: number): string {
  const minutes = Math.max(1, Math.round(ms / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
  return hours % 24 === 0 ? `${Math.floor(hours / 24)} d` : `${Math.floor(hours / 24)} d ${hours % 24} h`;
}
