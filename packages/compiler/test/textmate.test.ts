import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { IToken } from "chevrotain";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import oniguruma from "vscode-oniguruma";
import vsctm, { type IGrammar, type StateStack } from "vscode-textmate";
import { KEYWORDS } from "../src/tokens.js";
import { print } from "../src/printer.js";
import { tokenize } from "../src/tokenize.js";
import { missionFileArb } from "./arbitraries.js";
import { fixtures } from "./fixtures.js";

/**
 * grammar/mission.tmLanguage.json, the TextMate grammar editors highlight
 * `.mission` files with, run through the same engine VS Code uses
 * (vscode-textmate on the Oniguruma WebAssembly build).
 */
const GRAMMAR_PATH = new URL("../../../grammar/mission.tmLanguage.json", import.meta.url);
const ROOT = "source.mission";

async function loadGrammar(): Promise<IGrammar> {
  const wasm = readFileSync(createRequire(import.meta.url).resolve("vscode-oniguruma/release/onig.wasm"));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new vsctm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
      createOnigString: (text) => new oniguruma.OnigString(text),
    }),
    loadGrammar: async (scopeName) => (scopeName === ROOT ? vsctm.parseRawGrammar(readFileSync(GRAMMAR_PATH, "utf8"), GRAMMAR_PATH.pathname) : null),
  });
  const grammar = await registry.loadGrammar(ROOT);
  if (grammar === null) throw new Error(`no grammar for ${ROOT}`);
  return grammar;
}

const grammar = await loadGrammar();

interface Highlighted {
  /** The scopes of each character of the source; `undefined` for line breaks. */
  scopes: (readonly string[] | undefined)[];
  /** Offsets where a TextMate token starts or ends. */
  boundaries: Set<number>;
}

const highlighted = new Map<string, Highlighted>();

/** Tokenizes `source` line by line as an editor does, carrying the rule stack from each line to the next. */
function highlight(source: string): Highlighted {
  const cached = highlighted.get(source);
  if (cached !== undefined) return cached;
  const result: Highlighted = { scopes: new Array(source.length).fill(undefined), boundaries: new Set() };
  let stack: StateStack = vsctm.INITIAL;
  const lineBreak = /\r\n|\r|\n/g;
  let lineStart = 0;
  for (;;) {
    const match = lineBreak.exec(source);
    const lineEnd = match === null ? source.length : match.index;
    const line = source.slice(lineStart, lineEnd);
    const { tokens, ruleStack } = grammar.tokenizeLine(line, stack);
    for (const token of tokens) {
      const end = Math.min(token.endIndex, line.length);
      for (let i = token.startIndex; i < end; i++) result.scopes[lineStart + i] = token.scopes;
      result.boundaries.add(lineStart + token.startIndex);
      result.boundaries.add(lineStart + end);
    }
    stack = ruleStack;
    if (match === null) break;
    lineStart = lineBreak.lastIndex;
  }
  highlighted.set(source, result);
  return result;
}

/**
 * The scopes that all of the text marked with `«` and `»` in `needle` has,
 * found at the first place the unmarked needle occurs in `source`. The
 * marked text must be whole TextMate tokens: token boundaries at both ends.
 */
function scopesAt(source: string, needle: string): readonly string[] {
  const open = needle.indexOf("«");
  const close = needle.indexOf("»");
  if (open < 0 || close < open) throw new Error(`mark the token in ${JSON.stringify(needle)} with « and »`);
  const text = needle.replace("«", "").replace("»", "");
  const at = source.indexOf(text);
  if (at < 0) throw new Error(`${JSON.stringify(text)} is not in the source`);
  const start = at + open;
  const end = at + close - 1;
  const { scopes, boundaries } = highlight(source);
  expect(boundaries.has(start) && boundaries.has(end), `${JSON.stringify(needle)} is whole tokens`).toBe(true);
  let common = scopes[start] ?? [];
  for (let i = start + 1; i < end; i++) common = common.filter((scope) => scopes[i]?.includes(scope));
  return common;
}

const FIXTURES = new Map(fixtures("valid").map((fixture) => [fixture.name, fixture.source]));

function fixture(name: string): string {
  const source = FIXTURES.get(name);
  if (source === undefined) throw new Error(`no fixture fixtures/valid/${name}`);
  return source;
}

/** Constructs no valid fixture has: negative numbers, unknown directives, comments between `execute` and its name. */
const SNIPPET = `@anchor Z11 @rogue
mission edge_cases {
  require phase [-3, 12]
  on DENY {
    execute /* inline */ first_task
    execute
      // the name is on a later line
      second_task
    execute anchor TSAE -> clockchain
  }
}
`;

const C = "comment.line.double-slash.mission";
const B = "comment.block.mission";
const P = "punctuation.definition.comment.mission";

/** [source, needle with the token marked, a scope the token must have] */
const CASES: [string, string, string][] = [
  // Comments, including one that spans lines (and CRLF line endings).
  ["nightly-backup.mission", "«//» nightly-backup", C],
  ["nightly-backup.mission", "«//» nightly-backup", P],
  ["nightly-backup.mission", "//« nightly-backup.mission»", C],
  ["nightly-backup.mission", "«// wraps through 0»", C],
  ["multi-mission.mission", "«/*» Market hours", B],
  ["multi-mission.mission", "«/*» Market hours", P],
  ["multi-mission.mission", "/*« Market hours in New York are 14:30 to 21:00 UTC:»", B],
  ["multi-mission.mission", "«   in zone Z0 that is 217.5 to 315 degrees. »*/", B],
  ["multi-mission.mission", "315 degrees. «*/»", P],
  ["crlf-and-comments.mission", "«   and a block comment »*/", B],
  ["crlf-and-comments.mission", "comment «*/»", B],
  ["crlf-and-comments.mission", "[«/* start */» 45", B],
  ["crlf-and-comments.mission", "{ «// trailing»", C],
  // Directives.
  ["minimal.mission", "«@temporal» v4.6.2", "keyword.control.directive.mission"],
  ["nightly-backup.mission", "«@anchor» Z1", "keyword.control.directive.mission"],
  ["minimal.mission", "@temporal «v4.6.2»", "constant.other.version.mission"],
  ["all-requirements.mission", "@temporal «v4.6»", "constant.other.version.mission"],
  ["multi-mission.mission", "@temporal «v4»", "constant.other.version.mission"],
  ["all-requirements.mission", "@anchor «Z11»", "constant.language.zone.mission"],
  ["keywords-as-names.mission", "@anchor «Z0»", "constant.language.zone.mission"],
  ["paris-evening.mission", "@anchor «Europe/Paris»", "constant.language.time-zone.mission"],
  ["paris-evening.mission", "phase [«20:00», 02:00]", "constant.numeric.time.mission"],
  ["paris-evening.mission", "[02:30, «05:00:30»]", "constant.numeric.time.mission"],
  [SNIPPET, "«@rogue»", "invalid.illegal.directive.mission"],
  // Missions, including names that are keywords.
  ["minimal.mission", "«mission» hello", "storage.type.mission.mission"],
  ["minimal.mission", "mission «hello» {", "entity.name.function.mission"],
  ["keywords-as-names.mission", "«mission» carbon {", "storage.type.mission.mission"],
  ["keywords-as-names.mission", "mission «carbon» {", "entity.name.function.mission"],
  ["crlf-and-comments.mission", "*/ mission «crlf» {", "entity.name.function.mission"],
  // Requirements.
  ["all-requirements.mission", "«require» hs_bloch", "keyword.control.mission"],
  ["all-requirements.mission", "require «phase» [200", "support.type.property-name.mission"],
  ["all-requirements.mission", "require «carbon» <=", "support.type.property-name.mission"],
  ["all-requirements.mission", "require «hs_bloch» >=", "support.type.property-name.mission"],
  ["all-requirements.mission", "phase «[»200, 280]", "punctuation.section.brackets.begin.mission"],
  ["all-requirements.mission", "phase [200, 280«]»", "punctuation.section.brackets.end.mission"],
  ["all-requirements.mission", "phase [200«,» 280]", "punctuation.separator.comma.mission"],
  ["all-requirements.mission", "phase [«200», 280]", "constant.numeric.mission"],
  ["all-requirements.mission", "carbon <= «180.5»", "constant.numeric.mission"],
  [SNIPPET, "phase [«-3», 12]", "constant.numeric.mission"],
  ["nightly-backup.mission", "carbon «<» 250", "keyword.operator.comparison.mission"],
  ["all-requirements.mission", "carbon «<=» 180.5", "keyword.operator.comparison.mission"],
  ["all-requirements.mission", "hs_bloch «>=» 0.92", "keyword.operator.comparison.mission"],
  ["all-requirements.mission", "hs_bloch «>» 0.5", "keyword.operator.comparison.mission"],
  // Handlers and statements.
  ["minimal.mission", "«on» ALLOW", "keyword.control.mission"],
  ["minimal.mission", "on «ALLOW» {", "constant.language.verdict.mission"],
  ["nightly-backup.mission", "on «DENY» {", "constant.language.verdict.mission"],
  ["minimal.mission", "hello «{»", "punctuation.section.block.begin.mission"],
  ["minimal.mission", "ALLOW «{»", "punctuation.section.block.begin.mission"],
  ["minimal.mission", "greet\n  «}»", "punctuation.section.block.end.mission"],
  ["minimal.mission", "  }\n«}»", "punctuation.section.block.end.mission"],
  ["minimal.mission", "«execute» greet", "keyword.control.mission"],
  ["minimal.mission", "execute «greet»", "entity.name.function.task.mission"],
  ["nightly-backup.mission", "«anchor» TSAE", "keyword.control.mission"],
  ["nightly-backup.mission", "anchor «TSAE» ->", "support.constant.mission"],
  ["nightly-backup.mission", "TSAE «->» clockchain", "keyword.operator.arrow.mission"],
  ["nightly-backup.mission", "-> «clockchain»", "support.constant.mission"],
  ["witnessed.mission", "clockchain «quorum» 3", "keyword.control.mission"],
  ["witnessed.mission", "quorum «3»", "constant.numeric.mission"],
  ["witnessed.mission", "execute «quorum»", "entity.name.function.task.mission"],
  ["ztt-signed.mission", "clockchain «signed» ZTT", "keyword.control.mission"],
  ["ztt-signed.mission", "signed «ZTT»", "support.constant.mission"],
  ["ztt-signed.mission", "ZTT «quorum» 3", "keyword.control.mission"],
  ["ztt-signed.mission", "execute «signed»", "entity.name.function.task.mission"],
  // Task names that are keywords or look like versions.
  ["keywords-as-names.mission", "«execute» phase", "keyword.control.mission"],
  ["keywords-as-names.mission", "execute «phase»", "entity.name.function.task.mission"],
  ["keywords-as-names.mission", "execute «mission»", "entity.name.function.task.mission"],
  ["keywords-as-names.mission", "execute «require»", "entity.name.function.task.mission"],
  ["keywords-as-names.mission", "execute «v2»", "entity.name.function.task.mission"],
  ["names-that-clash.mission", "execute «require» }", "entity.name.function.task.mission"],
  // A comment between `execute` and its name, on the same line or spanning lines.
  [SNIPPET, "execute «/* inline */» first_task", B],
  [SNIPPET, "execute /* inline */ «first_task»", "entity.name.function.task.mission"],
  [SNIPPET, "«// the name is on a later line»", C],
  [SNIPPET, "      «second_task»", "entity.name.function.task.mission"],
  // As in the parser, a keyword that starts its own statement is not the missing name before it.
  [SNIPPET, "execute «anchor» TSAE", "keyword.control.mission"],
];

const sourceOf = (name: string) => (name.endsWith(".mission") ? fixture(name) : name);
const label = (name: string) => (name.endsWith(".mission") ? name : "snippet");

describe("grammar/mission.tmLanguage.json", () => {
  it("is the grammar for .mission files", () => {
    const json = JSON.parse(readFileSync(GRAMMAR_PATH, "utf8")) as { scopeName: string; fileTypes: string[] };
    expect(json.scopeName).toBe(ROOT);
    expect(json.fileTypes).toEqual(["mission"]);
  });

  it.each(CASES.map(([name, needle, scope]) => [label(name), needle, scope, sourceOf(name)] as const))("%s: %j is %s", (where, needle, scope, source) => {
    const scopes = scopesAt(source, needle);
    expect(scopes[0]).toBe(ROOT);
    expect(scopes, `${where}: ${needle}`).toContain(scope);
  });

  it("leaves no character of a valid fixture, outside whitespace, with only the root scope", () => {
    for (const [name, source] of FIXTURES) {
      const { scopes } = highlight(source);
      for (let i = 0; i < source.length; i++) {
        if (/\s/.test(source[i]!)) continue;
        const line = source.slice(0, i).split("\n").length;
        expect(scopes[i], `${name}:${line}: ${JSON.stringify(source[i])} has a scope`).toEqual(expect.arrayContaining([ROOT]));
        expect(scopes[i]!.length, `${name}:${line}: ${JSON.stringify(source[i])} has a scope beyond ${ROOT}`).toBeGreaterThan(1);
      }
    }
  });

  it("scopes every token of every valid fixture as the compiler reads it", () => {
    const seen = new Set<string>();
    for (const [name, source] of FIXTURES) {
      for (const token of expectedTokens(source)) seen.add(token.tokenType.name);
      agreesWithCompiler(source, name);
    }
    for (const keyword of KEYWORDS) expect(seen, keyword).toContain(keyword);
  });

  it("scopes every token of generated files as the compiler reads them", () => {
    fc.assert(
      fc.property(missionFileArb, (ast) => agreesWithCompiler(print(ast), "generated")),
      { numRuns: 200 },
    );
  });
});

/** Scope of each token type where it is not a name. */
const SCOPE_OF: Record<string, string> = {
  TemporalDirective: "keyword.control.directive.mission",
  AnchorDirective: "keyword.control.directive.mission",
  Version: "constant.other.version.mission",
  mission: "storage.type.mission.mission",
  require: "keyword.control.mission",
  on: "keyword.control.mission",
  execute: "keyword.control.mission",
  anchor: "keyword.control.mission",
  quorum: "keyword.control.mission",
  signed: "keyword.control.mission",
  ZTT: "support.constant.mission",
  phase: "support.type.property-name.mission",
  carbon: "support.type.property-name.mission",
  hs_bloch: "support.type.property-name.mission",
  ALLOW: "constant.language.verdict.mission",
  DENY: "constant.language.verdict.mission",
  TSAE: "support.constant.mission",
  clockchain: "support.constant.mission",
  Number: "constant.numeric.mission",
  ClockTime: "constant.numeric.time.mission",
  LCurly: "punctuation.section.block.begin.mission",
  RCurly: "punctuation.section.block.end.mission",
  LSquare: "punctuation.section.brackets.begin.mission",
  RSquare: "punctuation.section.brackets.end.mission",
  Comma: "punctuation.separator.comma.mission",
  Arrow: "keyword.operator.arrow.mission",
  Less: "keyword.operator.comparison.mission",
  LessEqual: "keyword.operator.comparison.mission",
  Greater: "keyword.operator.comparison.mission",
  GreaterEqual: "keyword.operator.comparison.mission",
  LineComment: C,
  BlockComment: B,
};

/** Scope of the name after each token type that a name follows. */
const NAME_AFTER: Record<string, (name: string) => string> = {
  mission: () => "entity.name.function.mission",
  execute: () => "entity.name.function.task.mission",
  AnchorDirective: (name) =>
    /^Z(?:[0-9]|1[01])$/.test(name) ? "constant.language.zone.mission" : /^[Zz][0-9]+$/.test(name) ? "invalid.illegal.zone.mission" : "constant.language.time-zone.mission",
};

function expectedTokens(source: string): IToken[] {
  const scanned = tokenize(source);
  expect(scanned.invalidCount).toBe(0);
  expect(scanned.unterminatedComments).toEqual([]);
  return [...scanned.tokens, ...scanned.comments];
}

/**
 * Every token the compiler's scanner finds is one TextMate token (or, for
 * directives and comments, a run of them) carrying the scope its role calls
 * for: a name where the token after `mission`, `execute` or `@anchor` is,
 * whatever its token type, and the token type's scope elsewhere.
 */
function agreesWithCompiler(source: string, name: string): void {
  const { scopes, boundaries } = highlight(source);
  const { tokens, comments } = tokenize(source);
  // A token after `mission`, `execute` or `@anchor` in its keyword role is a name, whatever its type.
  let nameScope: ((name: string) => string) | undefined;
  const roles = [
    ...tokens.map((token) => {
      const scope = nameScope === undefined ? SCOPE_OF[token.tokenType.name] : nameScope(token.image);
      nameScope = nameScope === undefined ? NAME_AFTER[token.tokenType.name] : undefined;
      return [token, scope] as const;
    }),
    ...comments.map((token) => [token, SCOPE_OF[token.tokenType.name]] as const),
  ];
  for (const [token, scope] of roles) {
    const where = `${name}:${token.startLine}:${token.startColumn} ${JSON.stringify(token.image)}`;
    expect(scope, `${where} has an expected scope`).toBeDefined();
    const end = token.endOffset! + 1;
    expect(boundaries.has(token.startOffset) && boundaries.has(end), `${where} starts and ends TextMate tokens`).toBe(true);
    for (let i = token.startOffset; i < end; i++) {
      if (/[\r\n]/.test(source[i]!)) continue;
      if (!scopes[i]?.includes(scope!)) expect(scopes[i], `${where} at offset ${i}`).toContain(scope);
    }
  }
}
