import type { Authority, Decision, DenyReason, Mission, Verdict } from "@temporal/agent-sdk";
import { dialClockText, timeUntilText, type FileDial } from "@temporal/language-service";

/**
 * What the panel says about one mission at the chosen instant: the verdict
 * and reasons of the compiled mission itself (`evaluate()`, the SDK's
 * decision, never a second reading of the rules), the reasons in words, and
 * when its phase windows next open or close: the dial's transition
 * (`missionDials`, from the SDK's own searches), the same the dial draws.
 */
export interface VerdictView {
  readonly mission: string;
  readonly verdict: Verdict;
  readonly reasons: readonly { readonly code: DenyReason; readonly text: string }[];
  /** When the phase windows next open, or close while open; undefined when they never change. */
  readonly next: { readonly kind: "opens" | "closes"; readonly unixMs: number } | undefined;
  /** `opens at 22:00 Z1 (UTC+2), in 2 h 5 min` (the wait in `temporalc show`'s words), `closes at ...`, `always open`, `never opens again`. */
  readonly nextText: string;
}

export interface VerdictInput {
  readonly at: number;
  readonly carbon: number | null;
  readonly hsBloch: number | null;
  /** Only consulted for its clock when remote; the panel passes its in-memory one, so nothing runs on the default. */
  readonly authority: Authority;
}

/** `dial` is `missionDials()` of the same file's model at the same instant. */
export async function verdictOf(mission: Mission, dial: FileDial, input: VerdictInput): Promise<VerdictView> {
  const decision = await mission.evaluate({ sdk: input.authority, clock: () => input.at, carbon: input.carbon ?? undefined, hsBloch: input.hsBloch ?? undefined });
  const transition = dial.missions.find((m) => m.name === mission.name)?.next ?? null;
  const open = !decision.reasons.includes("PHASE_OUTSIDE_WINDOW");
  return {
    mission: mission.name,
    verdict: decision.verdict,
    reasons: decision.reasons.map((code) => ({ code, text: reasonText(code, mission, decision, dial, input) })),
    next: transition === null ? undefined : { kind: transition.kind, unixMs: transition.at },
    nextText: transition === null ? (open ? "always open" : "never opens again") : `${transition.kind} at ${transition.clock} ${dial.zoneLabel}, ${timeUntilText(input.at, transition.at)}`,
  };
}

function reasonText(code: DenyReason, mission: Mission, decision: Decision, dial: FileDial, input: VerdictInput): string {
  const { carbon, hs_bloch: hsBloch } = mission.requires;
  switch (code) {
    case "PHASE_OUTSIDE_WINDOW": {
      const windows = mission.requires.phase.map(([start, end]) => `${dialClockText(start)}–${dialClockText(end)}`).join(" and ");
      return `outside its window ${windows} in ${dial.zoneLabel}: the clock there reads ${dialClockText(dial.nowDeg)}`;
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
