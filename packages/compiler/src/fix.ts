import type { MissionFile } from "./ast.js";
import { diagnose } from "./compile.js";
import type { Diagnostic, TextEdit } from "./diagnostics.js";

/**
 * Applying the structured fixes diagnostics carry: what `temporalc check
 * --fix` does and what an editor's "fix all" will do. Pure: text in, text out.
 */

export interface FixResult {
  /** The text with the fixes applied; the input itself when nothing applied. */
  text: string;
  /** How many fixes were applied, over all rounds. */
  applied: number;
  /** The diagnostics of the final text. */
  diagnostics: Diagnostic[];
  /** The final text's tree. */
  ast: MissionFile;
}

/**
 * One round: of each diagnostic that has exactly one fix (more would be a
 * choice for a person), applies that fix unless one of its edits overlaps
 * or touches an edit already taken; those wait for the next round, when
 * their ranges have been found again in the changed text.
 */
export function applyFixes(text: string, diagnostics: readonly Diagnostic[]): { text: string; applied: number } {
  const taken: TextEdit[] = [];
  let applied = 0;
  for (const d of diagnostics) {
    const [fix, ...others] = d.fixes ?? [];
    if (fix === undefined || others.length > 0) continue;
    if (fix.edits.some((edit) => taken.some((other) => overlaps(edit, other)))) continue;
    taken.push(...fix.edits);
    applied++;
  }
  // From the end backwards, so each edit's offsets still point at the text it was made for.
  taken.sort((a, b) => b.range.start.offset - a.range.start.offset);
  let result = text;
  for (const { range, newText } of taken) result = result.slice(0, range.start.offset) + newText + result.slice(range.end.offset);
  return { text: result, applied };
}

/**
 * Two edits conflict when their ranges share text, or when both insert at
 * one point (their order would be a guess).
 */
function overlaps(a: TextEdit, b: TextEdit): boolean {
  return a.range.start.offset <= b.range.end.offset && b.range.start.offset <= a.range.end.offset;
}

/** Rounds at most: a fix may reveal another (a brace added, then a misspelt keyword in the block). */
const MAX_ROUNDS = 10;

/** Checks `text`, applies the unambiguous fixes and checks again, until nothing more applies. */
export function fixAll(text: string, filename: string): FixResult {
  let current = text;
  let applied = 0;
  for (let round = 0; ; round++) {
    const { diagnostics, ast } = diagnose(current, filename);
    if (round === MAX_ROUNDS) return { text: current, applied, diagnostics, ast };
    const next = applyFixes(current, diagnostics);
    if (next.applied === 0) return { text: current, applied, diagnostics, ast };
    current = next.text;
    applied += next.applied;
  }
}
