import type { CarbonRequirement, Handler, HsBlochRequirement, Identifier, Mission, MissionFile, PhaseRequirement, SourceRange, Verdict } from "./ast.js";
import { FULL_CYCLE, windowTicks, type TickInterval } from "./phase-windows.js";
import { strictestCarbon, strictestHsBloch } from "./requirements.js";

/**
 * Phase 3½: AST to mission model, what the checker, code generation,
 * declarations and the language service read instead of walking the tree
 * and working things out again. Plain data with source ranges; computed
 * once per compile, for files with errors too (whatever could be resolved).
 */

export interface MissionModel {
  filename: string;
  /** The SWT zone the phase is read in: `@anchor Z<n>`'s n, 0 without `@anchor`, null for an IANA anchor. */
  zone: number | null;
  /**
   * `@anchor Europe/Paris`'s name as written, else null: the phase is then
   * the zone's local clock time (with daylight saving), and receipts use the
   * SWT zone nearest to its UTC offset at the decision's instant.
   */
  timeZone: string | null;
  missions: MissionInfo[];
  /** Missions and tasks with where they are defined and used, for go-to-definition, references and rename. */
  symbols: SymbolInfo[];
}

export interface MissionInfo {
  name: string;
  nameRange: SourceRange;
  range: SourceRange;
  /** Every `require phase`, in source order. */
  windows: ResolvedWindow[];
  /** Every `require carbon`, in source order; `carbon` is the one that decides (the strictest). */
  carbonRequirements: CarbonRequirement[];
  carbon: CarbonRequirement | undefined;
  hsBlochRequirements: HsBlochRequirement[];
  hsBloch: HsBlochRequirement | undefined;
  /** The first block for each verdict (a second one is an error, M501). */
  blocks: Partial<Record<Verdict, Block>>;
  /** The task names the mission can execute, in source order, each once. */
  tasks: string[];
  /** Whether any block anchors a receipt. */
  anchors: boolean;
}

/**
 * A phase window resolved once: degrees as written, the same window
 * normalised (360 is the point 0, except that [0, 360] is the whole cycle),
 * whether it wraps through 0, and its ticks (the runtime's resolution).
 * `ticks` is null when a bound is outside 0 to 360 or not a finite number.
 */
export interface ResolvedWindow {
  requirement: PhaseRequirement;
  start: number;
  end: number;
  normalized: { start: number; end: number } | null;
  wraps: boolean;
  alwaysOpen: boolean;
  ticks: TickInterval[] | null;
  range: SourceRange;
}

export interface Block {
  verdict: Verdict;
  range: SourceRange;
  steps: Step[];
}

/**
 * An anchor's `quorum` is the number of witness cosignatures to wait for, null without `quorum` (checked: a positive safe integer);
 * `signedZtt`, whether its receipt is ZTT-signed in the mission's phase window (checked: the mission has one to sign in, M510).
 */
export type Step = { kind: "execute"; task: string; range: SourceRange; taskRange: SourceRange } | { kind: "anchor"; quorum: number | null; signedZtt: boolean; range: SourceRange };

/**
 * A name and where it appears. A mission's definition is its declaration;
 * tasks are not declared in a mission file, so a task's definition is its
 * first `execute` in the file, and every `execute` of it is a reference
 * (the definition included).
 */
export interface SymbolInfo {
  kind: "mission" | "task";
  name: string;
  definition: SourceRange;
  references: SourceRange[];
}

export function analyze(ast: MissionFile): MissionModel {
  if (ast === null || typeof ast !== "object" || ast.kind !== "MissionFile") {
    throw new TypeError("analyze: expected the MissionFile AST returned by parse()");
  }
  const anchor = ast.directives.find((d) => d.kind === "AnchorDirective");
  const timeZone = anchor?.timeZone ?? null;
  const zone = timeZone === null ? (anchor?.zone ?? 0) : null;
  const missions = ast.missions.map(missionInfo);
  return { filename: ast.filename, zone, timeZone, missions, symbols: symbolsOf(ast.missions) };
}

function missionInfo(mission: Mission): MissionInfo {
  const phases: PhaseRequirement[] = [];
  const carbons: CarbonRequirement[] = [];
  const hsBlochs: HsBlochRequirement[] = [];
  const blocks: Partial<Record<Verdict, Block>> = {};
  for (const item of mission.items) {
    if (item.kind === "PhaseRequirement") phases.push(item);
    else if (item.kind === "CarbonRequirement") carbons.push(item);
    else if (item.kind === "HsBlochRequirement") hsBlochs.push(item);
    else blocks[item.verdict] ??= blockOf(item);
  }
  const allSteps = mission.items.flatMap((item) => (item.kind === "Handler" ? item.body : []));
  return {
    name: mission.name.name,
    nameRange: mission.name.range,
    range: mission.range,
    windows: phases.map(resolveWindow),
    carbonRequirements: carbons,
    carbon: strictestCarbon(carbons),
    hsBlochRequirements: hsBlochs,
    hsBloch: strictestHsBloch(hsBlochs),
    blocks,
    tasks: [...new Set(allSteps.flatMap((s) => (s.kind === "ExecuteStatement" ? [s.task.name] : [])))],
    anchors: allSteps.some((s) => s.kind === "AnchorStatement"),
  };
}

function blockOf(handler: Handler): Block {
  return {
    verdict: handler.verdict,
    range: handler.range,
    steps: handler.body.map((s): Step =>
      s.kind === "ExecuteStatement"
        ? { kind: "execute", task: s.task.name, range: s.range, taskRange: s.task.range }
        : { kind: "anchor", quorum: s.quorum?.value ?? null, signedZtt: s.signedZtt !== null, range: s.range },
    ),
  };
}

function resolveWindow(requirement: PhaseRequirement): ResolvedWindow {
  const start = requirement.start.value;
  const end = requirement.end.value;
  const resolvable = [start, end].every((bound) => bound >= 0 && bound <= 360);
  const ticks = resolvable ? windowTicks(start, end) : null;
  const normalized = resolvable ? { start: start % 360, end: start === 0 && end === 360 ? 360 : end % 360 } : null;
  return {
    requirement,
    start,
    end,
    normalized,
    wraps: ticks !== null && ticks.length === 2,
    alwaysOpen: ticks === FULL_CYCLE,
    ticks,
    range: requirement.range,
  };
}

function symbolsOf(missions: readonly Mission[]): SymbolInfo[] {
  const symbols: SymbolInfo[] = missions.map((m) => ({ kind: "mission", name: m.name.name, definition: m.name.range, references: [m.name.range] }));
  const tasks = new Map<string, SymbolInfo>();
  for (const mission of missions) {
    for (const item of mission.items) {
      if (item.kind !== "Handler") continue;
      for (const statement of item.body) if (statement.kind === "ExecuteStatement") addReference(tasks, statement.task);
    }
  }
  return [...symbols, ...tasks.values()];
}

function addReference(tasks: Map<string, SymbolInfo>, task: Identifier): void {
  const known = tasks.get(task.name);
  if (known === undefined) tasks.set(task.name, { kind: "task", name: task.name, definition: task.range, references: [task.range] });
  else known.references.push(task.range);
}
