import { tokenize, type SymbolInfo } from "@temporal/compiler";
import type { Location, Position, Range, TextEdit, WorkspaceEdit } from "vscode-languageserver-types";
import { toRange, touches, type Analysis } from "./analysis.js";
import { isNameToken } from "./tokens.js";

/**
 * Go to definition, references and rename for missions and tasks, from the
 * mission model's symbols (a task is "defined" by its first `execute`).
 */

export function symbolAt(analysis: Analysis, position: Position): SymbolInfo | undefined {
  const offset = analysis.document.offsetAt(position);
  return analysis.model.symbols.find((symbol) => symbol.references.some((range) => touches(range, offset)));
}

export function definition(analysis: Analysis, position: Position): Location | null {
  const symbol = symbolAt(analysis, position);
  return symbol === undefined ? null : { uri: analysis.document.uri, range: toRange(analysis.document, symbol.definition) };
}

export function references(analysis: Analysis, position: Position, includeDeclaration: boolean): Location[] {
  const symbol = symbolAt(analysis, position);
  if (symbol === undefined) return [];
  const { document } = analysis;
  return symbol.references
    .filter((range) => includeDeclaration || range.start.offset !== symbol.definition.start.offset || symbol.kind === "task")
    .map((range) => ({ uri: document.uri, range: toRange(document, range) }));
}

/** The name to rename, or null where there is none. */
export function prepareRename(analysis: Analysis, position: Position): { range: Range; placeholder: string } | null {
  const symbol = symbolAt(analysis, position);
  if (symbol === undefined) return null;
  const offset = analysis.document.offsetAt(position);
  const range = symbol.references.find((r) => touches(r, offset))!;
  return { range: toRange(analysis.document, range), placeholder: symbol.name };
}

/** Why a rename cannot be done; the LSP adapter answers the request with this message as an error. */
export class RenameError extends Error {
  override name = "RenameError";
  constructor(
    readonly code: "NO_SYMBOL" | "INVALID_NAME" | "NAME_TAKEN",
    message: string,
  ) {
    super(message);
  }
}

/** Every occurrence of the symbol under the cursor renamed; a `RenameError` when the new name would not be valid or would merge two symbols. */
export function rename(analysis: Analysis, position: Position, newName: string): WorkspaceEdit {
  const symbol = symbolAt(analysis, position);
  if (symbol === undefined) throw new RenameError("NO_SYMBOL", "there is no mission or task name here to rename");
  validateName(analysis, symbol, newName);
  const { document } = analysis;
  const edits: TextEdit[] = symbol.references.map((range) => ({ range: toRange(document, range), newText: newName }));
  return { changes: { [document.uri]: edits } };
}

function validateName(analysis: Analysis, symbol: SymbolInfo, newName: string): void {
  if (typeof newName !== "string" || !isName(newName)) {
    throw new RenameError("INVALID_NAME", `\`${String(newName)}\` is not a name: names start with a letter or \`_\` and go on with ASCII letters, digits and \`_\``);
  }
  if (newName === symbol.name) return;
  const clash = analysis.model.symbols.find(
    (other) => other.kind === symbol.kind && other !== symbol && (symbol.kind === "task" ? other.name === newName : other.name.toLowerCase() === newName.toLowerCase()),
  );
  if (clash !== undefined) {
    const what = symbol.kind === "mission" ? "a mission" : "a task";
    const howSimilar = clash.name === newName ? "" : ` (mission names may not differ only in case, M507)`;
    throw new RenameError("NAME_TAKEN", `${what} named \`${clash.name}\` already exists in this file${howSimilar}`);
  }
}

/** A name is exactly one token the grammar accepts where it expects a name: an identifier, a keyword, or a version-like `v2`. */
function isName(text: string): boolean {
  const { tokens, invalidCount, comments } = tokenize(text);
  const token = tokens[0];
  if (tokens.length !== 1 || invalidCount > 0 || comments.length > 0 || token === undefined) return false;
  return token.image === text && isNameToken(token);
}
