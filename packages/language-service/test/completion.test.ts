import { describe, expect, it } from "vitest";
import { createLanguageService } from "../src/index.js";
import { withCursor } from "./helpers.js";

const service = createLanguageService();

function labels(marked: string): string[] {
  const { document, position } = withCursor(marked);
  return service.completion(document, position).items.map((item) => item.label);
}

describe("completion", () => {
  it("offers what the grammar allows at the top level", () => {
    expect(labels("|")).toEqual(["mission", "@temporal", "@anchor"]);
    expect(labels("@temporal v4.6.2\n@|")).toEqual(["mission", "@temporal", "@anchor"]);
    expect(labels("mission a { on ALLOW { execute x } }\n|")).toEqual(["mission"]);
  });

  it("offers keywords in context, in half-typed code", () => {
    expect(labels("mission a {\n  |")).toEqual(["require", "on"]);
    expect(labels("mission a {\n  require |")).toEqual(["phase", "carbon", "hs_bloch"]);
    expect(labels("mission a {\n  require ca|")).toEqual(["phase", "carbon", "hs_bloch"]);
    expect(labels("mission a {\n  require carbon |")).toEqual(["<", "<="]);
    expect(labels("mission a {\n  require hs_bloch |")).toEqual([">=", ">"]);
    expect(labels("mission a {\n  require carbon < 100\n  |")).toEqual(["require", "on"]);
    expect(labels("mission a {\n  require phase [1, 2]\n  on |")).toEqual(["ALLOW", "DENY"]);
    expect(labels("mission a {\n  on ALLOW {\n    |")).toEqual(["execute", "anchor TSAE -> clockchain"]);
    expect(labels("mission a {\n  on ALLOW {\n    anchor |")).toEqual(["TSAE"]);
    expect(labels("mission a {\n  on ALLOW {\n    anchor TSAE -> |")).toEqual(["clockchain"]);
    expect(labels("mission a {\n  on ALLOW {\n    execute phase\n    |")).toEqual(["execute", "anchor TSAE -> clockchain"]);
    expect(labels("mission a {\n  on ALLOW { execute x }\n  |\n}\nmission b {}")).toEqual(["require", "on"]);
  });

  it("offers an anchor's clauses in their fixed order, then the next statement", () => {
    const statements = ["execute", "anchor TSAE -> clockchain"];
    expect(labels("mission a {\n  on ALLOW {\n    anchor TSAE -> clockchain |")).toEqual(["signed ZTT", "quorum", ...statements]);
    expect(labels("mission a {\n  on ALLOW {\n    anchor TSAE -> clockchain sig|")).toEqual(["signed ZTT", "quorum", ...statements]);
    expect(labels("mission a {\n  on ALLOW {\n    anchor TSAE -> clockchain signed |")).toEqual(["ZTT"]);
    expect(labels("mission a {\n  on ALLOW {\n    anchor TSAE -> clockchain signed ZTT |")).toEqual(["quorum", ...statements]);
    expect(labels("mission a {\n  on ALLOW {\n    anchor TSAE -> clockchain signed ZTT quorum |")).toEqual([]);
    expect(labels("mission a {\n  on ALLOW {\n    anchor TSAE -> clockchain signed ZTT quorum 3\n    |")).toEqual(statements);
    // Keywords after `execute` are task names.
    expect(labels("mission a {\n  on ALLOW {\n    execute signed\n    |")).toEqual(statements);
  });

  it("offers nothing where a new name or a number goes, or inside a comment", () => {
    expect(labels("mission |")).toEqual([]);
    expect(labels("mission a {\n  require phase [|")).toEqual([]);
    expect(labels("// mission |")).toEqual([]);
    expect(labels("/* unterminated |")).toEqual([]);
    // Among several comments: in the last, at the end of one, and between them (where code goes).
    expect(labels("// one\n// two |\nmission a {}")).toEqual([]);
    expect(labels("// one\n// two|")).toEqual([]);
    expect(labels("/* one */ mission a {\n  /* two */ require |\n  // three\n}")).toEqual(["phase", "carbon", "hs_bloch"]);
    expect(labels("/* a */ mission a {\n  // note\n  |\n  // after\n}")).toEqual(["require", "on"]);
  });

  it("offers zone codes and IANA time zones after @anchor, and the version after @temporal", () => {
    const zones = labels("@anchor |");
    expect(zones.slice(0, 12)).toEqual(Array.from({ length: 12 }, (_, n) => `Z${n}`));
    expect(zones).toContain("Europe/Paris");
    // The names the checker accepts as spelt, whatever the engine lists (Node 20 still lists Asia/Calcutta).
    expect(zones).toContain("Asia/Kolkata");
    expect(zones).not.toContain("Asia/Calcutta");
    expect(zones).toContain("Asia/Tokyo");
    const { document, position } = withCursor("@anchor Z|");
    expect(service.completion(document, position).items.find((i) => i.label === "Z1")?.detail).toBe("SWT zone Z1 (UTC+2)");
    // A half-typed IANA name is one token, replaced whole.
    const typed = withCursor("@anchor Europe/Pa|\nmission m {}");
    const paris = service.completion(typed.document, typed.position).items.find((i) => i.label === "Europe/Paris");
    expect(paris?.textEdit).toEqual({ range: { start: { line: 0, character: 8 }, end: { line: 0, character: 17 } }, newText: "Europe/Paris" });
    expect(labels("@temporal |")).toEqual(["v4.6.2"]);
  });

  it("offers the task names used elsewhere in the file, not the word being typed", () => {
    const marked = "mission a {\n  on ALLOW {\n    execute backup\n    execute notify\n  }\n}\nmission b {\n  on DENY {\n    execute ba|\n";
    expect(labels(marked)).toEqual(["backup", "notify"]);
  });

  it("replaces the word being typed", () => {
    const { document, position } = withCursor("mission a {\n  req|");
    const item = service.completion(document, position).items.find((i) => i.label === "require")!;
    expect(item.textEdit).toEqual({ range: { start: { line: 1, character: 2 }, end: { line: 1, character: 5 } }, newText: "require" });
  });
});
