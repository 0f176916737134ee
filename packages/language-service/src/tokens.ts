import type { IToken } from "chevrotain";

/**
 * Questions about the compiler's tokens. Token types are Chevrotain's: every
 * token that may stand where the grammar expects a name (identifiers,
 * keywords, version-like words) is in its `Name` category.
 */

export function isNameToken(token: IToken): boolean {
  return (token.tokenType.CATEGORIES ?? []).some((category) => category.name === "Name");
}

/** `@temporal`, `@anchor`, or a misspelt directive. */
export function isDirectiveToken(token: IToken): boolean {
  return token.image.startsWith("@");
}

/** Keyword token types are named by their text (`mission`, `TSAE`); identifiers and punctuation are not (`LCurly`). */
export function isKeywordToken(token: IToken): boolean {
  return token.tokenType.name !== "Identifier" && token.tokenType.name === token.image;
}
