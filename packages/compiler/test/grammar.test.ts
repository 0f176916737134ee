import { readFileSync } from "node:fs";
import { tokenMatcher } from "chevrotain";
import { describe, expect, it } from "vitest";
import { Name } from "../src/tokens.js";
import { MissionParser } from "../src/grammar.js";
import { tokenize } from "../src/tokenize.js";
import { fixtures } from "./fixtures.js";

/**
 * grammar/mission.ebnf is normative; these tests keep it in step with the
 * parser and make sure the valid fixtures exercise every production.
 */
const ebnf = readFileSync(new URL("../../../grammar/mission.ebnf", import.meta.url), "utf8");
const [syntax, lexical] = ebnf.split("/* Lexical structure */") as [string, string];
const productionNames = (text: string) => [...text.matchAll(/^([A-Za-z]+)\s+::=/gm)].map((m) => m[1]!);

/** Rules the parser has beyond the grammar, to turn common mistakes into one precise error. */
const RECOVERY_ONLY_RULES = ["UnknownDirective"];

/** chevrotain's hook called at every rule invocation, which its typings leave out. */
interface RuleInvocationHook {
  ruleInvocationStateUpdate(shortName: number, fullName: string, idxInCallingRule: number): void;
}

/** Records which rules run while parsing. */
class CoverageParser extends MissionParser {
  readonly invoked = new Set<string>();

  ruleInvocationStateUpdate(shortName: number, fullName: string, idxInCallingRule: number): void {
    this.invoked.add(fullName);
    (MissionParser.prototype as unknown as RuleInvocationHook).ruleInvocationStateUpdate.call(this, shortName, fullName, idxInCallingRule);
  }
}

describe("grammar/mission.ebnf", () => {
  const parser = new CoverageParser();
  const ruleNames = Object.keys(parser.getGAstProductions());

  it("has a parser rule for every syntactic production, and a production for every parser rule", () => {
    expect(productionNames(syntax).sort()).toEqual(ruleNames.filter((r) => !RECOVERY_ONLY_RULES.includes(r)).sort());
  });

  it("has every syntactic production exercised by a valid fixture", () => {
    for (const fixture of fixtures("valid")) {
      const { tokens } = tokenize(fixture.source);
      parser.parseTokens(tokens, fixture.relativePath);
    }
    for (const production of productionNames(syntax)) expect(parser.invoked, production).toContain(production);
  });

  it("has every lexical production exercised by a valid fixture", () => {
    const seen = new Set<string>();
    for (const fixture of fixtures("valid")) {
      const scanned = tokenize(fixture.source);
      for (const token of [...scanned.tokens, ...scanned.comments]) {
        seen.add(token.tokenType.name);
        if (tokenMatcher(token, Name)) seen.add("Name");
      }
      if (/\s/.test(fixture.source)) seen.add("Whitespace");
    }
    for (const production of productionNames(lexical)) expect(seen, production).toContain(production);
  });
});
