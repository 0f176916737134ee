import { createTokenInstance, EOF } from "chevrotain";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applyFixes, compile, DIAGNOSTIC_CODES, fixAll, print, type Diagnostic, type DiagnosticCode } from "../src/index.js";
import { hasSourcePosition } from "../src/parse.js";
import { Identifier } from "../src/tokens.js";
import { validMissionFileArb } from "./arbitraries.js";

const codesOf = (diagnostics: Diagnostic[]) => diagnostics.map((d) => d.code);

describe("structured fixes", () => {
  it("repairs what each fix is for, and the repaired file compiles to what the intact one does", () => {
    fc.assert(
      fc.property(validMissionFileArb, (ast) => {
        const intact = print(ast);
        // Four kinds of damage at once: no version line, a misspelt keyword, bounds a turn or two away, no closing brace.
        const broken = intact
          .replace(/^@temporal v4\.6\.2\n/, "")
          .replace("mission ", "misison ")
          .replace(/\[(\d+(?:\.\d+)?), (\d+(?:\.\d+)?)\]/g, (_, start: string, end: string) => `[${Number(start) + 720}, ${Number(end) - 360}]`)
          .replace(/\}\n$/, "");
        const fixed = fixAll(broken, "a.mission");
        expect(fixed.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
        expect(compile(fixed.text).code).toBe(compile(intact).code);
      }),
      { numRuns: 60 },
    );
  }, 30_000);

  it("leaves a file without fixable problems as it is", () => {
    const source = "@temporal v4.6.2\nmission a {\n  on ALLOW { execute x }\n}\n";
    expect(fixAll(source, "a.mission")).toMatchObject({ text: source, applied: 0, diagnostics: [] });
  });

  it("does not guess: a zone as close to Z1 as to Z3 and Z11 keeps its error and gets no fix", () => {
    const source = "@temporal v4.6.2\n@anchor Z13\nmission a {\n  on ALLOW { execute x }\n}\n";
    const [unknownZone] = compile(source).diagnostics;
    expect(unknownZone).toMatchObject({ code: "M204", help: "did you mean `Z1`? Zones are Z0 to Z11" });
    expect(unknownZone!.fixes).toBeUndefined();
    expect(fixAll(source, "a.mission")).toMatchObject({ text: source, applied: 0 });
    const unique = "@temporal v4.6.2\n@anchor z4\nmission a {\n  on ALLOW { execute x }\n}\n";
    expect(fixAll(unique, "a.mission").text).toBe(unique.replace("z4", "Z4"));
  });

  it("writes `>=` for an HS-Bloch requirement that can never hold", () => {
    const source = "@temporal v4.6.2\nmission a {\n  require hs_bloch > 1\n  on ALLOW { execute x }\n}\n";
    expect(fixAll(source, "a.mission")).toMatchObject({ text: source.replace("> 1", ">= 1"), applied: 1, diagnostics: [] });
    // The fix rewrites the whole requirement, so it is not offered where that would drop a comment.
    const commented = source.replace("hs_bloch >", "hs_bloch /* perfect */ >");
    expect(fixAll(commented, "a.mission")).toMatchObject({ text: commented, applied: 0 });
  });

  it("takes one fix per diagnostic, skips diagnostics that offer a choice and edits that overlap one already taken", () => {
    const range = (from: number, to: number) => ({ start: { line: 1, column: from + 1, offset: from }, end: { line: 1, column: to + 1, offset: to } });
    const fixing = (code: DiagnosticCode, ...fixes: [number, number, string][][]): Diagnostic => ({
      code,
      severity: DIAGNOSTIC_CODES[code].severity,
      message: "",
      file: "a",
      range: range(0, 0),
      fixes: fixes.map((edits) => ({ title: "t", edits: edits.map(([from, to, newText]) => ({ range: range(from, to), newText })) })),
    });
    const result = applyFixes("abcdefghij", [
      fixing("M300", [[0, 2, "AB"]]),
      fixing("M300", [[1, 3, "xx"]]), // overlaps the first: next round
      fixing("M300", [[5, 5, "-"]], [[5, 6, "F"]]), // a choice: never taken
      fixing("M300", [
        [6, 7, "G"],
        [9, 10, "J"],
      ]),
    ]);
    expect(result).toEqual({ text: "ABcdefGhiJ", applied: 2 });
  });

  it("removes a quorum of 0 or less and rounds a fractional quorum up", () => {
    const withQuorum = (quorum: string) => `@temporal v4.6.2\nmission a {\n  on ALLOW {\n    execute x\n    anchor TSAE -> clockchain${quorum}\n  }\n}\n`;
    for (const none of [" quorum 0", " quorum -3", " quorum 0.0"]) {
      expect(fixAll(withQuorum(none), "a.mission")).toMatchObject({ text: withQuorum(""), applied: 1, diagnostics: [] });
    }
    expect(fixAll(withQuorum(" quorum 2.5"), "a.mission")).toMatchObject({ text: withQuorum(" quorum 3"), applied: 1, diagnostics: [] });
    expect(fixAll(withQuorum(" quorum 0.01"), "a.mission")).toMatchObject({ text: withQuorum(" quorum 1"), applied: 1, diagnostics: [] });
    expect(compile(withQuorum(" quorum 3")).code).toContain(`{ anchor: "clockchain", quorum: 3 }`);
    // Removing the quorum keeps the statement's other clause.
    const signed = (quorum: string) => `@temporal v4.6.2\nmission a {\n  require phase [300, 30]\n  on ALLOW {\n    execute x\n    anchor TSAE -> clockchain signed ZTT${quorum}\n  }\n}\n`;
    expect(fixAll(signed(" quorum 0"), "a.mission")).toMatchObject({ text: signed(""), applied: 1, diagnostics: [] });
    // Removing the quorum rewrites the statement, so it is not offered where that would drop a comment.
    const commented = withQuorum(" /* witnessed */ quorum 0");
    expect(fixAll(commented, "a.mission")).toMatchObject({ text: commented, applied: 0 });
    // A quorum too large to count exactly has no number to round to.
    const huge = withQuorum(" quorum 99999999999999999999");
    expect(compile(huge).diagnostics).toMatchObject([{ code: "M508", message: "the quorum 99999999999999999999 is too large to count exactly: it counts witness cosignatures" }]);
    expect(fixAll(huge, "a.mission")).toMatchObject({ text: huge, applied: 0 });
    // A malformed number has its own error (M103); the quorum check does not judge it again.
    expect(compile(withQuorum(" quorum .5")).diagnostics.map((d) => d.code)).toEqual(["M103"]);
  });

  it("writes an anchor's clauses once each, in order, and removes signed ZTT from on DENY", () => {
    const withAnchors = (allow: string, deny = "") =>
      `@temporal v4.6.2\n@anchor Z1\nmission a {\n  require phase [300, 30]\n  on ALLOW {\n    anchor TSAE -> clockchain${allow}\n  }\n  on DENY {\n    anchor TSAE -> clockchain${deny}\n  }\n}\n`;
    const fixed = (allow: string, deny = "") => fixAll(withAnchors(allow, deny), "a.mission");
    expect(fixed(" quorum 3 signed ZTT")).toMatchObject({ text: withAnchors(" signed ZTT quorum 3"), applied: 1, diagnostics: [] });
    expect(fixed(" signed ZTT signed ZTT")).toMatchObject({ text: withAnchors(" signed ZTT"), applied: 1, diagnostics: [] });
    expect(fixed(" quorum 3 signed ZTT quorum 3")).toMatchObject({ text: withAnchors(" signed ZTT quorum 3"), diagnostics: [] });
    expect(fixed("", " signed ZTT quorum 2")).toMatchObject({ text: withAnchors("", " quorum 2"), applied: 1, diagnostics: [] });
    // Two different quorums: which one was meant is not the fix's to guess; a comment inside would be dropped.
    for (const kept of [" quorum 2 quorum 3", " quorum 3 /* why */ signed ZTT"]) expect(fixed(kept)).toMatchObject({ text: withAnchors(kept), applied: 0 });
    // No window to sign in: the author chooses one, or drops signed ZTT.
    const noWindow = "@temporal v4.6.2\nmission a {\n  on ALLOW { anchor TSAE -> clockchain signed ZTT }\n}\n";
    expect(compile(noWindow).diagnostics).toMatchObject([{ code: "M510" }]);
    expect(compile(noWindow).diagnostics[0]!.fixes).toBeUndefined();
    expect(compile(withAnchors(" signed ZTT quorum 3")).code).toContain(`{ anchor: "clockchain", signed: "ZTT", quorum: 3 }`);
  });

  it("documents in the message table what each code's fix does, for every code that offers one", () => {
    const sources = [
      "mission a {\n  requier phase [0, 30]\n  require phase [400, 30]\n  require hs_bloch > 1\n  on ALLOW { execute x }\n",
      "@temporal v4.6.2\n@anchor z5\nmission a {\n  on ALLOW { execute x anchor TSAE -> clockchain quorum 0 }\n}\n",
      "@temporal v4.6.2\n@anchor Europe/Pariss\nmission a {\n  require phase [9:30, 12:00]\n  on ALLOW { execute x }\n}\n",
      "@temporal v4.6.2\n@anchor europe/paris\nmission a {\n  require phase [20:00, 02:00]\n  on ALLOW { execute x }\n}\n",
      "@temporal v4.6.2\nmission a {\n  require phase [0, 30]\n  on ALLOW { anchor TSAE -> clockchain quorum 1 signed ZTT signed ZTT }\n  on DENY { anchor TSAE -> clockchain signed ZTT }\n}\n",
    ];
    const fixed = new Set(
      sources.flatMap((s) =>
        compile(s)
          .diagnostics.filter((d) => d.fixes !== undefined)
          .map((d) => d.code),
      ),
    );
    expect([...fixed].sort()).toEqual(["M102", "M202", "M204", "M206", "M207", "M300", "M304", "M412", "M508", "M511", "M512", "M513"]);
    for (const code of fixed) expect(DIAGNOSTIC_CODES[code], code).toHaveProperty("fix");
  });
});

describe("numbers too large to be finite (M108)", () => {
  it("is an error at the number, not Infinity with a warning", () => {
    const number = `1${"0".repeat(319)}`;
    const source = `@temporal v4.6.2\nmission a {\n  require carbon < ${number}\n  on ALLOW { execute x }\n}\n`;
    const result = compile(source);
    expect(result.code).toBeUndefined();
    expect(codesOf(result.diagnostics)).toEqual(["M108"]);
    expect(result.diagnostics[0]!.range.start).toEqual({ line: 3, column: 20, offset: 48 });
    expect(result.diagnostics[0]!.range.end.offset).toBe(48 + number.length);
  });

  it("covers phase bounds and HS-Bloch thresholds too, and leaves the largest finite numbers to the usual checks", () => {
    const huge = `9${"9".repeat(400)}.5`;
    const source = `@temporal v4.6.2\nmission a {\n  require phase [0, ${huge}]\n  require hs_bloch >= ${huge}\n  on ALLOW { execute x }\n}\n`;
    expect(codesOf(compile(source).diagnostics)).toEqual(["M108", "M108"]);
    const finite = `@temporal v4.6.2\nmission a {\n  require carbon < 1${"0".repeat(300)}\n  on ALLOW { execute x }\n}\n`;
    expect(codesOf(compile(finite).diagnostics)).toEqual(["M401"]);
  });
});

describe("hasSourcePosition", () => {
  const token = (startOffset: number) => createTokenInstance(Identifier, "x", startOffset, startOffset, 1, 1, startOffset + 1, startOffset + 1);

  it("accepts a token at a real offset inside the text", () => {
    expect(hasSourcePosition(token(0), 10)).toBe(true);
    expect(hasSourcePosition(token(9), 10)).toBe(true);
  });

  it("rejects every placeholder Chevrotain versions use for invented tokens (NaN, -1, undefined, past the end)", () => {
    for (const offset of [Number.NaN, -1, undefined as unknown as number, 10, 2.5, Number.POSITIVE_INFINITY]) {
      expect(hasSourcePosition(token(offset), 10), String(offset)).toBe(false);
    }
    expect(hasSourcePosition(createTokenInstance(EOF, "", 0, 0, 1, 1, 1, 1), 10)).toBe(false);
    expect(hasSourcePosition({ ...token(3), isInsertedInRecovery: true }, 10)).toBe(false);
  });

  it("reports a syntax error at the end of the file at the file's end", () => {
    const source = "@temporal v4.6.2\nmission a {\n  on ALLOW { execute x }\n";
    const [missing] = compile(source).diagnostics;
    expect(missing).toMatchObject({ code: "M102", range: { start: { line: 4, column: 1, offset: source.length } } });
  });
});
