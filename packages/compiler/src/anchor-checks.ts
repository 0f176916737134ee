import type { AnchorClause, AnchorStatement, Comment, Mission, SourceRange } from "./ast.js";
import type { MissionInfo } from "./analyze.js";
import { hasComment } from "./comments.js";
import { anchorStatementText } from "./printer.js";
import type { Report } from "./clock-checks.js";
import { replacement } from "./diagnostics.js";

/**
 * The checks of an anchor statement's clauses (`signed ZTT`, `quorum <n>`)
 * as a whole: each at most once, in the fixed order, and `signed ZTT` only
 * where the mission has one window to sign in. A quorum's number is checked
 * on its own in the checker (M508, M509).
 */

/** The fixed order: the receipt is signed when it is issued, then anchored, then witnessed. */
const CLAUSE_ORDER: readonly AnchorClause["kind"][] = ["SignedZtt", "Quorum"];

export function checkAnchorStatements(mission: Mission, info: MissionInfo, timeZone: string | null, comments: readonly Comment[], report: Report): void {
  for (const handler of mission.items) {
    if (handler.kind !== "Handler") continue;
    for (const statement of handler.body) {
      if (statement.kind !== "AnchorStatement") continue;
      checkClauses(statement, comments, report);
      if (statement.signedZtt === null) continue;
      if (handler.verdict === "DENY") {
        const fix = canonicalFix(statement, comments, { dropZtt: true });
        report("M511", statement.signedZtt.range, {}, fix === undefined ? {} : { fixes: [fix] });
      } else {
        checkSigningWindow(statement.signedZtt.range, info, timeZone, report);
      }
    }
  }
}

/**
 * M512 for a clause written again, M513 for the first clause out of the fixed
 * order; both fixed by writing the statement in order, once each. The findings
 * are gathered first so that the one rewrite is computed once per statement.
 */
function checkClauses(statement: AnchorStatement, comments: readonly Comment[], report: Report): void {
  const seen = new Map<AnchorClause["kind"], AnchorClause>();
  const repeats: { clause: AnchorClause; first: AnchorClause }[] = [];
  for (const clause of statement.clauses) {
    const first = seen.get(clause.kind);
    if (first === undefined) seen.set(clause.kind, clause);
    else repeats.push({ clause, first });
  }
  const ranks = statement.clauses.map((clause) => CLAUSE_ORDER.indexOf(clause.kind));
  const late = ranks.findIndex((rank, i) => i > 0 && rank < Math.max(...ranks.slice(0, i)));
  if (repeats.length === 0 && late === -1) return;
  const fix = canonicalFix(statement, comments, { dropZtt: false });
  const fixes = fix === undefined ? {} : { fixes: [fix] };
  for (const { clause, first } of repeats) {
    report("M512", clause.range, { clause: clause.kind === "SignedZtt" ? "signed ZTT" : "quorum" }, { notes: [{ message: "first written here", range: first.range }], ...fixes });
  }
  if (late !== -1) report("M513", statement.clauses[late]!.range, {}, fixes);
}

/**
 * The statement rewritten with each clause once, in order. None when a
 * comment is inside it (the rewrite would drop it) or when its quorums
 * differ (which one was meant is not ours to guess).
 */
function canonicalFix(statement: AnchorStatement, comments: readonly Comment[], options: { dropZtt: boolean }) {
  if (hasComment(statement.range, comments)) return undefined;
  const quorums = new Set(statement.clauses.flatMap((c) => (c.kind === "Quorum" ? [c.value?.raw] : [])));
  if (quorums.size > 1) return undefined;
  const firsts = CLAUSE_ORDER.flatMap((kind) => statement.clauses.find((c) => c.kind === kind) ?? []).filter((c) => !(options.dropZtt && c.kind === "SignedZtt"));
  return replacement(statement.range, anchorStatementText(firsts));
}

/**
 * A ZTT certificate names one window in one SWT zone (docs/ztt.md), so the
 * mission must require exactly one phase window, read in an SWT zone. No
 * fix: which window to add or keep, or which zone to anchor to, is the
 * author's choice.
 */
function checkSigningWindow(range: SourceRange, info: MissionInfo, timeZone: string | null, report: Report): void {
  if (timeZone !== null) report("M510", range, { mission: info.name, problem: "time zone", timeZone, windows: info.windows.length });
  else if (info.windows.length !== 1)
    report("M510", range, { mission: info.name, problem: info.windows.length === 0 ? "no window" : "several windows", timeZone: null, windows: info.windows.length });
}
