import { Console } from "node:console";
import { readFileSync } from "node:fs";
import { createConnection, ProposedFeatures } from "vscode-languageserver/node.js";
import { startServer } from "./server.js";

const usage = "usage: temporal-language-server --stdio\n";

/** The bin: LSP over standard input and output, nothing else on stdout. */
export function main(args: readonly string[]): void {
  if (args.includes("--help") || args.includes("-h")) {
    process.stdout.write(usage);
    return;
  }
  if (args.includes("--version")) {
    process.stdout.write(`${packageVersion()}\n`);
    return;
  }
  if (!args.includes("--stdio")) {
    process.stderr.write(`temporal-language-server: only --stdio is supported\n${usage}`);
    process.exitCode = 2;
    return;
  }
  keepStdoutForProtocol();
  startServer(createConnection(ProposedFeatures.all, process.stdin, process.stdout), { version: packageVersion() });
}

/** A stray console.log from any module would corrupt the LSP stream: every console method writes to stderr instead. */
function keepStdoutForProtocol(): void {
  Object.assign(console, new Console({ stdout: process.stderr, stderr: process.stderr }));
}

function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };
  return manifest.version;
}
