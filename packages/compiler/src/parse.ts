import { EOF, type IRecognitionException, type IToken, type TokenType } from "chevrotain";
import type { Comment, MissionFile, Position, SourceRange } from "./ast.js";
import { compareDiagnostics, diagnostic, limitErrors, quote, replacement, type Diagnostic, type Fix } from "./diagnostics.js";
import { KEYWORDS, RCurly } from "./tokens.js";
import { expectedTokens, MAX_SYNTAX_ERRORS, MissionParser } from "./grammar.js";
import { tokenize, type ScannedSource } from "./tokenize.js";
import { closestMatch, onlyClosestMatch } from "./suggest.js";

export interface ParseOptions {
  /** Names the file in diagnostics; defaults to `<input>`. */
  filename?: string;
}

export interface ParseResult {
  ast: MissionFile;
  diagnostics: Diagnostic[];
}

let sharedParser: MissionParser | undefined;

export function parse(source: string, options: ParseOptions = {}): ParseResult {
  if (typeof source !== "string") throw new TypeError(`parse: source must be a string, got ${typeof source}`);
  const filename = validateFilename(options, "parse");
  const { ast, diagnostics, uncountedErrors } = parseFile(source, filename);
  return { ast, diagnostics: limitErrors(diagnostics, filename, uncountedErrors) };
}

/** Parses with every diagnostic, not yet limited: `uncountedErrors` were found but not made into diagnostics. */
export function parseFile(source: string, filename: string): ParseResult & { uncountedErrors: number } {
  const scanned = tokenize(source);
  sharedParser ??= new MissionParser();
  const parsed = sharedParser.parseTokens(scanned.tokens, filename);

  const diagnostics = [...lexicalDiagnostics(source, scanned, filename), ...parsed.diagnostics, ...syntaxDiagnostics(parsed.errors, source, scanned.end, filename)];
  if (parsed.abandonedAt !== undefined) {
    const token = parsed.abandonedAt;
    const range = token.tokenType === EOF ? { start: scanned.end, end: scanned.end } : tokenRange(token);
    diagnostics.push(diagnostic("M105", filename, range, { syntaxErrors: MAX_SYNTAX_ERRORS }));
  }
  diagnostics.sort(compareDiagnostics);

  const ast: MissionFile = {
    kind: "MissionFile",
    filename,
    directives: parsed.file.directives,
    missions: parsed.file.missions,
    comments: scanned.comments.map(commentNode),
    range: { start: { line: 1, column: 1, offset: 0 }, end: scanned.end },
  };
  return { ast, diagnostics, uncountedErrors: scanned.invalidCount - scanned.invalid.length };
}

export function validateFilename(options: unknown, caller: string): string {
  if (options === null || typeof options !== "object") {
    throw new TypeError(`${caller}: options must be an object`);
  }
  const { filename } = options as { filename?: unknown };
  if (filename === undefined) return "<input>";
  if (typeof filename !== "string") throw new TypeError(`${caller}: options.filename must be a string`);
  return filename;
}

function commentNode(token: IToken): Comment {
  return { kind: token.image.startsWith("//") ? "LineComment" : "BlockComment", text: token.image, range: tokenRange(token) };
}

/** Chevrotain's token ends are inclusive; ranges end just past the last character. */
function tokenRange(token: IToken): SourceRange {
  return {
    start: { line: token.startLine!, column: token.startColumn!, offset: token.startOffset },
    end: { line: token.endLine!, column: token.endColumn! + 1, offset: token.endOffset! + 1 },
  };
}

function lexicalDiagnostics(source: string, scanned: ScannedSource, filename: string): Diagnostic[] {
  const result: Diagnostic[] = [];
  for (const run of scanned.invalid) {
    const text = source.slice(run.start.offset, run.end.offset);
    result.push(diagnostic("M100", filename, run, { text }));
  }
  for (const comment of scanned.unterminatedComments) {
    const start = tokenRange(comment).start;
    const opening = { start, end: { ...start, column: start.column + 2, offset: start.offset + 2 } };
    result.push(diagnostic("M101", filename, opening, {}));
  }
  return result;
}

function syntaxDiagnostics(errors: IRecognitionException[], source: string, end: Position, filename: string): Diagnostic[] {
  const seenOffsets = new Set<number>();
  const result: Diagnostic[] = [];
  for (const error of errors) {
    const token = error.token;
    const atEnd = !hasSourcePosition(token, end.offset);
    const range: SourceRange = atEnd ? { start: end, end } : tokenRange(token);
    if (seenOffsets.has(range.start.offset)) continue;
    seenOffsets.add(range.start.offset);
    const expected = expectedTokens(error);
    const found = atEnd ? "the end of the file" : quote(token.image);
    const keywords = expected.map(keywordOf).filter(isDefined);
    const suggestion = atEnd ? undefined : closestMatch(token.image, keywords);
    const certain = atEnd ? undefined : onlyClosestMatch(token.image, keywords);
    const fix = certain !== undefined ? replacement(range, certain) : atEnd && expected.includes(RCurly) ? closeBlockAtEnd(source, end) : undefined;
    result.push(
      diagnostic(
        "M102",
        filename,
        range,
        { expected: describeExpected(expected), found },
        {
          ...(suggestion === undefined ? {} : { help: `did you mean \`${suggestion}\`?` }),
          ...(fix === undefined ? {} : { fixes: [fix] }),
        },
      ),
    );
  }
  return result;
}

/**
 * Whether a token stands for real text in the source. Tokens Chevrotain
 * invents (EOF, a token inserted by error recovery) carry no usable offset,
 * and how they say so differs between versions (NaN in 11, other
 * placeholders later), so the check asks for a real offset inside the text
 * rather than testing for one placeholder.
 */
export function hasSourcePosition(token: IToken, sourceLength: number): boolean {
  if (token.tokenType === EOF || token.isInsertedInRecovery === true) return false;
  const offset: unknown = token.startOffset;
  return typeof offset === "number" && Number.isInteger(offset) && offset >= 0 && offset < sourceLength && Number.isInteger(token.startLine);
}

/** The file ended inside a block: close it on a line of its own. */
function closeBlockAtEnd(source: string, end: Position): Fix {
  const newText = source === "" || source.endsWith("\n") ? "}\n" : "\n}\n";
  return { title: "add the missing `}`", edits: [{ range: { start: end, end }, newText }] };
}

function keywordOf(type: TokenType): string | undefined {
  if (KEYWORDS.includes(type.name)) return type.name;
  if (type.name === "TemporalDirective") return "@temporal";
  if (type.name === "AnchorDirective") return "@anchor";
  return undefined;
}

function isDefined<T>(value: T | undefined): value is T {
  return value !== undefined;
}

function describeExpected(expected: TokenType[]): string {
  const labels = expected.map((type) => (type === EOF ? "the end of the file" : (type.LABEL ?? type.name)));
  if (labels.length === 0) return "something else";
  if (labels.length === 1) return labels[0]!;
  return `${labels.slice(0, -1).join(", ")} or ${labels[labels.length - 1]!}`;
}
