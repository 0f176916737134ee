// The extension only starts the mission language server, bundled beside it as dist/server.mjs; every feature
// (diagnostics, hover, completion, formatting, ...) is the server's, so VS Code and every other LSP editor agree.
import type { ExtensionContext } from "vscode";
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from "vscode-languageclient/node.js";

let client: LanguageClient | undefined;

export async function activate(context: ExtensionContext): Promise<void> {
  // VS Code's own Node runs the server, with `--stdio` appended by the client for this transport.
  const serverOptions: ServerOptions = { module: context.asAbsolutePath("dist/server.mjs"), transport: TransportKind.stdio };
  const clientOptions: LanguageClientOptions = { documentSelector: [{ language: "mission" }] };
  // The id "mission" is also the prefix of the `mission.trace.server` setting the client reads.
  client = new LanguageClient("mission", "Mission language server", serverOptions, clientOptions);
  await client.start();
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}
