import { describe, expect, it } from "vitest";
import { SymbolKind } from "vscode-languageserver-types";
import { createLanguageService } from "../src/index.js";
import { documentOf, withCursor } from "./helpers.js";

const service = createLanguageService();
const FILE = "@temporal v4.6.2\n/* a\n   comment */\nmission nightly {\n  require phase [0, 90]\n  on ALLOW {\n    execute backup\n    anchor TSAE -> clockchain\n  }\n}\n";

describe("document structure", () => {
  it("outlines missions, requirements, handlers and statements", () => {
    const [mission] = service.documentSymbols(documentOf(FILE));
    expect(mission?.name).toBe("nightly");
    expect(mission?.kind).toBe(SymbolKind.Module);
    expect(mission?.children?.map((c) => c.name)).toEqual(["phase [0, 90]", "on ALLOW"]);
    expect(mission?.children?.[1]?.children?.map((c) => c.name)).toEqual(["backup", "anchor TSAE -> clockchain"]);
  });

  it("folds missions, handlers and block comments", () => {
    expect(service.foldingRanges(documentOf(FILE))).toEqual([
      { startLine: 1, endLine: 2, kind: "comment" },
      { startLine: 3, endLine: 8 },
      { startLine: 5, endLine: 7 },
    ]);
  });

  it("grows a selection from a name to its statement, handler, mission and file", () => {
    const { document, position } = withCursor(FILE.replace("backup", "back|up"));
    let range = service.selectionRanges(document, [position])[0];
    const lines: string[] = [];
    while (range !== undefined) {
      lines.push(document.getText(range.range).split("\n")[0]!);
      range = range.parent;
    }
    expect(lines).toEqual(["backup", "execute backup", "on ALLOW {", "mission nightly {", "@temporal v4.6.2"]);
  });
});
