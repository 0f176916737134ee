// The LSP adapter: every request is answered by @temporal/language-service on the document the editor has open.
// This file only translates between the protocol and that service (documents, capabilities, cancellation, errors);
// no language feature is computed here.
import { createLanguageService, RenameError, SEMANTIC_TOKENS_LEGEND, TextDocument, type LanguageService } from "@temporal/language-service";
import {
  CodeActionKind,
  DocumentDiagnosticReportKind,
  LSPErrorCodes,
  ResponseError,
  TextDocuments,
  TextDocumentSyncKind,
  type CancellationToken,
  type ClientCapabilities,
  type Connection,
  type InitializeError,
  type InitializeResult,
  type ServerCapabilities,
  type CodeActionParams,
  type CompletionParams,
  type DefinitionParams,
  type HoverParams,
  type InlayHintParams,
  type PrepareRenameParams,
  type ReferenceParams,
  type RenameParams,
  type SelectionRangeParams,
  type TextDocumentIdentifier,
} from "vscode-languageserver";
import { diagnosticsPublisher } from "./diagnostics-publisher.js";
import { languageServiceOptions } from "./initialization-options.js";
import { SERVER_VERSION } from "./version.js";

const capabilities: ServerCapabilities = {
  textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
  diagnosticProvider: { interFileDependencies: false, workspaceDiagnostics: false },
  hoverProvider: true,
  inlayHintProvider: true,
  codeLensProvider: { resolveProvider: false },
  completionProvider: { triggerCharacters: ["@", " ", "["] },
  documentFormattingProvider: true,
  documentSymbolProvider: true,
  foldingRangeProvider: true,
  selectionRangeProvider: true,
  definitionProvider: true,
  referencesProvider: true,
  renameProvider: { prepareProvider: true },
  codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, CodeActionKind.SourceFixAll] },
  semanticTokensProvider: { legend: SEMANTIC_TOKENS_LEGEND, full: true },
};

/** Answers the editor's requests on `connection` until it is told to exit (then the process exits: 0 after `shutdown`). */
export function startServer(connection: Connection): void {
  const documents = new TextDocuments(TextDocument);
  let service: LanguageService | undefined;
  let publisher: ReturnType<typeof diagnosticsPublisher> | undefined;

  connection.onInitialize((params): InitializeResult | ResponseError<InitializeError> => {
    try {
      service = createLanguageService(languageServiceOptions(params.initializationOptions));
    } catch (error) {
      // A bad clock or time zone in initializationOptions: the editor shows why instead of a server that half works.
      return new ResponseError<InitializeError>(LSPErrorCodes.RequestFailed, `temporal-language-server: ${(error as Error).message}`, { retry: false });
    }
    publisher = diagnosticsPublisher(connection, service, documents, { push: !supportsPullDiagnostics(params.capabilities) });
    return { serverInfo: { name: "temporal-language-server", version: SERVER_VERSION }, capabilities };
  });

  /**
   * A request handler that finds the open document and the service: null for a document the editor never opened (or
   * a request before initialize), RequestCancelled once the editor has given up on the request.
   */
  function onDocument<P extends { textDocument: TextDocumentIdentifier }, R>(answer: (service: LanguageService, document: TextDocument, params: P) => R | Promise<R>) {
    return async (params: P, token: CancellationToken): Promise<R | null | ResponseError<void>> => {
      const document = documents.get(params.textDocument.uri);
      if (service === undefined || document === undefined) return null;
      if (token.isCancellationRequested) return cancelled();
      const result = await answer(service, document, params);
      return token.isCancellationRequested ? cancelled() : result;
    };
  }

  const { languages } = connection;
  languages.diagnostics.on(async (params, token) => {
    // Pulled again when the editor next needs it, like any cancelled pull.
    if (token.isCancellationRequested) return new ResponseError(LSPErrorCodes.RequestCancelled, "the request was cancelled", { retriggerRequest: true });
    const document = documents.get(params.textDocument.uri);
    return { kind: DocumentDiagnosticReportKind.Full, items: service !== undefined && document !== undefined ? service.diagnostics(document) : [] };
  });
  connection.onHover(onDocument((s, d, p: HoverParams) => s.hover(d, p.position)));
  languages.inlayHint.on(onDocument((s, d, p: InlayHintParams) => s.inlayHints(d, p.range)));
  connection.onCodeLens(onDocument((s, d) => s.codeLenses(d)));
  connection.onCompletion(onDocument((s, d, p: CompletionParams) => s.completion(d, p.position)));
  connection.onDocumentFormatting(onDocument((s, d) => s.format(d)));
  connection.onDocumentSymbol(onDocument((s, d) => s.documentSymbols(d)));
  connection.onFoldingRanges(onDocument((s, d) => s.foldingRanges(d)));
  connection.onSelectionRanges(onDocument((s, d, p: SelectionRangeParams) => s.selectionRanges(d, p.positions)));
  connection.onDefinition(onDocument((s, d, p: DefinitionParams) => s.definition(d, p.position)));
  connection.onReferences(onDocument((s, d, p: ReferenceParams) => s.references(d, p.position, p.context.includeDeclaration)));
  connection.onPrepareRename(onDocument((s, d, p: PrepareRenameParams) => s.prepareRename(d, p.position)));
  connection.onRenameRequest(onDocument((s, d, p: RenameParams) => renamed(() => s.rename(d, p.position, p.newName))));
  connection.onCodeAction(onDocument((s, d, p: CodeActionParams) => s.codeActions(d, p.range, p.context.only)));
  const semanticTokens = onDocument((s, d) => s.semanticTokens(d));
  // Typed without null by vscode-languageserver: an unopened document has no tokens.
  languages.semanticTokens.on(async (params, token) => (await semanticTokens(params, token)) ?? { data: [] });

  documents.onDidChangeContent(({ document }) => publisher?.changed(document));
  documents.onDidClose(({ document }) => {
    service?.forget(document.uri);
    publisher?.closed(document);
  });
  documents.listen(connection);
  connection.listen();
}

/** The editor asks for diagnostics itself (LSP 3.17 pull) when it says so; pushing them as well would show each twice. */
function supportsPullDiagnostics(capabilities: ClientCapabilities): boolean {
  return capabilities.textDocument?.diagnostic !== undefined;
}

function cancelled(): ResponseError<void> {
  return new ResponseError<void>(LSPErrorCodes.RequestCancelled, "the request was cancelled");
}

/** A refused new name is the user's mistake, not the server's: the editor shows the reason. */
function renamed<T>(rename: () => T): T | ResponseError<void> {
  try {
    return rename();
  } catch (error) {
    if (error instanceof RenameError) return new ResponseError<void>(LSPErrorCodes.RequestFailed, `${error.message} (${error.code})`);
    throw error;
  }
}
