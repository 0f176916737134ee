// Reads docs/diagnostics.md, the one source of the explanations, into
// { code: { title, severity, text } } for `temporalc explain`. The bundle
// embeds the result at build time, so the text is never copied by hand.
import { readFileSync } from "node:fs";

const HEADING = /^## (M\d{3}): (.+) \((error|warning|info)\)$/;

/** Each `## M<nnn>: <title> (<severity>)` section, its body as terminal text. */
export function diagnosticExplanations(markdown) {
  const explanations = {};
  let current;
  let fenced = false;
  for (const line of markdown.split(/\r?\n/)) {
    if (!fenced && line.startsWith("## ")) {
      const heading = HEADING.exec(line.trimEnd());
      current = heading === null ? undefined : (explanations[heading[1]] = { title: heading[2], severity: heading[3], lines: [] });
      continue;
    }
    if (current === undefined) continue;
    if (line.startsWith("```")) {
      fenced = !fenced;
      // An example block gets a blank line above and below instead of its fences.
      continue;
    }
    current.lines.push(fenced ? `    ${line}`.trimEnd() : line.replace(/\*\*([^*]+)\*\*/g, "$1"));
  }
  return Object.fromEntries(Object.entries(explanations).map(([code, { title, severity, lines }]) => [code, { title, severity, text: lines.join("\n").trim() }]));
}

export function readDiagnosticExplanations(docsUrl) {
  return diagnosticExplanations(readFileSync(docsUrl, "utf8"));
}
