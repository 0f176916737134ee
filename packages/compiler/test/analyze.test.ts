import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { analyze, compile, parse, print } from "../src/index.js";
import { windowTicks } from "../src/phase-windows.js";
import { validMissionFileArb } from "./arbitraries.js";

const SOURCE = `@temporal v4.6.2
@anchor Z3

mission nightly {
  require phase [300, 30]
  require phase [0, 360]
  require phase [360, 20]
  require carbon < 250
  require carbon <= 200
  on ALLOW {
    execute backup
    execute upload
    anchor TSAE -> clockchain
  }
  on DENY { execute notify }
}

mission weekly {
  require phase [400, 10]
  on ALLOW { execute backup }
}
`;

describe("analyze", () => {
  const model = analyze(parse(SOURCE).ast);
  const [nightly, weekly] = model.missions;

  it("resolves windows once: degrees as written, normalised, wrap-around and ticks", () => {
    expect(model.zone).toBe(3);
    expect(nightly!.windows.map(({ start, end, normalized, wraps, alwaysOpen }) => ({ start, end, normalized, wraps, alwaysOpen }))).toEqual([
      { start: 300, end: 30, normalized: { start: 300, end: 30 }, wraps: true, alwaysOpen: false },
      { start: 0, end: 360, normalized: { start: 0, end: 360 }, wraps: false, alwaysOpen: true },
      { start: 360, end: 20, normalized: { start: 0, end: 20 }, wraps: false, alwaysOpen: false },
    ]);
    expect(nightly!.windows[0]!.ticks).toEqual(windowTicks(300, 30));
    expect(weekly!.windows[0]).toMatchObject({ start: 400, normalized: null, ticks: null, wraps: false });
  });

  it("picks the strictest threshold, the first block per verdict, the tasks and whether the mission anchors", () => {
    expect(nightly!.carbon).toMatchObject({ operator: "<=", threshold: { value: 200 } });
    expect(nightly!.carbonRequirements).toHaveLength(2);
    expect(nightly!.hsBloch).toBeUndefined();
    expect(nightly!.blocks.ALLOW!.steps.map((s) => (s.kind === "execute" ? s.task : s.kind))).toEqual(["backup", "upload", "anchor"]);
    expect(nightly!.blocks.DENY!.steps).toHaveLength(1);
    expect(nightly!.tasks).toEqual(["backup", "upload", "notify"]);
    expect([nightly!.anchors, weekly!.anchors]).toEqual([true, false]);
  });

  it("keeps an anchor's quorum, as written in the tree and as a number in the step, and null without one", () => {
    const source = "@temporal v4.6.2\nmission m {\n  on ALLOW { anchor TSAE -> clockchain quorum 3 }\n  on DENY { anchor TSAE -> clockchain }\n}\n";
    const { ast, diagnostics } = parse(source);
    expect(diagnostics).toEqual([]);
    const [allow, deny] = ast.missions[0]!.items;
    const quorum = allow?.kind === "Handler" ? allow.body[0] : undefined;
    expect(quorum).toMatchObject({ kind: "AnchorStatement", quorum: { kind: "NumberLiteral", value: 3, raw: "3" } });
    expect(source.slice(quorum!.range.start.offset, quorum!.range.end.offset)).toBe("anchor TSAE -> clockchain quorum 3");
    expect(deny?.kind === "Handler" ? deny.body[0] : undefined).toMatchObject({ kind: "AnchorStatement", quorum: null });
    const { blocks } = analyze(ast).missions[0]!;
    expect(blocks.ALLOW!.steps).toMatchObject([{ kind: "anchor", quorum: 3 }]);
    expect(blocks.DENY!.steps).toMatchObject([{ kind: "anchor", quorum: null }]);
  });

  it("lists missions and tasks with their definition and every reference, as source ranges", () => {
    const text = (range: { start: { offset: number }; end: { offset: number } }) => SOURCE.slice(range.start.offset, range.end.offset);
    const backup = model.symbols.find((s) => s.kind === "task" && s.name === "backup")!;
    expect(backup.references).toHaveLength(2);
    expect(backup.references.map(text)).toEqual(["backup", "backup"]);
    expect(backup.definition).toEqual(backup.references[0]);
    expect(model.symbols.filter((s) => s.kind === "mission").map((s) => text(s.definition))).toEqual(["nightly", "weekly"]);
    expect(model.symbols.map((s) => `${s.kind}:${s.name}`)).toEqual(["mission:nightly", "mission:weekly", "task:backup", "task:upload", "task:notify"]);
  });

  it("is what compile returns, and plain data", () => {
    const compiled = compile(SOURCE);
    expect(compiled.model).toEqual(model);
    expect(JSON.parse(JSON.stringify(model))).toEqual(JSON.parse(JSON.stringify(compiled.model)));
  });

  it("gives every step and symbol a range inside the file, on random valid files", () => {
    fc.assert(
      fc.property(validMissionFileArb, (tree) => {
        const source = print(tree);
        const { model: analysed, code } = compile(source);
        expect(code).toBeDefined();
        for (const symbol of analysed.symbols) {
          for (const range of symbol.references) expect(source.slice(range.start.offset, range.end.offset)).toBe(symbol.name);
        }
        for (const mission of analysed.missions) for (const window of mission.windows) expect(window.ticks).not.toBeNull();
      }),
      { numRuns: 100 },
    );
  });

  it("rejects what is not a parsed file", () => {
    expect(() => analyze({} as never)).toThrow(/analyze: expected the MissionFile AST/);
  });
});
