import type { IToken } from "chevrotain";
import type { SemanticTokens, SemanticTokensLegend } from "vscode-languageserver-types";
import type { Analysis } from "./analysis.js";
import { isKeywordToken } from "./tokens.js";

/**
 * Semantic tokens: the compiler's tokens, classified by the role the tree
 * gives them where it gives one (a keyword used as a task name is a
 * function; a zone code is an enum member), else by their token type.
 */

const TOKEN_TYPES = ["keyword", "class", "function", "number", "comment", "operator", "macro", "enumMember", "string"] as const;
const TOKEN_MODIFIERS = ["declaration"] as const;

type TokenTypeName = (typeof TOKEN_TYPES)[number];

export const SEMANTIC_TOKENS_LEGEND: SemanticTokensLegend = { tokenTypes: [...TOKEN_TYPES], tokenModifiers: [...TOKEN_MODIFIERS] };

const DECLARATION = 1 << TOKEN_MODIFIERS.indexOf("declaration");

const BY_TOKEN_TYPE: Record<string, TokenTypeName> = {
  Number: "number",
  Version: "string",
  TemporalDirective: "macro",
  AnchorDirective: "macro",
  UnknownDirective: "macro",
  ALLOW: "enumMember",
  DENY: "enumMember",
  Arrow: "operator",
  Less: "operator",
  LessEqual: "operator",
  Greater: "operator",
  GreaterEqual: "operator",
};

interface Classified {
  offset: number;
  length: number;
  type: TokenTypeName;
  modifiers: number;
}

export function semanticTokens(analysis: Analysis): SemanticTokens {
  const roles = namesByRole(analysis);
  const classified: Classified[] = [];
  const add = (token: IToken, type: TokenTypeName, modifiers = 0) => classified.push({ offset: token.startOffset, length: token.image.length, type, modifiers });
  for (const token of analysis.scanned.tokens) {
    const role = roles.get(token.startOffset);
    if (role !== undefined) add(token, role.type, role.modifiers);
    else if (BY_TOKEN_TYPE[token.tokenType.name] !== undefined) add(token, BY_TOKEN_TYPE[token.tokenType.name]!);
    else if (isKeywordToken(token)) add(token, "keyword");
  }
  for (const comment of [...analysis.scanned.comments, ...analysis.scanned.unterminatedComments]) add(comment, "comment");
  classified.sort((a, b) => a.offset - b.offset);
  return { data: encode(analysis, classified) };
}

/** Names the tree gives a role, by start offset. */
function namesByRole(analysis: Analysis): Map<number, { type: TokenTypeName; modifiers: number }> {
  const roles = new Map<number, { type: TokenTypeName; modifiers: number }>();
  for (const symbol of analysis.model.symbols) {
    for (const range of symbol.references) {
      const declaration = range.start.offset === symbol.definition.start.offset && symbol.kind === "mission";
      roles.set(range.start.offset, { type: symbol.kind === "mission" ? "class" : "function", modifiers: declaration ? DECLARATION : 0 });
    }
  }
  for (const directive of analysis.ast.directives) {
    if (directive.kind === "AnchorDirective" && directive.code !== null) roles.set(directive.code.range.start.offset, { type: "enumMember", modifiers: 0 });
  }
  return roles;
}

/** LSP's relative encoding, one token per line: a block comment over several lines is cut at its line breaks. */
function encode(analysis: Analysis, classified: readonly Classified[]): number[] {
  const { document, text } = analysis;
  const data: number[] = [];
  let previousLine = 0;
  let previousCharacter = 0;
  const push = (offset: number, length: number, type: TokenTypeName, modifiers: number) => {
    if (length === 0) return;
    const { line, character } = document.positionAt(offset);
    data.push(line - previousLine, line === previousLine ? character - previousCharacter : character, length, TOKEN_TYPES.indexOf(type), modifiers);
    previousLine = line;
    previousCharacter = character;
  };
  for (const { offset, length, type, modifiers } of classified) {
    let start = offset;
    const end = offset + length;
    for (let i = offset; i < end; i++) {
      const code = text.charCodeAt(i);
      if (code === 10 || code === 13) {
        push(start, i - start, type, modifiers);
        start = i + 1;
      }
    }
    push(start, end - start, type, modifiers);
  }
  return data;
}
