import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { TextEdit } from "vscode-languageserver-types";
import { createLanguageService, SEMANTIC_TOKENS_LEGEND, TextDocument } from "../src/index.js";
import { documentOf } from "./helpers.js";

const service = createLanguageService();
const fixture = (name: string) => readFileSync(fileURLToPath(new URL(`../../../fixtures/format/${name}`, import.meta.url)), "utf8");

function applied(document: TextDocument, edits: readonly TextEdit[]): string {
  return TextDocument.applyEdits(document, [...edits]);
}

describe("code actions", () => {
  it("offer the compiler's fixes for diagnostics in the range; applying one removes the diagnostic", () => {
    const document = documentOf("@temporal v4.6.2\nmission m {\n  requir phase [0, 400]\n  on ALLOW { execute a }\n}\n");
    const whole = { start: { line: 0, character: 0 }, end: { line: 5, character: 0 } };
    const range = { start: { line: 2, character: 2 }, end: { line: 2, character: 4 } };
    expect(service.codeActions(document, range).map((a) => a.kind)).toEqual(["quickfix", "source.fixAll"]);
    const actions = service.codeActions(document, range, ["quickfix"]);
    expect(actions.map((a) => [a.title, a.kind, a.isPreferred])).toEqual([["write `require`", "quickfix", true]]);
    expect(actions[0]?.diagnostics?.[0]?.code).toBe("M102");
    const fixed = documentOf(applied(document, actions[0]!.edit!.changes![document.uri]!));
    expect(service.diagnostics(fixed).map((d) => d.code)).toEqual(["M300"]);
    expect(service.codeActions(document, whole, ["source"]).map((a) => a.kind)).toEqual(["source.fixAll"]);
  });

  it("fix all does what temporalc check --fix does", () => {
    const document = documentOf("mision m {\n  require phase [0, 400]\n  on ALLOW { execute a }\n");
    const [fixAll] = service.codeActions(document, { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, ["source.fixAll"]);
    const text = applied(document, fixAll!.edit!.changes![document.uri]!);
    expect(text).toBe("@temporal v4.6.2\nmission m {\n  require phase [0, 40]\n  on ALLOW { execute a }\n}\n");
    expect(service.diagnostics(documentOf(text))).toEqual([]);
  });
});

describe("formatting", () => {
  it("is the Prettier plugin's format", async () => {
    for (const name of ["messy-spacing", "comments-everywhere", "crlf", "one-line"]) {
      const document = documentOf(fixture(`${name}.input.mission`));
      expect(applied(document, await service.format(document)), name).toBe(fixture(`${name}.output.mission`));
    }
  });

  it("gives no edits for a formatted file or one with a syntax error", async () => {
    expect(await service.format(documentOf(fixture("messy-spacing.output.mission")))).toEqual([]);
    expect(await service.format(documentOf("mission m { require phase [0, }"))).toEqual([]);
  });
});

describe("semantic tokens", () => {
  function decode(text: string): string[] {
    const document = documentOf(text);
    const { data } = service.semanticTokens(document);
    const result: string[] = [];
    let line = 0;
    let character = 0;
    for (let i = 0; i < data.length; i += 5) {
      const [dLine, dChar, length, type, modifiers] = data.slice(i, i + 5) as [number, number, number, number, number];
      line += dLine;
      character = dLine === 0 ? character + dChar : dChar;
      const start = document.offsetAt({ line, character });
      const suffix = modifiers === 0 ? "" : `.${SEMANTIC_TOKENS_LEGEND.tokenModifiers[0]}`;
      result.push(`${text.slice(start, start + length)}:${SEMANTIC_TOKENS_LEGEND.tokenTypes[type]}${suffix}`);
    }
    return result;
  }

  it("classify by role in the tree, so a keyword used as a name is a name", () => {
    expect(decode("@anchor Z1\nmission phase { require carbon <= 5 on ALLOW { execute phase anchor TSAE -> clockchain } }")).toEqual([
      "@anchor:macro",
      "Z1:enumMember",
      "mission:keyword",
      "phase:class.declaration",
      "require:keyword",
      "carbon:keyword",
      "<=:operator",
      "5:number",
      "on:keyword",
      "ALLOW:enumMember",
      "execute:keyword",
      "phase:function",
      "anchor:keyword",
      "TSAE:keyword",
      "->:operator",
      "clockchain:keyword",
    ]);
  });

  it("cut a multi-line comment at its line breaks, CRLF included", () => {
    expect(decode("/* a\r\nb */ mission m {}")).toEqual(["/* a:comment", "b */:comment", "mission:keyword", "m:class.declaration"]);
  });
});

describe("documents that change", () => {
  it("are analysed again after an incremental edit, with positions in UTF-16 across CRLF and emoji", () => {
    const document = TextDocument.create("file:///e.mission", "mission", 1, "@temporal v4.6.2\r\n// 🕗 evening\r\nmission m {\r\n  on ALLOW { execute a }\r\n}\r\n");
    expect(service.diagnostics(document)).toEqual([]);
    // Replace "a" (line 3) by "a 🕗": the emoji is an unexpected character two UTF-16 units wide.
    TextDocument.update(document, [{ range: { start: { line: 3, character: 22 }, end: { line: 3, character: 22 } }, text: " 🕗" }], 2);
    const [d] = service.diagnostics(document);
    expect(d?.code).toBe("M100");
    expect(d?.range).toEqual({ start: { line: 3, character: 23 }, end: { line: 3, character: 25 } });
    expect(document.getText(d!.range)).toBe("🕗");
  });
});
