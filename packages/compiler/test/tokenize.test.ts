import { Lexer, type IToken } from "chevrotain";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { allTokens } from "../src/tokens.js";
import { INVALID_RUNS_KEPT, tokenize } from "../src/tokenize.js";
import { allFixtures } from "./fixtures.js";

/**
 * The token definitions in tokens.ts are the specification; the scanner is a
 * hand-written implementation of them. Chevrotain's own lexer, built from the
 * same definitions, is the reference it must agree with on any input.
 */
const reference = new Lexer(allTokens, { positionTracking: "full", ensureOptimizations: true });

function shape(token: IToken) {
  const start = [token.tokenType.name, token.image, token.startOffset, token.endOffset, token.startLine, token.startColumn];
  // Chevrotain's end column for a token ending in `\r\r\n` is off by one; only an
  // unterminated comment can end in a line break, and its end is never shown.
  return /[\r\n]$/.test(token.image) ? start : [...start, token.endLine, token.endColumn];
}

function agree(text: string): void {
  const expected = reference.tokenize(text);
  const actual = tokenize(text);
  expect(actual.tokens.map(shape)).toEqual(expected.tokens.map(shape));
  expect(actual.comments.map(shape)).toEqual((expected.groups["comments"] ?? []).map(shape));
  expect(actual.unterminatedComments.map(shape)).toEqual((expected.groups["unterminated"] ?? []).map(shape));
  expect(actual.invalid.map((r) => [r.start.offset, r.end.offset - r.start.offset, r.start.line, r.start.column])).toEqual(
    expected.errors.slice(0, INVALID_RUNS_KEPT).map((e) => [e.offset, e.length, e.line, e.column]),
  );
  expect(actual.invalidCount).toBe(expected.errors.length);
}

const pieces = [
  "mission",
  "require",
  "phase",
  "carbon",
  "hs_bloch",
  "on",
  "ALLOW",
  "DENY",
  "execute",
  "anchor",
  "TSAE",
  "clockchain",
  "quorum",
  "signed",
  "ZTT",
  "signedZTT",
  "ZTTs",
  "missions",
  "onx",
  "v",
  "v4",
  "v4.6.2",
  "v4.",
  ".6",
  "x",
  "_",
  "Z11",
  "9",
  "12.5",
  "-3",
  "-",
  "->",
  "-.5",
  ".",
  "1.",
  "1e3",
  "1e",
  "E+7",
  "{",
  "}",
  "[",
  "]",
  ",",
  "<",
  "<=",
  ">",
  ">=",
  "=",
  "@",
  "@temporal",
  "@anchor",
  "@temporalx",
  "@anchorage",
  "@x1",
  "//",
  "/",
  "*",
  "/*",
  "*/",
  "\n",
  "\r",
  "\r\n",
  " ",
  "\t",
  "\u00a0",
  "\u2028",
  "\ufeff",
  "\u000b",
  "é",
  "🚀",
  "#",
  "\u0000",
  "\\",
  ":",
  "20:00",
  "9:30:15",
  "Europe/Paris",
  "Etc/GMT+5",
  "Port-au-Prince",
  "+",
];

describe("scanner", () => {
  it("has token definitions Chevrotain accepts with every optimisation", () => {
    expect(reference.lexerDefinitionErrors).toEqual([]);
  });

  it("agrees with Chevrotain's lexer on every fixture", () => {
    for (const fixture of allFixtures()) agree(fixture.source);
  });

  it("agrees with Chevrotain's lexer on token soup", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...pieces), { maxLength: 40 }).map((p) => p.join("")),
        agree,
      ),
      { numRuns: 2000 },
    );
  });

  it("agrees with Chevrotain's lexer on arbitrary text", () => {
    fc.assert(fc.property(fc.string({ unit: "binary", maxLength: 60 }), agree), { numRuns: 1000 });
  });

  it("reports the position just past the end", () => {
    expect(tokenize("a\r\nbc").end).toEqual({ line: 2, column: 3, offset: 5 });
    expect(tokenize("").end).toEqual({ line: 1, column: 1, offset: 0 });
  });
});
