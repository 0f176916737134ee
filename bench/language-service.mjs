// The language service on a 2,000-line file: from an edit to diagnostics
// (TextDocument.update, then diagnostics: the whole file analysed again)
// against the compiler's parse() + check() alone on the same text, in the
// same run (target: at most 2x); and completion latency (p50, p99), both on
// a cached analysis and right after an edit.
import { check, parse } from "@temporal/compiler";
import { createLanguageService, TextDocument } from "@temporal/language-service";
import { fixed, medianMsEach, missionSource, printTable } from "./harness.mjs";

const LINES = 2000;
let text = missionSource(64 * 1024);
text = text.split("\n").slice(0, LINES).join("\n");
const service = createLanguageService({ now: () => new Date("2026-11-25T19:25:00Z"), viewerTimeZone: "UTC" });
const document = TextDocument.create("file:///bench.mission", "mission", 0, text);

// Types into the first comment and takes it back, so each edit makes a new version of (nearly) the same text.
const commentEnd = document.positionAt(text.indexOf("\n", text.indexOf("//")));
let typed = false;
function edit() {
  const range = typed ? { start: { line: commentEnd.line, character: commentEnd.character - 1 }, end: commentEnd } : { start: commentEnd, end: commentEnd };
  TextDocument.update(document, [{ range, text: typed ? "" : "x" }], document.version + 1);
  typed = !typed;
}

const [checkMs, editMs] = medianMsEach(
  [
    () => check(parse(document.getText()).ast),
    () => {
      edit();
      service.diagnostics(document);
    },
  ],
  { runs: 21, warmup: 3 },
);

function percentiles(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: sorted[Math.floor(sorted.length * 0.5)], p99: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] };
}

function completionSamples(count, editFirst) {
  const samples = [];
  const lines = document.lineCount;
  for (let i = 0; i < count; i++) {
    if (editFirst) edit();
    const position = { line: (i * 7919) % lines, character: 4 };
    const start = performance.now();
    service.completion(document, position);
    samples.push(performance.now() - start);
  }
  return percentiles(samples);
}

const cached = completionSamples(500, false);
const afterEdit = completionSamples(60, true);

printTable(`Language service, ${document.lineCount} lines (${text.length} bytes)`, [
  ["what", "median ms"],
  ["parse() + check() (baseline)", fixed(checkMs)],
  ["edit, then diagnostics()", fixed(editMs)],
]);
console.log(`  ratio: ${fixed(editMs / checkMs)}x (target <= 2x)`);
printTable("Completion latency", [
  ["when", "p50 ms", "p99 ms"],
  ["cached analysis", fixed(cached.p50, 3), fixed(cached.p99, 3)],
  ["right after an edit", fixed(afterEdit.p50), fixed(afterEdit.p99)],
]);
