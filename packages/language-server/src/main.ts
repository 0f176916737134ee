import { Console } from "node:console";
import { createConnection, ProposedFeatures } from "vscode-languageserver/node.js";
import { startServer } from "./server.js";
import { SERVER_VERSION } from "./version.js";

const usage = "usage: temporal-language-server --stdio\n";

/** The bin: LSP over standard input and output, nothing else on stdout. */
export function main(args: readonly string[]): void {
  if (args.includes("--help") || args.includes("-h")) {
    process.stdout.write(usage);
    return;
  }
  if (args.includes("--version")) {
    process.stdout.write(`${SERVER_VERSION}\n`);
    return;
  }
  if (!args.includes("--stdio")) {
    process.stderr.write(`temporal-language-server: only --stdio is supported\n${usage}`);
    process.exitCode = 2;
    return;
  }
  keepStdoutForProtocol();
  startServer(createConnection(ProposedFeatures.all, process.stdin, process.stdout));
}

/** A stray console.log from any module would corrupt the LSP stream: every console method writes to stderr instead. */
function keepStdoutForProtocol(): void {
  Object.assign(console, new Console({ stdout: process.stderr, stderr: process.stderr }));
}
