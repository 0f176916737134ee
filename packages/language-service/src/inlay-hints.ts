import { InlayHintKind, type InlayHint, type Range } from "vscode-languageserver-types";
import type { Analysis } from "./analysis.js";
import { degreesToClock, zoneLabel } from "./clock.js";

/**
 * The clock time in the file's zone after each bound of a phase window in
 * the range (`360` shows as `24:00`, the end of the day); none for windows
 * with a bound outside 0 to 360.
 */
export function inlayHints(analysis: Analysis, range?: Range): InlayHint[] {
  const { document, model } = analysis;
  const from = range === undefined ? 0 : document.offsetAt(range.start);
  const to = range === undefined ? analysis.text.length : document.offsetAt(range.end);
  const hints: InlayHint[] = [];
  for (const mission of model.missions) {
    for (const window of mission.windows) {
      if (window.normalized === null || window.range.end.offset < from || window.range.start.offset > to) continue;
      for (const bound of [window.requirement.start, window.requirement.end]) {
        const clock = degreesToClock(bound.value);
        hints.push({
          position: document.positionAt(bound.range.end.offset),
          label: clock,
          kind: InlayHintKind.Type,
          paddingLeft: true,
          tooltip: `${bound.raw} degrees is ${clock} in ${zoneLabel(model.zone)}`,
        });
      }
    }
  }
  return hints;
}
