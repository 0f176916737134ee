import { TextDocuments, TextDocumentSyncKind, type Connection, type InitializeResult } from "vscode-languageserver";
import { TextDocument } from "vscode-languageserver-textdocument";

export interface ServerOptions {
  /** The server's version, reported in `initialize`'s serverInfo. */
  version: string;
}

/** Answers the editor's requests on `connection` until it is told to exit. */
export function startServer(connection: Connection, options: ServerOptions): void {
  const documents = new TextDocuments(TextDocument);
  connection.onInitialize((): InitializeResult => ({
    serverInfo: { name: "temporal-language-server", version: options.version },
    capabilities: { textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental } },
  }));
  documents.listen(connection);
  connection.listen();
}
