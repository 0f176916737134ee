import type { MissionInfo } from "@temporal/compiler";
import { allow, allowInTimeZone, defineMission, KERNEL_VERSION, type MissionZone, type Window } from "@temporal/agent-sdk";
import type { CodeLens } from "vscode-languageserver-types";
import { toRange, type Analysis } from "./analysis.js";
import { degreesToClock, fileZone, phaseAt } from "./clock.js";
import { durationText } from "./dial-text.js";
import type { ServiceContext } from "./service-context.js";

/**
 * A code lens per mission saying what its phase windows decide now, by the
 * injected clock: `ALLOW now` or `DENY: opens 20:00 (in 35 min)`. The
 * decision and the next opening are the runtime's own (`defineMission`'s
 * `evaluate` with a pinned clock), for a mission requiring only its
 * windows; the measures (carbon, HS-Bloch) are only known when it runs, so
 * the lens names them instead of guessing.
 */
export async function codeLenses(analysis: Analysis, context: ServiceContext): Promise<CodeLens[]> {
  const { document, model } = analysis;
  const zone = fileZone(model);
  const lenses: CodeLens[] = [];
  if (zone === undefined) return lenses;
  for (const mission of model.missions) {
    const windows = phaseWindows(mission);
    if (windows === undefined || mission.name === "") continue;
    const title = await verdictText(mission, windows, zone, context.now());
    lenses.push({ range: toRange(document, mission.range), command: { title, command: "" } });
  }
  return lenses;
}

/** The mission's windows in degrees, as the runtime takes them; undefined when a bound is unusable (the file has errors to fix first). */
function phaseWindows(mission: MissionInfo): Window[] | undefined {
  const windows: Window[] = [];
  for (const w of mission.windows) {
    if (w.normalized === null) return undefined;
    windows.push([w.start, w.end]);
  }
  return windows;
}

async function verdictText(mission: MissionInfo, windows: Window[], zone: MissionZone, now: Date): Promise<string> {
  // What compiled code checks: allow() on an SWT zone's context, allowInTimeZone() on an IANA zone's clock.
  const open = typeof zone === "string" ? (ctx: Parameters<typeof allow>[0], window: Window) => allowInTimeZone(ctx, window, zone) : allow;
  const runtime = defineMission({
    name: mission.name,
    kernel_version: KERNEL_VERSION,
    zone,
    requires: { phase: windows, carbon: null, hs_bloch: null },
    check: (ctx) => (windows.every((window) => open(ctx, window)) ? [] : ["PHASE_OUTSIDE_WINDOW"]),
    on: { ALLOW: [], DENY: [] },
  });
  const decision = await runtime.evaluate({ clock: () => now });
  const measures = measuresText(mission);
  if (decision.verdict === "ALLOW") return `ALLOW now${measures === "" ? "" : ` (if ${measures})`}`;
  const next = decision.next_open_unix_ms;
  if (next === undefined) return "DENY: the phase windows are never open together";
  const opens = degreesToClock(phaseAt(next, zone));
  return `DENY: opens ${opens} (in ${durationText(next - now.getTime())})${measures === "" ? "" : `, then if ${measures}`}`;
}

function measuresText(mission: MissionInfo): string {
  const parts = [
    ...(mission.carbon === undefined ? [] : [`carbon ${mission.carbon.operator} ${mission.carbon.threshold.raw}`]),
    ...(mission.hsBloch === undefined ? [] : [`hs_bloch ${mission.hsBloch.operator} ${mission.hsBloch.threshold.raw}`]),
  ];
  return parts.join(" and ");
}
