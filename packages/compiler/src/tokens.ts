import { createToken, Lexer, type TokenType } from "chevrotain";

/**
 * The mission language's tokens. The patterns here are the normative
 * lexical grammar (and what Chevrotain's parser and diagrams are built
 * from); `tokenize.ts` implements them by hand for speed, and a test checks
 * it against Chevrotain's own lexer built from these definitions.
 *
 * Keywords are reserved only where the grammar expects them: every keyword
 * token is also in the `Name` category, so `execute phase` and
 * `mission carbon { }` parse, while the parser still sees a distinct token
 * where it needs a keyword.
 */

export const Name = createToken({ name: "Name", label: "a name", pattern: Lexer.NA });
export const Identifier = createToken({
  name: "Identifier",
  pattern: /[A-Za-z_][A-Za-z0-9_]*/,
  categories: [Name],
});

function keyword(word: string): TokenType {
  return createToken({
    name: word,
    label: `\`${word}\``,
    pattern: new RegExp(word),
    longer_alt: Identifier,
    categories: [Name],
  });
}

export const Mission = keyword("mission");
export const Require = keyword("require");
export const Phase = keyword("phase");
export const Carbon = keyword("carbon");
export const HsBloch = keyword("hs_bloch");
export const On = keyword("on");
export const Allow = keyword("ALLOW");
export const Deny = keyword("DENY");
export const Execute = keyword("execute");
export const Anchor = keyword("anchor");
export const Tsae = keyword("TSAE");
export const Clockchain = keyword("clockchain");
export const Quorum = keyword("quorum");
export const Signed = keyword("signed");
export const Ztt = keyword("ZTT");

/**
 * An IANA time zone name with at least one `/`: `Europe/Paris`,
 * `America/Argentina/Buenos_Aires`, `Etc/GMT+5`, `America/Port-au-Prince`.
 * Names without a slash (`UTC`) are identifiers. Listed before the keywords
 * and identifiers: the first pattern that matches wins.
 */
export const TimeZoneName = createToken({
  name: "TimeZoneName",
  label: "a time zone such as `Europe/Paris`",
  pattern: /[A-Za-z_][A-Za-z0-9_]*(?:\/[A-Za-z0-9_+-]+)+/,
});

/** `v4`, `v4.6`, `v4.6.2`; also a valid name (`execute v2`). */
export const Version = createToken({
  name: "Version",
  label: "a version such as `v4.6.2`",
  pattern: /v\d+(?:\.\d+)*/,
  longer_alt: Identifier,
  categories: [Name],
});

export const UnknownDirective = createToken({
  name: "UnknownDirective",
  label: "a directive",
  pattern: /@[A-Za-z_][A-Za-z0-9_]*/,
});
export const TemporalDirective = createToken({
  name: "TemporalDirective",
  label: "`@temporal`",
  pattern: /@temporal/,
  longer_alt: UnknownDirective,
});
export const AnchorDirective = createToken({
  name: "AnchorDirective",
  label: "`@anchor`",
  pattern: /@anchor/,
  longer_alt: UnknownDirective,
});

/**
 * Deliberately wider than the language's numbers (`1.`, `.5`, `1e3`) so the
 * parser can reject them with a precise message instead of a lexer error.
 */
export const NumberToken = createToken({
  name: "Number",
  label: "a number",
  pattern: /-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/,
});

/**
 * A clock time, `20:00` or `20:00:30`. Deliberately wider than the
 * language's clock times (`9:30`, `20:0`, `25:00`) so the checker can reject
 * them with a precise message; listed before numbers, which start the same.
 */
export const ClockTime = createToken({
  name: "ClockTime",
  label: "a clock time such as `20:00`",
  pattern: /\d+:\d+(?::\d+)?/,
});

export const LCurly = createToken({ name: "LCurly", label: "`{`", pattern: /{/ });
export const RCurly = createToken({ name: "RCurly", label: "`}`", pattern: /}/ });
export const LSquare = createToken({ name: "LSquare", label: "`[`", pattern: /\[/ });
export const RSquare = createToken({ name: "RSquare", label: "`]`", pattern: /]/ });
export const Comma = createToken({ name: "Comma", label: "`,`", pattern: /,/ });
export const Arrow = createToken({ name: "Arrow", label: "`->`", pattern: /->/ });
export const LessEqual = createToken({ name: "LessEqual", label: "`<=`", pattern: /<=/ });
export const Less = createToken({ name: "Less", label: "`<`", pattern: /</ });
export const GreaterEqual = createToken({ name: "GreaterEqual", label: "`>=`", pattern: />=/ });
export const Greater = createToken({ name: "Greater", label: "`>`", pattern: />/ });

export const Whitespace = createToken({ name: "Whitespace", pattern: /\s+/, group: Lexer.SKIPPED });
export const LineComment = createToken({ name: "LineComment", pattern: /\/\/[^\n\r]*/, group: "comments" });
export const BlockComment = createToken({
  name: "BlockComment",
  pattern: /\/\*[\s\S]*?\*\//,
  group: "comments",
  line_breaks: true,
});
export const UnterminatedComment = createToken({
  name: "UnterminatedComment",
  pattern: /\/\*[\s\S]*/,
  group: "unterminated",
  line_breaks: true,
});

/** Order matters: longer and more specific patterns first. */
export const allTokens: TokenType[] = [
  Whitespace,
  LineComment,
  BlockComment,
  UnterminatedComment,
  TemporalDirective,
  AnchorDirective,
  UnknownDirective,
  TimeZoneName,
  Mission,
  Require,
  Phase,
  Carbon,
  HsBloch,
  On,
  Allow,
  Deny,
  Execute,
  Anchor,
  Tsae,
  Clockchain,
  Quorum,
  Signed,
  Ztt,
  Version,
  Identifier,
  Name,
  ClockTime,
  NumberToken,
  LCurly,
  RCurly,
  LSquare,
  RSquare,
  Comma,
  Arrow,
  LessEqual,
  Less,
  GreaterEqual,
  Greater,
];

export const KEYWORD_TOKENS: readonly TokenType[] = [Mission, Require, Phase, Carbon, HsBloch, On, Allow, Deny, Execute, Anchor, Tsae, Clockchain, Quorum, Signed, Ztt];

export const KEYWORDS: readonly string[] = KEYWORD_TOKENS.map((type) => type.name);

export const DIRECTIVES: readonly string[] = ["@temporal", "@anchor"];
