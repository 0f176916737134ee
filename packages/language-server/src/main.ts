import { Console } from "node:console";
import { setFlagsFromString } from "node:v8";
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
  keepCompilesInTheYoungGeneration();
  startServer(createConnection(ProposedFeatures.all, process.stdin, process.stdout));
}

/** A stray console.log from any module would corrupt the LSP stream: every console method writes to stderr instead. */
function keepStdoutForProtocol(): void {
  Object.assign(console, new Console({ stdout: process.stderr, stderr: process.stderr }));
}

/**
 * Turns off V8's allocation-site pretenuring for this process, which made every edit's diagnostics about 3x slower
 * than the same compile elsewhere (docs/editor.md, "Benchmark"). A compile's tree and tokens are all alive while it
 * runs, and between edits the collector's idle-time scavenges find the last analysis alive too: with every object
 * surviving, V8 judges the compiler's allocation sites long-lived (`--trace-pretenuring-statistics`: some 90 sites
 * switched to "tenure") and from then on allocates each token and node straight in the old generation, which is
 * slower to allocate in and grows until mark-compacts run. They are not long-lived: each edit replaces them all. The
 * flag is process-wide, so only the bin sets it, never the library; V8 reads it at each collection, so setting it
 * before the first document is early enough.
 */
function keepCompilesInTheYoungGeneration(): void {
  setFlagsFromString("--no-allocation-site-pretenuring");
}
