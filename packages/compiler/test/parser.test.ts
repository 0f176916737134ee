import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compile, DIAGNOSTIC_CODES, parse, print, type Diagnostic } from "../src/index.js";
import { tokenize } from "../src/tokenize.js";
import { missionFileArb, withoutRanges } from "./arbitraries.js";
import { fixtures } from "./fixtures.js";

function expectWellFormed(diagnostics: Diagnostic[], source: string): void {
  for (const d of diagnostics) {
    expect(Object.keys(DIAGNOSTIC_CODES)).toContain(d.code);
    expect(d.severity).toBe(DIAGNOSTIC_CODES[d.code].severity);
    expect(d.range.start.offset).toBeGreaterThanOrEqual(0);
    expect(d.range.end.offset).toBeLessThanOrEqual(source.length);
    expect(d.range.start.offset).toBeLessThanOrEqual(d.range.end.offset);
    expect(d.range.start.line).toBeGreaterThanOrEqual(1);
    expect(d.range.start.column).toBeGreaterThanOrEqual(1);
  }
}

const validSources = fixtures("valid").map((f) => f.source);
const soupPieces = [
  "mission",
  "m",
  "{",
  "}",
  "on",
  "ALLOW",
  "DENY",
  "require",
  "phase",
  "[",
  "]",
  ",",
  "1",
  "-2.5",
  "carbon",
  "<",
  "<=",
  "hs_bloch",
  ">=",
  "execute",
  "anchor",
  "TSAE",
  "->",
  "clockchain",
  "signed",
  "ZTT",
  "quorum",
  "@temporal",
  "v4.6.2",
  "@anchor",
  "Z1",
  "/*",
  "*/",
  "//",
  "\n",
  " ",
  "#",
];

describe("parser robustness", () => {
  it("never throws on arbitrary strings, and reports well-formed diagnostics", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 200 }), (source) => {
        const { diagnostics } = compile(source);
        expectWellFormed(diagnostics, source);
      }),
      { numRuns: 1500 },
    );
  });

  it("never throws on token soup", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...soupPieces), { maxLength: 80 }).map((p) => p.join(" ")),
        (source) => {
          expectWellFormed(compile(source).diagnostics, source);
        },
      ),
      { numRuns: 1500 },
    );
  });

  it("never throws on token-level mutations of valid files", () => {
    const mutation = fc.record({
      file: fc.nat(validSources.length - 1),
      at: fc.nat(),
      kind: fc.constantFrom("delete", "duplicate", "swap", "replace"),
      piece: fc.constantFrom(...soupPieces),
    });
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 4 }), (mutations) => {
        let source = validSources[mutations[0]!.file]!;
        for (const m of mutations) {
          const tokens = tokenize(source).tokens;
          if (tokens.length < 2) break;
          const i = m.at % (tokens.length - 1);
          const a = tokens[i]!;
          const b = tokens[i + 1]!;
          const before = source.slice(0, a.startOffset);
          const after = source.slice(a.endOffset! + 1);
          if (m.kind === "delete") source = before + after;
          else if (m.kind === "duplicate") source = `${before}${a.image} ${a.image}${after}`;
          else if (m.kind === "replace") source = `${before}${m.piece}${after}`;
          else source = `${before}${b.image}${source.slice(a.endOffset! + 1, b.startOffset)}${a.image}${source.slice(b.endOffset! + 1)}`;
        }
        expectWellFormed(compile(source).diagnostics, source);
      }),
      { numRuns: 1000 },
    );
  });

  it("reports an error when any single token of a valid file is deleted", () => {
    for (const source of validSources) {
      for (const token of tokenize(source).tokens) {
        const mutated = source.slice(0, token.startOffset) + source.slice(token.endOffset! + 1);
        const errors = compile(mutated).diagnostics.filter((d) => d.severity === "error");
        expect(errors.length, `deleting \`${token.image}\` at ${token.startOffset}`).toBeGreaterThan(0);
      }
    }
  });

  it("finishes on hostile inputs: 10 MB of junk, deep nesting, unterminated comments", () => {
    const junk = Array.from({ length: 10_000_000 }, (_, i) => String.fromCharCode((i * 7919) % 256)).join("");
    const inputs = [
      junk,
      "{".repeat(1_000_000),
      "mission a { on ALLOW {".repeat(100_000),
      `/*${"mission a { on ALLOW { execute b } }\n".repeat(250_000)}`,
      "[".repeat(500_000) + "]".repeat(500_000),
    ];
    for (const source of inputs) {
      const { diagnostics } = compile(source);
      expect(diagnostics.some((d) => d.severity === "error")).toBe(true);
      expect(diagnostics.filter((d) => d.severity === "error").length).toBeLessThanOrEqual(100);
    }
  }, 120_000);
});

describe("printing and parsing", () => {
  it("parses a printed AST back to the same AST", () => {
    fc.assert(
      fc.property(missionFileArb, (ast) => {
        const text = print(ast);
        const parsed = parse(text);
        expect(parsed.diagnostics).toEqual([]);
        expect(withoutRanges(parsed.ast)).toEqual(withoutRanges(ast));
      }),
      { numRuns: 500 },
    );
  });

  it("gives every fixture the same tree after printing", () => {
    for (const source of validSources) {
      const { ast } = parse(source);
      const reparsed = parse(print(ast)).ast;
      expect(withoutRanges({ ...reparsed, comments: [] })).toEqual(withoutRanges({ ...ast, comments: [] }));
    }
  });
});

describe("source ranges", () => {
  it("point at the text they were parsed from", () => {
    const source = "@temporal v4.6.2\r\n/* é */ mission m {\n  require phase [300, 30]\n  on ALLOW { execute t }\n}\n";
    const { ast } = parse(source);
    const mission = ast.missions[0]!;
    const slice = (r: { start: { offset: number }; end: { offset: number } }) => source.slice(r.start.offset, r.end.offset);
    expect(slice(mission.range)).toBe("mission m {\n  require phase [300, 30]\n  on ALLOW { execute t }\n}");
    expect(mission.range.start).toEqual({ line: 2, column: 9, offset: source.indexOf("mission") });
    expect(mission.range.end).toEqual({ line: 5, column: 2, offset: source.lastIndexOf("}") + 1 });
    const phase = mission.items[0]!;
    expect(slice(phase.range)).toBe("require phase [300, 30]");
    expect(phase.range.start).toEqual({ line: 3, column: 3, offset: source.indexOf("require") });
    expect(ast.comments).toEqual([{ kind: "BlockComment", text: "/* é */", range: { start: { line: 2, column: 1, offset: 18 }, end: { line: 2, column: 8, offset: 25 } } }]);
    expect(ast.range.end).toEqual({ line: 6, column: 1, offset: source.length });
  });
});
