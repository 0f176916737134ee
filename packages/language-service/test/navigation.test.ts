import { describe, expect, it } from "vitest";
import { createLanguageService, RenameError } from "../src/index.js";
import { withCursor } from "./helpers.js";

const service = createLanguageService();
const FILE = "@temporal v4.6.2\nmission nightly {\n  on ALLOW {\n    execute backup\n  }\n}\nmission weekly {\n  on ALLOW {\n    execute notify\n    execute backup\n  }\n}\n";

/** FILE with the cursor at the n-th occurrence (0-based) of `word`, plus `shift` characters. */
function at(word: string, n = 0, shift = 1) {
  let index = -1;
  for (let i = 0; i <= n; i++) index = FILE.indexOf(word, index + 1);
  return withCursor(FILE.slice(0, index + shift) + "|" + FILE.slice(index + shift));
}

describe("definition and references", () => {
  it("go from a task's use to its first execute, and list every use", () => {
    const { document, position } = at("backup", 1);
    expect(service.definition(document, position)?.range).toEqual({ start: { line: 3, character: 12 }, end: { line: 3, character: 18 } });
    expect(service.references(document, position, true).map((l) => l.range.start.line)).toEqual([3, 9]);
  });

  it("find a mission's declaration, and nothing where there is no name", () => {
    const { document, position } = at("weekly");
    expect(service.definition(document, position)?.range.start).toEqual({ line: 6, character: 8 });
    expect(service.references(document, position, false)).toEqual([]);
    expect(service.definition(document, { line: 0, character: 2 })).toBeNull();
  });
});

describe("rename", () => {
  it("renames every use of a task", () => {
    const { document, position } = at("backup");
    expect(service.prepareRename(document, position)).toEqual({ range: { start: { line: 3, character: 12 }, end: { line: 3, character: 18 } }, placeholder: "backup" });
    const edits = service.rename(document, position, "save").changes?.[document.uri] ?? [];
    expect(edits.map((e) => [e.range.start.line, e.newText])).toEqual([
      [3, "save"],
      [9, "save"],
    ]);
  });

  it("validates the new name: a name token, not taken (missions: not even in another case)", () => {
    const task = at("backup");
    const mission = at("nightly");
    const refused = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return error instanceof RenameError ? error.code : "other";
      }
      return "accepted";
    };
    expect(refused(() => service.rename(task.document, task.position, "two words"))).toBe("INVALID_NAME");
    expect(refused(() => service.rename(task.document, task.position, "9lives"))).toBe("INVALID_NAME");
    expect(refused(() => service.rename(task.document, task.position, "x//c"))).toBe("INVALID_NAME");
    expect(refused(() => service.rename(task.document, task.position, "notify"))).toBe("NAME_TAKEN");
    expect(refused(() => service.rename(mission.document, mission.position, "WEEKLY"))).toBe("NAME_TAKEN");
    expect(refused(() => service.rename(mission.document, mission.position, "phase"))).toBe("accepted");
    expect(refused(() => service.rename(task.document, { line: 0, character: 1 }, "x"))).toBe("NO_SYMBOL");
  });
});
