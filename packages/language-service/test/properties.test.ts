import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Position, Range } from "vscode-languageserver-types";
import { createLanguageService, RenameError, TextDocument } from "../src/index.js";
import { NOW } from "./helpers.js";

/** Pieces of mission text, valid and not, so joined at random they make half-typed and broken files. */
const FRAGMENTS = [
  "@temporal v4.6.2",
  "@anchor Z1",
  "@anchor ",
  "@",
  "mission m {",
  "mission ",
  "require phase [300, 30]",
  "require phase [",
  "require carbon <= 120",
  "require hs_bloch > 1",
  "require ",
  "on ALLOW {",
  "on DENY {",
  "on ",
  "execute backup",
  "execute phase",
  "execute ",
  "anchor TSAE -> clockchain",
  "anchor ",
  "}",
  "{",
  "[",
  "]",
  ",",
  "400",
  "-1.5",
  "1e999",
  "// note",
  "/* block\n comment */",
  "/* open",
  "\n",
  "\r\n",
  "\r",
  " ",
  "\t",
  "🕗",
  "é",
  "\u2028",
  "#",
];

const examplesDir = fileURLToPath(new URL("../../../examples/", import.meta.url));
const EXAMPLES = readdirSync(examplesDir)
  .filter((name) => name.endsWith(".mission"))
  .map((name) => readFileSync(`${examplesDir}${name}`, "utf8"));

/** Random joins of fragments, and real files cut off anywhere (what an editor holds while someone types). */
const textArb = fc.oneof(
  fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 40 }).map((parts) => parts.join(" ")),
  fc.tuple(fc.constantFrom(...EXAMPLES), fc.nat()).map(([text, cut]) => text.slice(0, cut % (text.length + 1))),
);

function inside(document: TextDocument, position: Position): boolean {
  const lines = document.getText().split(/\r\n|\r|\n/);
  return position.line >= 0 && position.line < lines.length && position.character >= 0 && position.character <= lines[position.line]!.length;
}

function rangesOf(value: unknown, found: Range[] = []): Range[] {
  if (Array.isArray(value)) for (const item of value) rangesOf(item, found);
  else if (value !== null && typeof value === "object") {
    const record = value as Record<string, unknown>;
    if (isPosition(record.start) && isPosition(record.end)) found.push(record as unknown as Range);
    for (const child of Object.values(record)) rangesOf(child, found);
  }
  return found;
}

function isPosition(value: unknown): value is Position {
  return value !== null && typeof value === "object" && typeof (value as Position).line === "number" && typeof (value as Position).character === "number";
}

describe("every request, on any text", () => {
  const service = createLanguageService({ now: () => NOW, viewerTimeZone: "Europe/Paris" });

  it("never throws and answers with ranges inside the document", async () => {
    await fc.assert(
      fc.asyncProperty(textArb, fc.nat(), async (text, seed) => {
        const document = TextDocument.create("file:///p.mission", "mission", 1, text);
        const position = document.positionAt(seed % (text.length + 1));
        const whole: Range = { start: { line: 0, character: 0 }, end: document.positionAt(text.length) };
        let renamed: unknown = null;
        try {
          renamed = service.rename(document, position, "renamed");
        } catch (error) {
          if (!(error instanceof RenameError)) throw error;
        }
        const answers: unknown[] = [
          service.diagnostics(document),
          service.hover(document, position),
          service.inlayHints(document),
          await service.codeLenses(document),
          service.completion(document, position),
          await service.format(document),
          service.documentSymbols(document),
          service.selectionRanges(document, [position]),
          service.definition(document, position),
          service.references(document, position, true),
          service.prepareRename(document, position),
          renamed,
          service.codeActions(document, whole),
        ];
        for (const range of rangesOf(answers)) {
          expect(inside(document, range.start) && inside(document, range.end), JSON.stringify(range)).toBe(true);
        }
        for (const hint of service.inlayHints(document)) expect(inside(document, hint.position)).toBe(true);
        for (const fold of service.foldingRanges(document)) expect(fold.startLine <= fold.endLine && fold.endLine < document.lineCount).toBe(true);
        expect(service.semanticTokens(document).data.length % 5).toBe(0);
      }),
      { numRuns: 150 },
    );
  }, 60_000);
});
