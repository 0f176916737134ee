import { isKnownTimeZone } from "@temporal/compiler";
import type { TextDocument } from "vscode-languageserver-textdocument";
import type {
  CodeAction,
  CodeLens,
  CompletionList,
  Diagnostic,
  DocumentSymbol,
  FoldingRange,
  Hover,
  InlayHint,
  Location,
  Position,
  Range,
  SelectionRange,
  SemanticTokens,
  TextEdit,
  WorkspaceEdit,
} from "vscode-languageserver-types";
import { AnalysisCache } from "./analysis.js";
import { viewerTimeZone as systemViewerTimeZone } from "./clock.js";
import { codeActions } from "./code-actions.js";
import { codeLenses } from "./code-lens.js";
import { completion } from "./completion.js";
import { diagnostics } from "./diagnostics.js";
import { formatDocument } from "./formatting.js";
import { hover } from "./hover.js";
import { inlayHints } from "./inlay-hints.js";
import { definition, prepareRename, references, rename } from "./navigation.js";
import { semanticTokens } from "./semantic-tokens.js";
import type { ServiceContext } from "./service-context.js";
import { documentSymbols, foldingRanges, selectionRanges } from "./structure.js";

export interface LanguageServiceOptions {
  /** The clock code lenses and hovers read; default `() => new Date()`. */
  now?: () => Date;
  /** The viewer's IANA time zone for hovers; default the runtime's own (`Intl`). */
  viewerTimeZone?: string;
}

/**
 * The mission language's editor features over `TextDocument`s, as pure
 * functions of the document (and the injected clock). Each document is
 * analysed once per version. No request throws on any text; `rename`
 * throws a `RenameError` (with a stable `code`) when the new name is refused.
 */
export interface LanguageService {
  /** Exactly `temporalc check`'s diagnostics, with docs links and related information. */
  diagnostics(document: TextDocument): Diagnostic[];
  /** A window as clock times, what a requirement means, a diagnostic's explanation. */
  hover(document: TextDocument, position: Position): Hover | null;
  /** Clock times after the degrees of phase windows (in `range`, default the whole document). */
  inlayHints(document: TextDocument, range?: Range): InlayHint[];
  /** Per mission, its verdict now by the injected clock: `ALLOW now`, `DENY: opens 20:00 (in 35 min)`. */
  codeLenses(document: TextDocument): Promise<CodeLens[]>;
  completion(document: TextDocument, position: Position): CompletionList;
  /** The whole document formatted by the Prettier plugin; no edits when it is formatted already or has a syntax error. */
  format(document: TextDocument): Promise<TextEdit[]>;
  documentSymbols(document: TextDocument): DocumentSymbol[];
  foldingRanges(document: TextDocument): FoldingRange[];
  selectionRanges(document: TextDocument, positions: readonly Position[]): SelectionRange[];
  /** Where the mission or task under the cursor is defined (a task: its first `execute`). */
  definition(document: TextDocument, position: Position): Location | null;
  /** Every occurrence; a mission's declaration only with `includeDeclaration`. Every `execute` of a task is a use (its first is also its "definition"). */
  references(document: TextDocument, position: Position, includeDeclaration: boolean): Location[];
  prepareRename(document: TextDocument, position: Position): { range: Range; placeholder: string } | null;
  /** Renames a mission or task everywhere in the document; throws `RenameError` for an invalid or taken name. */
  rename(document: TextDocument, position: Position, newName: string): WorkspaceEdit;
  /** Quick fixes from the compiler's structured fixes, and `source.fixAll`; `only` filters by kind as LSP's `context.only` does. */
  codeActions(document: TextDocument, range: Range, only?: readonly string[]): CodeAction[];
  /** Encoded with `SEMANTIC_TOKENS_LEGEND`. */
  semanticTokens(document: TextDocument): SemanticTokens;
  /** Drops what is cached for a closed document. */
  forget(uri: string): void;
}

export function createLanguageService(options: LanguageServiceOptions = {}): LanguageService {
  const context = serviceContext(options);
  const cache = new AnalysisCache();
  return {
    diagnostics: (document) => diagnostics(cache.get(document)),
    hover: (document, position) => hover(cache.get(document), position, context),
    inlayHints: (document, range) => inlayHints(cache.get(document), range),
    codeLenses: (document) => codeLenses(cache.get(document), context),
    completion: (document, position) => completion(cache.get(document), position),
    format: (document) => formatDocument(cache.get(document)),
    documentSymbols: (document) => documentSymbols(cache.get(document)),
    foldingRanges: (document) => foldingRanges(cache.get(document)),
    selectionRanges: (document, positions) => selectionRanges(cache.get(document), positions),
    definition: (document, position) => definition(cache.get(document), position),
    references: (document, position, includeDeclaration) => references(cache.get(document), position, includeDeclaration),
    prepareRename: (document, position) => prepareRename(cache.get(document), position),
    rename: (document, position, newName) => rename(cache.get(document), position, newName),
    codeActions: (document, range, only) => codeActions(cache.get(document), range, only),
    semanticTokens: (document) => semanticTokens(cache.get(document)),
    forget: (uri) => cache.forget(uri),
  };
}

function serviceContext(options: LanguageServiceOptions): ServiceContext {
  if (options === null || typeof options !== "object") throw new TypeError("createLanguageService: options must be an object");
  const { now = () => new Date(), viewerTimeZone = systemViewerTimeZone() } = options;
  if (typeof now !== "function") throw new TypeError("createLanguageService: options.now must be a function returning a Date");
  if (typeof viewerTimeZone !== "string" || !isKnownTimeZone(viewerTimeZone)) {
    throw new RangeError(`createLanguageService: options.viewerTimeZone must be an IANA time zone such as "Europe/Paris", got ${JSON.stringify(viewerTimeZone)}`);
  }
  return { now, viewerTimeZone };
}
