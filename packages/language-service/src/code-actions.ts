import { fixAll, type Fix } from "@temporal/compiler";
import { CodeActionKind, type CodeAction, type Range } from "vscode-languageserver-types";
import { toRange, type Analysis } from "./analysis.js";
import { toLspDiagnostic } from "./diagnostics.js";

/**
 * Quick fixes: the compiler's structured fixes of the diagnostics that
 * touch the range (a diagnostic with exactly one fix marks it preferred,
 * the one `temporalc check --fix` applies), and "fix all" as a source action
 * doing what `temporalc check --fix` does.
 */
export function codeActions(analysis: Analysis, range: Range, only?: readonly string[]): CodeAction[] {
  const { document } = analysis;
  const from = document.offsetAt(range.start);
  const to = document.offsetAt(range.end);
  const actions: CodeAction[] = [];
  if (wanted(CodeActionKind.QuickFix, only)) {
    for (const d of analysis.diagnostics) {
      if (d.fixes === undefined || d.range.end.offset < from || d.range.start.offset > to) continue;
      for (const fix of d.fixes) {
        actions.push({
          title: fix.title,
          kind: CodeActionKind.QuickFix,
          diagnostics: [toLspDiagnostic(analysis, d)],
          isPreferred: d.fixes.length === 1,
          edit: editOf(analysis, fix),
        });
      }
    }
  }
  if (wanted(CodeActionKind.SourceFixAll, only) && analysis.diagnostics.some((d) => d.fixes?.length === 1)) {
    const fixed = fixAll(analysis.text, document.uri);
    if (fixed.applied > 0) {
      const whole = { start: document.positionAt(0), end: document.positionAt(analysis.text.length) };
      actions.push({
        title: `Fix all auto-fixable problems (${fixed.applied})`,
        kind: CodeActionKind.SourceFixAll,
        edit: { changes: { [document.uri]: [{ range: whole, newText: fixed.text }] } },
      });
    }
  }
  return actions;
}

/** A kind is wanted when no filter is given, or when it is a filter kind or a sub-kind of one (`source` includes `source.fixAll`). */
function wanted(kind: string, only: readonly string[] | undefined): boolean {
  return only === undefined || only.some((prefix) => kind === prefix || kind.startsWith(`${prefix}.`));
}

function editOf(analysis: Analysis, fix: Fix): CodeAction["edit"] {
  const { document } = analysis;
  return { changes: { [document.uri]: fix.edits.map((edit) => ({ range: toRange(document, edit.range), newText: edit.newText })) } };
}
