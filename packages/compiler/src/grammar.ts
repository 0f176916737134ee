import { EmbeddedActionsParser, EOF, tokenMatcher, type IParserErrorMessageProvider, type IRecognitionException, type IToken, type TokenType } from "chevrotain";
import type {
  AnchorClause,
  AnchorDirective,
  Directive,
  Handler,
  Identifier,
  Mission,
  NumberLiteral,
  PhaseBound,
  Position,
  Requirement,
  SourceRange,
  Statement,
  VersionDirective,
} from "./ast.js";
import { clockTimeDegrees } from "./clock-time.js";
import { diagnostic, replacement, type Diagnostic, type DiagnosticDetails, type DiagnosticParams } from "./diagnostics.js";
import * as tokens from "./tokens.js";
import { closestMatch, onlyClosestMatch } from "./suggest.js";

/**
 * Phase 2: tokens to AST. An embedded-actions parser builds the AST
 * directly (no concrete syntax tree), with Chevrotain's error recovery on so
 * one run reports every independent error.
 *
 * The parser accepts a little more than the normative grammar where that
 * gives better messages (any name after `on`, any name after `@anchor`,
 * unknown directives, loose numbers); it reports the difference itself.
 */

/**
 * Where a repetition ends with a closing token, Chevrotain only names the
 * closing token as expected; the tokens that could have started another
 * iteration are just as expected, and they are what a typo is closest to.
 */
const REPETITION_STARTS: Record<string, TokenType[]> = {
  MissionFile: [tokens.TemporalDirective, tokens.AnchorDirective, tokens.Mission],
  Mission: [tokens.Require, tokens.On],
  Handler: [tokens.Execute, tokens.Anchor],
};

/**
 * Chevrotain exceptions carry only a message string, so the message carries
 * the names of the expected token types, decoded again in `expectedTokens`.
 */
function encodeExpected(expected: readonly (TokenType | undefined)[], ruleName: string): string {
  const names = new Set<string>();
  const closesRepetition = expected.some((type) => type === tokens.RCurly || type === EOF);
  if (closesRepetition) for (const type of REPETITION_STARTS[ruleName] ?? []) names.add(type.name);
  for (const type of expected) if (type !== undefined) names.add(type.name);
  return [...names].join(" ");
}

/** Past this many syntax errors the input is not a mission file; parsing further only costs time. */
export const MAX_SYNTAX_ERRORS = 200;

/** Thrown out of Chevrotain when a file has too many syntax errors to be worth parsing further. */
class ParsingAbandoned extends Error {}

/** Builds every syntax error's message, and so also sees every error as it happens. */
class ExpectedTokensMessages implements IParserErrorMessageProvider {
  errorCount = 0;

  #count(message: string): string {
    if (++this.errorCount > MAX_SYNTAX_ERRORS) throw new ParsingAbandoned();
    return message;
  }

  buildMismatchTokenMessage({ expected, ruleName }: { expected: TokenType; ruleName: string }): string {
    return this.#count(encodeExpected([expected], ruleName));
  }

  buildNotAllInputParsedMessage({ ruleName }: { ruleName: string }): string {
    return this.#count(encodeExpected([EOF], ruleName));
  }

  buildNoViableAltMessage({ expectedPathsPerAlt, ruleName }: { expectedPathsPerAlt: TokenType[][][]; ruleName: string }): string {
    return this.#count(
      encodeExpected(
        expectedPathsPerAlt.flatMap((paths) => paths.map((path) => path[0])),
        ruleName,
      ),
    );
  }

  buildEarlyExitMessage({ expectedIterationPaths, ruleName }: { expectedIterationPaths: TokenType[][]; ruleName: string }): string {
    return this.#count(
      encodeExpected(
        expectedIterationPaths.map((path) => path[0]),
        ruleName,
      ),
    );
  }
}

const TOKEN_TYPES_BY_NAME = new Map<string, TokenType>([...tokens.allTokens.map((type): [string, TokenType] => [type.name, type]), [EOF.name, EOF]]);

export function expectedTokens(exception: IRecognitionException): TokenType[] {
  return exception.message
    .split(" ")
    .map((name) => TOKEN_TYPES_BY_NAME.get(name))
    .filter((type): type is TokenType => type !== undefined);
}

const STRICT_NUMBER = /^-?\d+(?:\.\d+)?$/;

/** Whether a number's text is well formed (else the parser reported M103 for it, and later checks keep quiet). */
export function isWellFormedNumber(text: string): boolean {
  return STRICT_NUMBER.test(text);
}
const VERSION_PARTS = /^v(\d+)(?:\.(\d+)(?:\.(\d+))?)?$/;
const ZONE_CODE = /^Z(\d{1,2})$/;
/** `Z` (or `z`) and digits: meant as an SWT zone (M204 when not Z0..Z11); any other anchor is an IANA name. */
const ZONE_CODE_SHAPE = /^[Zz]\d+$/;

function isMissing(token: IToken): boolean {
  return token.isInsertedInRecovery === true;
}

export interface ParsedFile {
  directives: Directive[];
  missions: Mission[];
}

/**
 * Nodes enter the tree as soon as their header is parsed, and children are
 * attached as they complete, so a construct cut short by an error (an
 * unclosed block at the end of the file) keeps everything parsed so far and
 * the checker still sees it.
 */
export interface ParserOutput {
  file: ParsedFile;
  diagnostics: Diagnostic[];
  errors: IRecognitionException[];
  /** Where parsing stopped after too many errors, if it did. */
  abandonedAt: IToken | undefined;
}

export class MissionParser extends EmbeddedActionsParser {
  readonly #messages: ExpectedTokensMessages;
  #filename = "";
  #diagnostics: Diagnostic[] = [];
  #file: ParsedFile = { directives: [], missions: [] };

  constructor() {
    const messages = new ExpectedTokensMessages();
    // The grammar is LL(1); a smaller lookahead also makes construction (at every CLI start) cheaper.
    super(tokens.allTokens, { recoveryEnabled: true, errorMessageProvider: messages, skipValidations: true, maxLookahead: 1 });
    this.#messages = messages;
    this.performSelfAnalysis();
  }

  /** Parses one file's tokens into AST parts, the parser's own diagnostics and Chevrotain's errors. */
  parseTokens(input: IToken[], filename: string): ParserOutput {
    this.#filename = filename;
    this.#diagnostics = [];
    this.#file = { directives: [], missions: [] };
    this.#messages.errorCount = 0;
    this.input = input;
    // Recognition exceptions are values here, never shown with a stack: capturing
    // one per syntax error would dominate the cost of parsing broken input.
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    let abandonedAt: IToken | undefined;
    try {
      this.missionFile();
    } catch (error) {
      if (!(error instanceof ParsingAbandoned)) throw error;
      abandonedAt = this.LA(1);
    } finally {
      Error.stackTraceLimit = stackTraceLimit;
    }
    const result = { file: this.#file, diagnostics: this.#diagnostics, errors: this.errors, abandonedAt };
    this.#diagnostics = [];
    this.#file = { directives: [], missions: [] };
    this.input = [];
    return result;
  }

  private missionFile = this.RULE("MissionFile", (): void => {
    this.MANY(() => {
      this.OR([
        { ALT: () => this.SUBRULE(this.versionDirective) },
        { ALT: () => this.SUBRULE(this.anchorDirective) },
        { ALT: () => this.SUBRULE(this.unknownDirective) },
        { ALT: () => this.SUBRULE(this.mission) },
      ]);
    });
  });

  private versionDirective = this.RULE("VersionDirective", (): void => {
    const keyword = this.CONSUME(tokens.TemporalDirective);
    const directive = this.ACTION(() => {
      const node: VersionDirective = { kind: "VersionDirective", version: null, range: this.#tokenRange(keyword) };
      this.#file.directives.push(node);
      return node;
    });
    const version = this.CONSUME(tokens.Version);
    this.ACTION(() => {
      if (isMissing(version)) return;
      directive.range = this.#rangeFrom(keyword);
      const parts = VERSION_PARTS.exec(version.image);
      if (parts === null) {
        this.#report("M103", version, { what: "version", text: version.image });
        return;
      }
      directive.version = {
        raw: version.image,
        major: Number(parts[1]),
        minor: parts[2] === undefined ? null : Number(parts[2]),
        patch: parts[3] === undefined ? null : Number(parts[3]),
      };
    });
  });

  private anchorDirective = this.RULE("AnchorDirective", (): void => {
    const keyword = this.CONSUME(tokens.AnchorDirective);
    const directive = this.ACTION(() => {
      const node: AnchorDirective = { kind: "AnchorDirective", code: null, zone: null, timeZone: null, range: this.#tokenRange(keyword) };
      this.#file.directives.push(node);
      return node;
    });
    const code = this.OR([{ ALT: () => this.CONSUME(tokens.TimeZoneName) }, { ALT: () => this.#name() }]);
    this.ACTION(() => {
      if (code === undefined || isMissing(code)) return;
      const digits = ZONE_CODE.exec(code.image)?.[1];
      const valid = digits !== undefined && Number(digits) <= 11 && String(Number(digits)) === digits;
      directive.code = this.#identifier(code);
      directive.zone = valid ? Number(digits) : null;
      directive.timeZone = ZONE_CODE_SHAPE.test(code.image) ? null : code.image;
      directive.range = this.#rangeFrom(keyword);
    });
  });

  /** Not in the grammar: consumes `@something [argument]` so one typo gives one error. */
  private unknownDirective = this.RULE("UnknownDirective", (): void => {
    const directive = this.CONSUME(tokens.UnknownDirective);
    this.OPTION(() => {
      this.OR([
        { ALT: () => this.CONSUME(tokens.Identifier) },
        { ALT: () => this.CONSUME(tokens.TimeZoneName) },
        { ALT: () => this.CONSUME(tokens.Version) },
        { ALT: () => this.CONSUME(tokens.NumberToken) },
      ]);
    });
    this.ACTION(() => {
      const suggestion = closestMatch(directive.image, tokens.DIRECTIVES);
      const certain = onlyClosestMatch(directive.image, tokens.DIRECTIVES);
      const fixes = certain === undefined ? [] : [replacement(this.#tokenRange(directive), certain)];
      this.#report("M205", directive, { directive: directive.image, suggestion }, { fixes });
    });
  });

  private mission = this.RULE("Mission", (): void => {
    const keyword = this.CONSUME(tokens.Mission);
    const name = this.#name();
    // `mission` followed by the next mission: this one ends here, it has nothing else.
    if (!this.RECORDING_PHASE && name === undefined && startsConstruct(this.LA(1), this.LA(2), this.LA(3))) return;
    const mission = this.ACTION(() => {
      if (name === undefined) return undefined;
      const node: Mission = { kind: "Mission", name: this.#identifier(name), items: [], range: this.#rangeFrom(keyword) };
      this.#file.missions.push(node);
      return node;
    });
    this.CONSUME(tokens.LCurly);
    this.MANY(() => {
      this.OR([{ ALT: () => this.SUBRULE(this.requirement, { ARGS: [mission] }) }, { ALT: () => this.SUBRULE(this.handler, { ARGS: [mission] }) }]);
    });
    this.CONSUME(tokens.RCurly);
    this.ACTION(() => {
      if (mission !== undefined) mission.range = this.#rangeFrom(keyword);
    });
  });

  private requirement = this.RULE("Requirement", (mission: Mission | undefined): void => {
    const keyword = this.CONSUME(tokens.Require);
    const requirement = this.OR([
      { ALT: () => this.SUBRULE(this.phaseCondition, { ARGS: [keyword] }) },
      { ALT: () => this.SUBRULE(this.carbonCondition, { ARGS: [keyword] }) },
      { ALT: () => this.SUBRULE(this.hsBlochCondition, { ARGS: [keyword] }) },
    ]);
    this.ACTION(() => {
      if (mission !== undefined && requirement !== undefined) attach(mission, mission.items, requirement);
    });
  });

  private phaseCondition = this.RULE(
    "PhaseCondition",
    (keyword: IToken): Requirement | undefined => {
      this.CONSUME(tokens.Phase);
      this.CONSUME(tokens.LSquare);
      const start = this.OR1([{ ALT: () => this.CONSUME1(tokens.NumberToken) }, { ALT: () => this.CONSUME1(tokens.ClockTime) }]);
      this.CONSUME(tokens.Comma);
      const end = this.OR2([{ ALT: () => this.CONSUME2(tokens.NumberToken) }, { ALT: () => this.CONSUME2(tokens.ClockTime) }]);
      this.CONSUME(tokens.RSquare);
      return this.ACTION(() => {
        const startLiteral = this.#bound(start);
        const endLiteral = this.#bound(end);
        if (startLiteral === undefined || endLiteral === undefined) return undefined;
        return { kind: "PhaseRequirement", start: startLiteral, end: endLiteral, range: this.#rangeFrom(keyword) };
      });
    },
    { recoveryValueFunc: () => undefined },
  );

  private carbonCondition = this.RULE(
    "CarbonCondition",
    (keyword: IToken): Requirement | undefined => {
      this.CONSUME(tokens.Carbon);
      const operator = this.OR([{ ALT: () => this.CONSUME(tokens.Less) }, { ALT: () => this.CONSUME(tokens.LessEqual) }]);
      const value = this.CONSUME(tokens.NumberToken);
      return this.ACTION(() => {
        const threshold = this.#number(value);
        if (threshold === undefined) return undefined;
        const op = operator.image === "<=" ? "<=" : "<";
        return { kind: "CarbonRequirement", operator: op, threshold, range: this.#rangeFrom(keyword) };
      });
    },
    { recoveryValueFunc: () => undefined },
  );

  private hsBlochCondition = this.RULE(
    "HsBlochCondition",
    (keyword: IToken): Requirement | undefined => {
      this.CONSUME(tokens.HsBloch);
      const operator = this.OR([{ ALT: () => this.CONSUME(tokens.GreaterEqual) }, { ALT: () => this.CONSUME(tokens.Greater) }]);
      const value = this.CONSUME(tokens.NumberToken);
      return this.ACTION(() => {
        const threshold = this.#number(value);
        if (threshold === undefined) return undefined;
        const op = operator.image === ">" ? ">" : ">=";
        return { kind: "HsBlochRequirement", operator: op, threshold, range: this.#rangeFrom(keyword) };
      });
    },
    { recoveryValueFunc: () => undefined },
  );

  private handler = this.RULE("Handler", (mission: Mission | undefined): void => {
    const keyword = this.CONSUME(tokens.On);
    const verdict = this.CONSUME(tokens.Name);
    const handler = this.ACTION(() => {
      if (isMissing(verdict)) return undefined;
      if (verdict.image !== "ALLOW" && verdict.image !== "DENY") {
        const suggestion = closestMatch(verdict.image, ["ALLOW", "DENY"]);
        this.#report(
          "M102",
          verdict,
          { expected: "`ALLOW` or `DENY`", found: `\`${verdict.image}\`` },
          {
            help: suggestion === undefined ? "a handler is `on ALLOW { ... }` or `on DENY { ... }`" : `did you mean \`${suggestion}\`?`,
          },
        );
        return undefined;
      }
      const node: Handler = { kind: "Handler", verdict: verdict.image, body: [], range: this.#rangeFrom(keyword) };
      if (mission !== undefined) attach(mission, mission.items, node);
      return node;
    });
    this.CONSUME(tokens.LCurly);
    this.MANY(() => this.SUBRULE(this.statement, { ARGS: [handler, mission] }));
    this.CONSUME(tokens.RCurly);
    this.ACTION(() => {
      if (handler === undefined) return;
      handler.range = this.#rangeFrom(keyword);
      if (mission !== undefined) grow(mission, handler.range);
    });
  });

  private statement = this.RULE("Statement", (handler: Handler | undefined, mission: Mission | undefined): void => {
    const statement = this.OR<Statement | undefined>([
      {
        ALT: () => {
          const keyword = this.CONSUME(tokens.Execute);
          const task = this.#name();
          return this.ACTION(() => (task === undefined ? undefined : { kind: "ExecuteStatement" as const, task: this.#identifier(task), range: this.#rangeFrom(keyword) }));
        },
      },
      {
        ALT: () => {
          const keyword = this.CONSUME(tokens.Anchor);
          this.CONSUME(tokens.Tsae);
          this.CONSUME(tokens.Arrow);
          this.CONSUME(tokens.Clockchain);
          // Clauses in any order and number: the checker, not the parser, reports a repeat or the wrong order (M512, M513), with a fix.
          const clauses: AnchorClause[] = [];
          this.MANY(() => {
            const clause = this.OR2<AnchorClause>([
              {
                ALT: () => {
                  const signed = this.CONSUME(tokens.Signed);
                  this.CONSUME(tokens.Ztt);
                  return this.ACTION(() => ({ kind: "SignedZtt" as const, range: this.#rangeFrom(signed) }));
                },
              },
              {
                ALT: () => {
                  const quorum = this.CONSUME(tokens.Quorum);
                  const count = this.CONSUME(tokens.NumberToken);
                  // A quorum whose number is missing has its syntax error; the anchor stays in the tree for tools.
                  return this.ACTION(() => ({ kind: "Quorum" as const, value: this.#number(count) ?? null, range: this.#rangeFrom(quorum) }));
                },
              },
            ]);
            this.ACTION(() => clauses.push(clause));
          });
          return this.ACTION(() => ({
            kind: "AnchorStatement" as const,
            quorum: clauses.flatMap((c) => (c.kind === "Quorum" ? [c.value] : []))[0] ?? null,
            signedZtt: clauses.find((c) => c.kind === "SignedZtt") ?? null,
            clauses,
            range: this.#rangeFrom(keyword),
          }));
        },
      },
    ]);
    this.ACTION(() => {
      if (handler === undefined || statement === undefined) return;
      attach(handler, handler.body, statement);
      if (mission !== undefined) grow(mission, handler.range);
    });
  });

  /**
   * A name. Keywords are names too, except where one starts the construct
   * it belongs to (`@anchor` followed by `mission a {`): then the name is
   * missing, and the keyword is left to start its construct, so one
   * forgotten name does not swallow the next mission. Versions with dots
   * look like names to the lexer but are not names.
   */
  #name(): IToken | undefined {
    if (!this.RECORDING_PHASE && startsConstruct(this.LA(1), this.LA(2), this.LA(3))) {
      this.#report(
        "M102",
        this.LA(1),
        { expected: "a name", found: `\`${this.LA(1).image}\`` },
        {
          help: `\`${this.LA(1).image}\` here starts the next ${this.LA(1).image === "mission" ? "mission" : "item"}; write the missing name before it`,
        },
      );
      return undefined;
    }
    const token = this.CONSUME(tokens.Name);
    if (this.RECORDING_PHASE || isMissing(token)) return isMissing(token) ? undefined : token;
    if (token.image.includes(".")) {
      this.#report(
        "M102",
        token,
        { expected: "a name", found: `\`${token.image}\`` },
        {
          help: "names are letters, digits and `_`, starting with a letter or `_`",
        },
      );
      return undefined;
    }
    return token;
  }

  /** From the start of `first` to the end of the last real token consumed. */
  #rangeFrom(first: IToken): SourceRange {
    const last = this.LA(0);
    const end = tokenMatcher(last, EOF) || last.endOffset! < first.endOffset! ? first : last;
    return { start: startOf(first), end: endOf(end) };
  }

  #identifier(token: IToken): Identifier {
    return { kind: "Identifier", name: token.image, range: this.#tokenRange(token) };
  }

  /** A window bound: a number, or a clock time (whose validity the checker judges, M304). */
  #bound(token: IToken): PhaseBound | undefined {
    if (isMissing(token) || !tokenMatcher(token, tokens.ClockTime)) return this.#number(token);
    return { kind: "ClockTime", value: clockTimeDegrees(token.image), raw: token.image, range: this.#tokenRange(token) };
  }

  #number(token: IToken): NumberLiteral | undefined {
    if (isMissing(token)) return undefined;
    const value = Number(token.image);
    if (!isWellFormedNumber(token.image)) {
      this.#report("M103", token, { what: "number", text: token.image });
    } else if (!Number.isFinite(value)) {
      // Past about 1.8e308 digits read as Infinity, which would compile to a requirement nobody wrote.
      this.#report("M108", token, { text: token.image });
    }
    return { kind: "NumberLiteral", value, raw: token.image, range: this.#tokenRange(token) };
  }

  #tokenRange(token: IToken): SourceRange {
    return { start: startOf(token), end: endOf(token) };
  }

  #report<C extends "M102" | "M103" | "M108" | "M205">(code: C, token: IToken, params: DiagnosticParams<C>, details?: DiagnosticDetails<C>): void {
    this.#diagnostics.push(diagnostic(code, this.#filename, this.#tokenRange(token), params, details));
  }
}

/** Whether the keyword at `first` begins the construct it is the keyword of, judged by the tokens after it. */
function startsConstruct(first: IToken, second: IToken, third: IToken): boolean {
  if (tokenMatcher(first, tokens.Mission)) return tokenMatcher(second, tokens.Name) && tokenMatcher(third, tokens.LCurly);
  if (tokenMatcher(first, tokens.Require)) return [tokens.Phase, tokens.Carbon, tokens.HsBloch].some((type) => tokenMatcher(second, type));
  if (tokenMatcher(first, tokens.On)) return tokenMatcher(second, tokens.Allow) || tokenMatcher(second, tokens.Deny);
  if (tokenMatcher(first, tokens.Anchor)) return tokenMatcher(second, tokens.Tsae);
  return false;
}

/** Adds a completed child and extends its parent's range over it. */
function attach<T extends { range: SourceRange }>(parent: { range: SourceRange }, children: T[], child: T): void {
  children.push(child);
  grow(parent, child.range);
}

function grow(node: { range: SourceRange }, over: SourceRange): void {
  if (over.end.offset > node.range.end.offset) node.range = { start: node.range.start, end: over.end };
}

function startOf(token: IToken): Position {
  return { line: token.startLine!, column: token.startColumn!, offset: token.startOffset };
}

/** Chevrotain's token ends are inclusive; ranges end just past the last character. */
function endOf(token: IToken): Position {
  return { line: token.endLine!, column: token.endColumn! + 1, offset: token.endOffset! + 1 };
}
