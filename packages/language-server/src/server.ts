import { TextDocuments, TextDocumentSyncKind, type Connection, type InitializeResult } from "vscode-languageserver";
import { TextDocument } from "vscode-languageserver-textdocument";
import { SERVER_VERSION } from "./version.js";

// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in with the language service's options
export interface ServerOptions {}

/** Answers the editor's requests on `connection` until it is told to exit. */
export function startServer(connection: Connection, _options: ServerOptions = {}): void {
  const documents = new TextDocuments(TextDocument);
  connection.onInitialize((): InitializeResult => ({
    serverInfo: { name: "temporal-language-server", version: SERVER_VERSION },
    capabilities: { textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental } },
  }));
  documents.listen(connection);
  connection.listen();
}
