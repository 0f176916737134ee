import type { IToken, TokenType } from "chevrotain";
import type { Position, SourceRange } from "./ast.js";
import * as t from "./tokens.js";

/**
 * Phase 1: source text to tokens.
 *
 * A hand-written scanner for the tokens defined in `tokens.ts`: same tokens,
 * same longest-match and `longer_alt` rules, same grouping of unmatched
 * characters, but a single pass over char codes that tracks lines as it
 * goes, several times faster than a regex-driven lexer. Tokens are
 * Chevrotain `IToken`s so the parser consumes them directly.
 */

export interface ScannedSource {
  tokens: IToken[];
  comments: IToken[];
  unterminatedComments: IToken[];
  /** The first runs of characters no token matches (at most `INVALID_RUNS_KEPT`). */
  invalid: SourceRange[];
  /** How many such runs there are in all. */
  invalidCount: number;
  /** The position just past the last character. */
  end: Position;
}

/** Tokens whose text is always the same: their image is shared, not sliced from the source. */
const FIXED_IMAGES: ReadonlyMap<TokenType, string> = new Map([
  ...t.KEYWORD_TOKENS.map((type): [TokenType, string] => [type, type.name]),
  [t.TemporalDirective, "@temporal"],
  [t.AnchorDirective, "@anchor"],
  [t.LCurly, "{"],
  [t.RCurly, "}"],
  [t.LSquare, "["],
  [t.RSquare, "]"],
  [t.Comma, ","],
  [t.Arrow, "->"],
  [t.LessEqual, "<="],
  [t.Less, "<"],
  [t.GreaterEqual, ">="],
  [t.Greater, ">"],
]);

/** Keywords by first char code, so recognising one needs no substring. */
const KEYWORDS_BY_FIRST_CHAR = new Map<number, TokenType[]>();
for (const type of t.KEYWORD_TOKENS) {
  const first = type.name.charCodeAt(0);
  KEYWORDS_BY_FIRST_CHAR.set(first, [...(KEYWORDS_BY_FIRST_CHAR.get(first) ?? []), type]);
}

function keywordOrIdentifier(text: string, offset: number, end: number): TokenType {
  const candidates = KEYWORDS_BY_FIRST_CHAR.get(text.charCodeAt(offset));
  if (candidates !== undefined) {
    for (const type of candidates) {
      if (type.name.length === end - offset && text.startsWith(type.name, offset)) return type;
    }
  }
  return t.Identifier;
}

/** Junk input can have millions of unmatched runs; more than this are only counted, never shown. */
export const INVALID_RUNS_KEPT = 128;

// Char codes, as plain constants: `const enum` is not inlined under `verbatimModuleSyntax`.
const TAB = 9;
const LINE_FEED = 10;
const CARRIAGE_RETURN = 13;
const SPACE = 32;
const STAR = 42;
const PLUS = 43;
const COMMA = 44;
const COLON = 58;
const MINUS = 45;
const DOT = 46;
const SLASH = 47;
const DIGIT_0 = 48;
const DIGIT_9 = 57;
const LESS = 60;
const EQUALS = 61;
const GREATER = 62;
const AT = 64;
const UPPER_A = 65;
const UPPER_E = 69;
const UPPER_Z = 90;
const L_SQUARE = 91;
const R_SQUARE = 93;
const UNDERSCORE = 95;
const LOWER_A = 97;
const LOWER_E = 101;
const LOWER_V = 118;
const LOWER_Z = 122;
const L_CURLY = 123;
const R_CURLY = 125;

function isDigit(code: number): boolean {
  return code >= DIGIT_0 && code <= DIGIT_9;
}

function isNameStart(code: number): boolean {
  return (code >= LOWER_A && code <= LOWER_Z) || (code >= UPPER_A && code <= UPPER_Z) || code === UNDERSCORE;
}

function isNamePart(code: number): boolean {
  return isNameStart(code) || isDigit(code);
}

/** Exactly JavaScript's `\s`, as the token definitions use it. */
function isWhitespace(code: number): boolean {
  if (code <= SPACE) return code === SPACE || (code >= TAB && code <= CARRIAGE_RETURN);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff
  );
}

function skipDigits(text: string, offset: number): number {
  while (isDigit(text.charCodeAt(offset))) offset++;
  return offset;
}

function skipNameParts(text: string, offset: number): number {
  while (isNamePart(text.charCodeAt(offset))) offset++;
  return offset;
}

/** End of `-?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?` at `offset`, or -1. */
function numberEnd(text: string, offset: number): number {
  let i = text.charCodeAt(offset) === MINUS ? offset + 1 : offset;
  if (isDigit(text.charCodeAt(i))) {
    i = skipDigits(text, i);
    if (text.charCodeAt(i) === DOT) i = skipDigits(text, i + 1);
  } else if (text.charCodeAt(i) === DOT && isDigit(text.charCodeAt(i + 1))) {
    i = skipDigits(text, i + 1);
  } else {
    return -1;
  }
  const e = text.charCodeAt(i);
  if (e === LOWER_E || e === UPPER_E) {
    let j = i + 1;
    const sign = text.charCodeAt(j);
    if (sign === PLUS || sign === MINUS) j++;
    if (isDigit(text.charCodeAt(j))) i = skipDigits(text, j);
  }
  return i;
}

/** End of `\d+:\d+(:\d+)?` at `offset` (which holds a digit), or -1. */
function clockTimeEnd(text: string, offset: number): number {
  let i = skipDigits(text, offset);
  if (text.charCodeAt(i) !== COLON || !isDigit(text.charCodeAt(i + 1))) return -1;
  i = skipDigits(text, i + 1);
  if (text.charCodeAt(i) === COLON && isDigit(text.charCodeAt(i + 1))) i = skipDigits(text, i + 1);
  return i;
}

function isZoneNamePart(code: number): boolean {
  return isNamePart(code) || code === PLUS || code === MINUS;
}

/** End of the `(/[A-Za-z0-9_+-]+)+` that continues a name ending at `offset`, or -1 when none does. */
function zoneNameEnd(text: string, offset: number): number {
  let i = offset;
  while (text.charCodeAt(i) === SLASH && isZoneNamePart(text.charCodeAt(i + 1))) {
    i += 2;
    while (isZoneNamePart(text.charCodeAt(i))) i++;
  }
  return i === offset ? -1 : i;
}

/** End of `v\d+(\.\d+)*` at `offset` (which holds `v`), or -1. */
function versionEnd(text: string, offset: number): number {
  if (!isDigit(text.charCodeAt(offset + 1))) return -1;
  let i = skipDigits(text, offset + 1);
  while (text.charCodeAt(i) === DOT && isDigit(text.charCodeAt(i + 1))) i = skipDigits(text, i + 1);
  return i;
}

// The result of `match`, kept in module state so the hot loop allocates nothing per attempt.
let matchedType: TokenType = t.Identifier;
let matchedEnd = 0;

/** Matches the token starting at `offset` (not whitespace); false when none does. */
function match(text: string, offset: number): boolean {
  const code = text.charCodeAt(offset);
  const next = text.charCodeAt(offset + 1);
  if (isNameStart(code)) {
    const end = skipNameParts(text, offset + 1);
    const zoneName = zoneNameEnd(text, end);
    if (zoneName >= 0) return found(t.TimeZoneName, zoneName);
    const version = code === LOWER_V ? versionEnd(text, offset) : -1;
    if (version >= end) return found(t.Version, version);
    return found(keywordOrIdentifier(text, offset, end), end);
  }
  switch (code) {
    case L_CURLY:
      return found(t.LCurly, offset + 1);
    case R_CURLY:
      return found(t.RCurly, offset + 1);
    case L_SQUARE:
      return found(t.LSquare, offset + 1);
    case R_SQUARE:
      return found(t.RSquare, offset + 1);
    case COMMA:
      return found(t.Comma, offset + 1);
    case LESS:
      return next === EQUALS ? found(t.LessEqual, offset + 2) : found(t.Less, offset + 1);
    case GREATER:
      return next === EQUALS ? found(t.GreaterEqual, offset + 2) : found(t.Greater, offset + 1);
    case AT: {
      if (!isNameStart(next)) return false;
      const end = skipNameParts(text, offset + 2);
      const length = end - offset;
      if (length === 9 && text.startsWith("@temporal", offset)) return found(t.TemporalDirective, end);
      if (length === 7 && text.startsWith("@anchor", offset)) return found(t.AnchorDirective, end);
      return found(t.UnknownDirective, end);
    }
    case SLASH:
      if (next === SLASH) {
        let end = offset + 2;
        while (end < text.length) {
          const c = text.charCodeAt(end);
          if (c === LINE_FEED || c === CARRIAGE_RETURN) break;
          end++;
        }
        return found(t.LineComment, end);
      }
      if (next === STAR) {
        const close = text.indexOf("*/", offset + 2);
        return close < 0 ? found(t.UnterminatedComment, text.length) : found(t.BlockComment, close + 2);
      }
      return false;
    case MINUS:
      if (next === GREATER) return found(t.Arrow, offset + 2);
      break;
  }
  if (isDigit(code)) {
    const end = clockTimeEnd(text, offset);
    if (end >= 0) return found(t.ClockTime, end);
  }
  if (isDigit(code) || code === MINUS || code === DOT) {
    const end = numberEnd(text, offset);
    if (end >= 0) return found(t.NumberToken, end);
  }
  return false;
}

function found(type: TokenType, end: number): true {
  matchedType = type;
  matchedEnd = end;
  return true;
}

export function tokenize(text: string): ScannedSource {
  return new Scanner(text).run();
}

class Scanner {
  readonly tokens: IToken[] = [];
  readonly comments: IToken[] = [];
  readonly unterminatedComments: IToken[] = [];
  readonly invalid: SourceRange[] = [];
  invalidCount = 0;
  line = 1;
  lineStart = 0;

  constructor(readonly text: string) {}

  run(): ScannedSource {
    const text = this.text;
    const length = text.length;
    let invalidStart = -1;
    let offset = 0;
    while (offset < length) {
      const code = text.charCodeAt(offset);
      if (isWhitespace(code)) {
        if (invalidStart >= 0) invalidStart = this.flushInvalid(invalidStart, offset);
        offset = this.skipWhitespace(offset);
      } else if (match(text, offset)) {
        if (invalidStart >= 0) invalidStart = this.flushInvalid(invalidStart, offset);
        offset = this.emit(offset);
      } else {
        if (invalidStart < 0) invalidStart = offset;
        offset++;
      }
    }
    if (invalidStart >= 0) this.flushInvalid(invalidStart, offset);
    const { tokens, comments, unterminatedComments, invalid, invalidCount } = this;
    return { tokens, comments, unterminatedComments, invalid, invalidCount, end: this.position(length) };
  }

  /** Emits the token `match` found at `offset`; returns the offset after it. */
  emit(offset: number): number {
    const type = matchedType;
    const end = matchedEnd;
    const startLine = this.line;
    const startColumn = offset - this.lineStart + 1;
    const multiline = type === t.BlockComment || type === t.UnterminatedComment;
    // A token's end position is that of its last character, even when that character is a line break.
    if (multiline) this.countLines(offset, end - 1);
    const token: IToken = {
      image: FIXED_IMAGES.get(type) ?? this.text.slice(offset, end),
      startOffset: offset,
      endOffset: end - 1,
      startLine,
      endLine: this.line,
      startColumn,
      endColumn: multiline ? end - this.lineStart : startColumn + (end - offset) - 1,
      tokenTypeIdx: type.tokenTypeIdx!,
      tokenType: type,
    };
    if (multiline) this.countLines(end - 1, end);
    if (type === t.LineComment || type === t.BlockComment) this.comments.push(token);
    else if (type === t.UnterminatedComment) this.unterminatedComments.push(token);
    else this.tokens.push(token);
    return end;
  }

  skipWhitespace(offset: number): number {
    const text = this.text;
    for (; offset < text.length; offset++) {
      const code = text.charCodeAt(offset);
      if (code === LINE_FEED || (code === CARRIAGE_RETURN && text.charCodeAt(offset + 1) !== LINE_FEED)) {
        this.line++;
        this.lineStart = offset + 1;
      } else if (!isWhitespace(code)) {
        break;
      }
    }
    return offset;
  }

  /** Counts the line breaks in `[from, to)`: `\r\n`, `\r` and `\n` once each. */
  countLines(from: number, to: number): void {
    const text = this.text;
    for (let i = from; i < to; i++) {
      const code = text.charCodeAt(i);
      if (code === LINE_FEED || (code === CARRIAGE_RETURN && text.charCodeAt(i + 1) !== LINE_FEED)) {
        this.line++;
        this.lineStart = i + 1;
      }
    }
  }

  /** Records unmatched characters `[start, end)`, which never span a line break; returns -1. */
  flushInvalid(start: number, end: number): number {
    if (++this.invalidCount <= INVALID_RUNS_KEPT) this.invalid.push({ start: this.position(start), end: this.position(end) });
    return -1;
  }

  position(offset: number): Position {
    return { line: this.line, column: offset - this.lineStart + 1, offset };
  }
}
