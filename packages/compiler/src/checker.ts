import type {
  AnchorDirective,
  AnchorStatement,
  Comment,
  CarbonRequirement,
  Handler,
  HsBlochRequirement,
  Identifier,
  LanguageVersion,
  Mission,
  MissionFile,
  PhaseRequirement,
  SourceRange,
  VersionDirective,
} from "./ast.js";
import { compareDiagnostics, diagnostic, MAX_ANCHORING_NAME_LENGTH, MAX_REALISTIC_CARBON, MAX_REALISTIC_QUORUM, replacement, type Diagnostic } from "./diagnostics.js";
import { analyze, type MissionInfo, type MissionModel, type ResolvedWindow } from "./analyze.js";
import { intersectTicks, satisfiablePrefix, type TickInterval } from "./phase-windows.js";
import { strictestCarbon, strictestHsBloch } from "./requirements.js";
import { checkAnchors, checkClockShifts, checkClockTimes, type Report } from "./clock-checks.js";
import { checkAnchorStatements } from "./anchor-checks.js";
import { hasComment } from "./comments.js";
import { isWellFormedNumber } from "./grammar.js";
import { anchorStatementText } from "./printer.js";
import { LANGUAGE_VERSION, LANGUAGE_VERSION_TEXT } from "./version.js";

/**
 * Phase 3: AST to diagnostics. Reads the tree, never changes it.
 */

/** `model` is `analyze(ast)`, for a caller that already has it (compile does): windows are resolved once. */
export function check(ast: MissionFile, model?: MissionModel): Diagnostic[] {
  if (ast === null || typeof ast !== "object" || ast.kind !== "MissionFile") {
    throw new TypeError("check: expected the MissionFile AST returned by parse()");
  }
  const analysis = model ?? analyze(ast);
  const report = reporter(ast.filename);
  checkDirectives(ast, report);
  checkMissionNames(ast, report);
  checkReceiptScopes(analysis, report);
  checkClockTimes(ast, report);
  checkClockShifts(analysis, report);
  ast.missions.forEach((mission, index) => {
    const info = analysis.missions[index]!;
    checkMission(mission, info, ast.comments, report);
    checkAnchorStatements(mission, info, analysis.timeZone, ast.comments, report);
  });
  return report.diagnostics.sort(compareDiagnostics);
}

type Reporter = Report & { diagnostics: Diagnostic[] };

function reporter(file: string): Reporter {
  const diagnostics: Diagnostic[] = [];
  const report: Report = (code, range, params, details) => {
    diagnostics.push(diagnostic(code, file, range, params, details));
  };
  return Object.assign(report, { diagnostics });
}

function checkDirectives(ast: MissionFile, report: Reporter): void {
  const versions = ast.directives.filter((d): d is VersionDirective => d.kind === "VersionDirective");
  const anchors = ast.directives.filter((d): d is AnchorDirective => d.kind === "AnchorDirective");
  const firstVersion = versions[0];
  if (firstVersion === undefined) {
    const start = ast.range.start;
    const directive = `@temporal ${LANGUAGE_VERSION_TEXT}`;
    report(
      "M202",
      { start, end: start },
      {},
      {
        fixes: [{ title: `insert \`${directive}\``, edits: [{ range: { start, end: start }, newText: `${directive}\n` }] }],
      },
    );
  } else if (firstVersion.version !== null) {
    checkVersion(firstVersion.version, firstVersion.range, report);
  }
  reportRepeats(versions, "@temporal", report);
  reportRepeats(anchors, "@anchor", report);
  checkAnchors(anchors, report);
  const firstMission = ast.missions[0];
  if (firstMission === undefined) {
    const end = ast.range.end;
    report("M505", { start: end, end }, {});
    return;
  }
  for (const directive of ast.directives) {
    if (directive.range.start.offset > firstMission.range.start.offset) {
      report(
        "M104",
        directive.range,
        {},
        {
          notes: [{ message: "the first mission starts here", range: firstMission.name.range }],
        },
      );
    }
  }
}

function checkVersion(version: LanguageVersion, range: SourceRange, report: Reporter): void {
  const { major, minor, patch } = version;
  if (major !== LANGUAGE_VERSION.major) {
    report("M200", range, { raw: version.raw });
    return;
  }
  const written = [minor ?? 0, patch ?? 0] as const;
  const supported = [LANGUAGE_VERSION.minor, LANGUAGE_VERSION.patch] as const;
  const newer = written[0] > supported[0] || (written[0] === supported[0] && written[1] > supported[1]);
  if (newer) {
    report("M201", range, { raw: version.raw });
  }
}

function reportRepeats(directives: (VersionDirective | AnchorDirective)[], name: string, report: Reporter): void {
  const [first, ...repeats] = directives;
  if (first === undefined) return;
  for (const repeat of repeats) {
    report(
      "M203",
      repeat.range,
      { directive: name },
      {
        notes: [{ message: "first written here", range: first.range }],
      },
    );
  }
}

function checkMissionNames(ast: MissionFile, report: Reporter): void {
  reportDuplicateNames(
    ast.missions.map((m) => m.name),
    (name, first) => report("M500", name.range, { mission: name.name }, { notes: [{ message: "first declared here", range: first.range }] }),
  );
}

/** Receipt scopes name missions in lower case: two anchoring missions must not share one. */
function checkReceiptScopes(model: MissionModel, report: Reporter): void {
  const firstByScope = new Map<string, MissionInfo>();
  for (const mission of model.missions.filter((m) => m.anchors)) {
    const scope = mission.name.toLowerCase();
    const first = firstByScope.get(scope);
    if (first === undefined) firstByScope.set(scope, mission);
    else if (first.name !== mission.name) {
      report("M507", mission.nameRange, { first: first.name, second: mission.name }, { notes: [{ message: "the other mission", range: first.nameRange }] });
    }
  }
}

function reportDuplicateNames(names: Identifier[], onDuplicate: (name: Identifier, first: Identifier) => void): void {
  const firstByName = new Map<string, Identifier>();
  for (const name of names) {
    const first = firstByName.get(name.name);
    if (first === undefined) firstByName.set(name.name, name);
    else onDuplicate(name, first);
  }
}

function checkMission(mission: Mission, info: MissionInfo, comments: readonly Comment[], report: Reporter): void {
  checkPhases(mission, info.windows, report);
  checkCarbon(info.carbonRequirements, report);
  checkHsBloch(info.hsBlochRequirements, comments, report);
  checkHandlers(
    mission,
    mission.items.filter((i): i is Handler => i.kind === "Handler"),
    comments,
    report,
  );
  if (info.anchors && mission.name.name.length > MAX_ANCHORING_NAME_LENGTH) {
    report("M506", mission.name.range, { mission: mission.name.name });
  }
}

/**
 * The same angle written within 0 to 360 (400 is 40, -30 is 330): a bound
 * past a full turn names the same point of the cycle, so this keeps what
 * the window was meant to be rather than clamping it to an end. None when
 * the written number has more precision than a short decimal can carry.
 */
function sameAngle(degrees: number): string | undefined {
  const angle = ((degrees % 360) + 360) % 360;
  const text = String(Number(angle.toFixed(9)));
  return /^\d+(?:\.\d+)?$/.test(text) ? text : undefined;
}

function showWindow(requirement: PhaseRequirement): string {
  return `[${requirement.start.raw}, ${requirement.end.raw}]`;
}

function checkPhases(mission: Mission, windows: ResolvedWindow[], report: Reporter): void {
  const valid: { requirement: PhaseRequirement; ticks: TickInterval[] }[] = [];
  for (const { requirement, ticks, alwaysOpen } of windows) {
    let inRange = true;
    for (const bound of [requirement.start, requirement.end]) {
      if (bound.value >= 0 && bound.value <= 360) continue;
      inRange = false;
      // A number too large to be finite already has its error (M108).
      if (!Number.isFinite(bound.value)) continue;
      const angle = sameAngle(bound.value);
      report(
        "M300",
        bound.range,
        { bound: bound.raw },
        {
          ...(angle === undefined ? {} : { fixes: [replacement(bound.range, angle)] }),
        },
      );
    }
    if (!inRange || ticks === null) continue;
    const start = requirement.start.value;
    const end = requirement.end.value;
    if (alwaysOpen) {
      report("M302", requirement.range, { window: showWindow(requirement) });
      continue;
    }
    if (start % 360 === end % 360 || (ticks.length === 1 && ticks[0]![0] === ticks[0]![1])) {
      report("M301", requirement.range, { window: showWindow(requirement) });
      continue;
    }
    valid.push({ requirement, ticks });
  }

  const index = satisfiablePrefix(valid.map((v) => v.ticks));
  const current = valid[index];
  if (current === undefined) return;
  const earlier = valid.slice(0, index);
  const disjoint = earlier.find((e) => intersectTicks(e.ticks, current.ticks).length === 0);
  const others = disjoint === undefined ? earlier : [disjoint];
  const described = others.map((o) => showWindow(o.requirement)).join(" and ");
  report(
    "M303",
    current.requirement.range,
    { window: showWindow(current.requirement), others: described, together: disjoint === undefined, mission: mission.name.name },
    { notes: others.map((o) => ({ message: `${showWindow(o.requirement)} is required here`, range: o.requirement.range })) },
  );
}

function checkCarbon(carbons: CarbonRequirement[], report: Reporter): void {
  for (const requirement of carbons) {
    const { threshold } = requirement;
    if (!Number.isFinite(threshold.value)) continue;
    if (threshold.value <= 0) {
      report("M400", threshold.range, { threshold: threshold.raw });
    } else if (threshold.value > MAX_REALISTIC_CARBON) {
      report("M401", threshold.range, { threshold: threshold.raw });
    }
  }
  reportIneffective(
    carbons.filter((r) => r.threshold.value > 0 && Number.isFinite(r.threshold.value)),
    strictestCarbon,
    "M402",
    (r) => `carbon ${r.operator} ${r.threshold.raw}`,
    report,
  );
}

function checkHsBloch(hsBlochs: HsBlochRequirement[], comments: readonly Comment[], report: Reporter): void {
  for (const requirement of hsBlochs) {
    const { threshold } = requirement;
    if (!Number.isFinite(threshold.value)) continue;
    if (threshold.value < 0 || threshold.value > 1) {
      report("M410", threshold.range, { threshold: threshold.raw });
    } else if (threshold.value === 1 && requirement.operator === ">") {
      report(
        "M412",
        requirement.range,
        {},
        {
          ...(hasComment(requirement.range, comments) ? {} : { fixes: [replacement(requirement.range, `require hs_bloch >= ${threshold.raw}`)] }),
        },
      );
    }
  }
  reportIneffective(
    hsBlochs.filter((r) => r.threshold.value >= 0 && r.threshold.value <= 1),
    strictestHsBloch,
    "M411",
    (r) => `hs_bloch ${r.operator} ${r.threshold.raw}`,
    report,
  );
}

/** Several requirements on one quantity: all must hold, so only the strictest matters. */
function reportIneffective<R extends CarbonRequirement | HsBlochRequirement>(
  requirements: R[],
  findStrictest: (requirements: R[]) => R | undefined,
  code: "M402" | "M411",
  show: (requirement: R) => string,
  report: Reporter,
): void {
  if (requirements.length < 2) return;
  const strictest = findStrictest(requirements)!;
  for (const requirement of requirements) {
    if (requirement === strictest) continue;
    const repeated = requirement.operator === strictest.operator && requirement.threshold.value === strictest.threshold.value;
    report(
      code,
      requirement.range,
      { requirement: show(requirement), strictest: show(strictest), repeated },
      { notes: [{ message: repeated ? "first written here" : "the strictest requirement", range: strictest.range }] },
    );
  }
}

function checkHandlers(mission: Mission, handlers: Handler[], comments: readonly Comment[], report: Reporter): void {
  const firstByVerdict = new Map<string, Handler>();
  for (const handler of handlers) {
    const first = firstByVerdict.get(handler.verdict);
    if (first !== undefined) {
      report("M501", handler.range, { mission: mission.name.name, verdict: handler.verdict }, { notes: [{ message: "first block here", range: first.range }] });
    } else {
      firstByVerdict.set(handler.verdict, handler);
    }
    checkHandlerBody(handler, comments, report);
  }
  if (!firstByVerdict.has("ALLOW")) {
    report("M502", mission.name.range, { mission: mission.name.name });
  }
}

function checkHandlerBody(handler: Handler, comments: readonly Comment[], report: Reporter): void {
  reportDuplicateNames(
    handler.body.flatMap((s) => (s.kind === "ExecuteStatement" ? [s.task] : [])),
    (task, first) =>
      report(
        "M503",
        task.range,
        { task: task.name },
        {
          notes: [{ message: "first run here", range: first.range }],
        },
      ),
  );
  const anchors = handler.body.filter((s) => s.kind === "AnchorStatement");
  for (const anchor of anchors) checkQuorum(anchor, comments, report);
  const [firstAnchor, ...moreAnchors] = anchors;
  for (const anchor of moreAnchors) {
    report("M504", anchor.range, {}, { notes: [{ message: "first anchor here", range: firstAnchor!.range }] });
  }
}

/**
 * A quorum counts witness cosignatures: a whole number from 1 up. Whether
 * that many witnesses are configured is known only when the mission runs,
 * so a quorum above them is the runtime's error, not the checker's.
 */
function checkQuorum(anchor: AnchorStatement, comments: readonly Comment[], report: Reporter): void {
  const quorum = anchor.quorum;
  // A malformed number (M103) or one too large to be finite (M108) already has its error.
  if (quorum === null || !isWellFormedNumber(quorum.raw) || !Number.isFinite(quorum.value)) return;
  const { value, raw } = quorum;
  if (value <= 0) {
    // The fix drops this quorum clause and keeps the statement's others (`signed ZTT`).
    const kept = anchor.clauses.filter((clause) => !(clause.kind === "Quorum" && clause.value === quorum));
    const fixes = hasComment(anchor.range, comments) ? [] : [replacement(anchor.range, anchorStatementText(kept))];
    report("M508", quorum.range, { quorum: raw, problem: "not positive", rounded: undefined }, { fixes });
  } else if (!Number.isInteger(value)) {
    const rounded = Math.ceil(value);
    const certain = Number.isSafeInteger(rounded) ? String(rounded) : undefined;
    report("M508", quorum.range, { quorum: raw, problem: "fraction", rounded: certain }, certain === undefined ? {} : { fixes: [replacement(quorum.range, certain)] });
  } else if (!Number.isSafeInteger(value)) {
    report("M508", quorum.range, { quorum: raw, problem: "too large", rounded: undefined });
  } else if (value > MAX_REALISTIC_QUORUM) {
    report("M509", quorum.range, { quorum: raw });
  }
}
