import { signsZtt, type AnchorProof, type Decision, type DenyReason, type Mission, type MissionStep, type RunResult, type ZttBundle } from "@temporal/agent-sdk";
import { windowClockTimes } from "@temporal/compiler";
import { timeUntilText } from "@temporal/language-service";
import { clockTime, timeZoneClockTime, timeZoneOffsetLabel, utcOffsetLabel } from "./zone-clock.js";

/**
 * The text `temporalc run` prints for each mission: the verdict, the phase
 * as degrees and as clock time, each reason for a DENY with what would
 * change it, and what ran and was anchored (or, with --dry-run, what would).
 * A mission anchored to an IANA time zone is reported on that zone's wall
 * clock (`Decision.clock`), windows as clock times; SWT missions in degrees
 * and their zone's clock.
 */

/** A decision (`--dry-run`), or a decision and what its block did. */
export type Outcome = Decision | RunResult;

export interface ReportContext {
  readonly missions: ReadonlyMap<string, Mission>;
  /** The measures given on the command line, to say why a threshold failed. */
  readonly carbon: number | undefined;
  readonly hsBloch: number | undefined;
  /** Where receipts are anchored, for --dry-run: `home /srv/temporal` or `the service at https://...`. */
  readonly anchoredIn: string;
  readonly color: boolean;
}

const GREEN = "\u001b[32m";
const RED = "\u001b[31m";
const RESET = "\u001b[39m";

export function describeOutcome(outcome: Outcome, report: ReportContext): string {
  const lines = [head(outcome, report), ...outcome.reasons.map((reason) => `  ${reason}: ${explain(reason, outcome, report)}`)];
  if ("executed" in outcome) {
    lines.push(`  ran: ${outcome.executed.length === 0 ? "nothing" : outcome.executed.join(", ")}`);
    lines.push(...outcome.anchors.map(describeAnchor));
    lines.push(...(outcome.ztt ?? []).map(describeZtt));
  } else {
    const steps = report.missions.get(outcome.mission)?.on[outcome.verdict] ?? [];
    lines.push(...plan(steps, report.anchoredIn));
    if (steps.some(signsZtt)) lines.push("  would ZTT-sign: the receipt, with a key certified for the mission's window only");
  }
  return `${lines.join("\n")}\n`;
}

function head(outcome: Outcome, report: ReportContext): string {
  const { ctx, clock } = outcome;
  const verdict = report.color ? `${outcome.verdict === "ALLOW" ? GREEN : RED}${outcome.verdict}${RESET}` : outcome.verdict;
  const phase =
    clock === undefined
      ? `phase ${degrees(ctx.phase_deg)}° = ${clockTime(ctx.unix_ms, ctx.swt_zone)} in Z${ctx.swt_zone} (${utcOffsetLabel(ctx.swt_zone)})`
      : `phase ${degrees(clock.phase_deg)}° = ${timeZoneClockTime(ctx.unix_ms, clock.time_zone)} in ${clock.time_zone} (${timeZoneOffsetLabel(ctx.unix_ms, clock.time_zone)}; receipts in Z${ctx.swt_zone})`;
  return `${outcome.mission}: ${verdict} at ${ctx.utc}, ${phase}`;
}

function degrees(phase: number): number {
  return Number(phase.toFixed(3));
}

/** One reason for a DENY, said so that it says what to change. */
function explain(reason: DenyReason, outcome: Outcome, report: ReportContext): string {
  const requires = report.missions.get(outcome.mission)?.requires;
  const failure = outcome.measure_failures?.find((f) => f.reason === reason);
  if (failure !== undefined) return failure.message;
  switch (reason) {
    case "PHASE_OUTSIDE_WINDOW":
      return opening(outcome, requires?.phase.map((w) => windowText(w, outcome.clock !== undefined)).join(" and ") ?? "the window");
    case "CARBON_UNKNOWN":
      return "pass --carbon N (gCO2eq/kWh) or a carbon provider";
    case "HS_BLOCH_UNKNOWN":
      return "pass --hs-bloch Q (a score from 0 to 1) or an HS-Bloch provider";
    case "CARBON_ABOVE_THRESHOLD":
      return requires?.carbon ? `${report.carbon} is not ${requires.carbon.operator} ${requires.carbon.threshold}` : "the grid carbon intensity is above the threshold";
    case "HS_BLOCH_BELOW_THRESHOLD":
      return requires?.hs_bloch ? `${report.hsBloch} is not ${requires.hs_bloch.operator} ${requires.hs_bloch.threshold}` : "the HS-Bloch score is below the threshold";
    default:
      return "the measure could not be read";
  }
}

/** `[300, 30]` for an SWT mission; `[20:00, 02:00]` on a time zone's clock. */
function windowText([start, end]: readonly [number, number], onClock: boolean): string {
  const times = onClock ? windowClockTimes({ start, end }) : undefined;
  return times === undefined ? `[${start}, ${end}]` : `[${times.start}, ${times.end}]`;
}

function opening(outcome: Outcome, windows: string): string {
  const next = outcome.next_open_unix_ms;
  if (next === undefined) return `${windows} does not open again within the Date range`;
  const timeZone = outcome.clock?.time_zone;
  const zone = outcome.ctx.swt_zone;
  const at =
    timeZone === undefined
      ? `${clockTime(next, zone)} Z${zone}${zone === 0 ? "" : ` (${clockTime(next, 0)} UTC)`}`
      : `${timeZoneClockTime(next, timeZone)} ${timeZone} (${clockTime(next, 0)} UTC)`;
  return `${windows} opens at ${at}, ${timeUntilText(outcome.ctx.unix_ms, next)} (${new Date(next).toISOString()})`;
}

/** What the verdict's block would do, for --dry-run. */
function plan(steps: readonly MissionStep[], anchoredIn: string): string[] {
  const tasks = steps.flatMap((step) => ("execute" in step ? [step.execute] : []));
  const anchors = steps.length - tasks.length;
  return [
    `  would run: ${tasks.length === 0 ? "nothing" : tasks.join(", ")}`,
    `  would anchor: ${anchors === 0 ? "nothing" : `${anchors === 1 ? "a receipt" : `${anchors} receipts`} (TSAE) in the clockchain of ${anchoredIn}`}`,
  ];
}

/** A ZTT bundle: the opening its key was certified for, and which keys; `verifyZtt` (or the JSON output) has the rest. */
function describeZtt(bundle: ZttBundle): string {
  const { certificate } = bundle;
  const opening = `${new Date(certificate.start_unix_ms).toISOString()} to ${new Date(certificate.end_unix_ms).toISOString()}`;
  return `  receipt ZTT-signed: window [${certificate.window_deg.join(", ")}] in Z${certificate.swt_zone}, open ${opening}; key ${bundle.key_id} certified by ${certificate.key_id}`;
}

function describeAnchor(anchor: AnchorProof): string {
  return `  receipt anchored: tile ${anchor.tile_id}, leaf ${anchor.leaf_index} of ${anchor.tree_size}, root ${anchor.root_hash}`;
}
