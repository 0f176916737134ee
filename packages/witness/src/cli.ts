/**
 * `temporal-witness`: `--config <file> [--host <host>] [--port <port>]`
 * serves the witness and prints `listening on <url>`; `key create <file>
 * --name <name>` makes the witness's key and prints its vkey.
 */

import type { AddressInfo } from "node:net";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { TemporalError } from "@temporal/agent-sdk";
import { listenFailureLine } from "@temporal/agent-sdk/node";
import { Witness } from "./add-checkpoint.js";
import { loadWitnessConfig } from "./config.js";
import { createWitnessServer } from "./server.js";
import { FileStateStore } from "./state-store.js";
import { createWitnessKey, loadWitnessKey } from "./witness-key.js";

const EXIT_FAILURE = 1;
const EXIT_USAGE = 2;
/** How long a stop waits for requests in flight before it closes their connections: within Docker's 10 s and systemd's 90 s before SIGKILL. */
const STOP_GRACE_MS = 5_000;

const KEY_USAGE = `  temporal-witness key create <file> --name <name>
      Create the witness's Ed25519 key (PKCS#8 PEM, mode 0600) and print its cosignature/v1 vkey.
      A key file is never replaced. Example:
        temporal-witness key create /etc/witness/witness.key --name witness.example/w1`;

const USAGE = `Usage:
  temporal-witness --config <file> [--host <host>] [--port <port>]
      Serve POST /add-checkpoint (C2SP tlog-witness v1.0.0). Prints "listening on <url>";
      the URL is the witness's submission prefix. Defaults: --host 127.0.0.1 --port 0 (a free port).
${KEY_USAGE}

Signals: SIGTERM and SIGINT stop accepting, give requests in flight 5 s to finish and exit 0;
a second one closes their connections at once, releases the state directory and exits 1.
Exit status: 0 done, 1 cannot start (address in use, state directory locked or damaged) or stopped by a second signal,
2 usage or config error.
See docs/witness.md for the config file.`;

const HELP_HINT = "Try 'temporal-witness --help' for more information.";

/** Runs the command; sets `process.exitCode` (or exits on a signal) instead of throwing. */
export async function main(argv: readonly string[]): Promise<void> {
  try {
    if (argv[0] === "key") await keyCommand(argv.slice(1));
    else await serveCommand(argv);
  } catch (error) {
    const code = error instanceof TemporalError ? error.code : undefined;
    const usage = code === "INVALID_ARGUMENT" || code === "INVALID_WITNESS_CONFIG" || code === "INVALID_WITNESS_KEY";
    const hint = code === "INVALID_ARGUMENT" ? `${HELP_HINT}\n` : "";
    process.stderr.write(`temporal-witness: ${error instanceof Error ? error.message : String(error)}${code === undefined ? "" : ` [${code}]`}\n${hint}`);
    process.exitCode = usage ? EXIT_USAGE : EXIT_FAILURE;
  }
}

async function keyCommand(argv: readonly string[]): Promise<void> {
  const { positionals, values } = parse(argv, { name: { type: "string" }, help: { type: "boolean", short: "h" } });
  if (values.help === true) {
    process.stdout.write(`Usage:\n${KEY_USAGE}\n`);
    return;
  }
  if (positionals[0] !== "create" || positionals.length !== 2 || values.name === undefined) throw usageError("key create takes a file and --name <witness name>");
  const cosigner = await createWitnessKey(positionals[1] as string, values.name as string);
  process.stderr.write(`created the witness key ${positionals[1]}; give logs this verifier key:\n`);
  process.stdout.write(`${cosigner.vkey}\n`);
}

async function serveCommand(argv: readonly string[]): Promise<void> {
  const { positionals, values } = parse(argv, { config: { type: "string" }, host: { type: "string" }, port: { type: "string" }, help: { type: "boolean", short: "h" } });
  if (values.help === true) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (positionals.length > 0) throw usageError(`unexpected argument ${JSON.stringify(positionals[0])}`);
  if (values.config === undefined) throw usageError("--config <file> is required");
  const host = (values.host as string | undefined) ?? "127.0.0.1";
  const port = parsePort((values.port as string | undefined) ?? "0");
  const config = await loadWitnessConfig(values.config as string);
  const cosigner = await loadWitnessKey(config.keyFile, config.name);
  const store = await FileStateStore.open(config.stateDir);
  const server = createWitnessServer({ witness: new Witness({ cosigner, logs: config.logs, store }), maxBodyBytes: config.maxBodyBytes });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, host, resolve);
    });
  } catch (error) {
    await store.close();
    throw new TemporalError("LISTEN_FAILED", listenFailureLine(error, { host, port }, "temporal-witness"), { cause: error });
  }
  const address = server.address() as AddressInfo;
  const shown = address.family === "IPv6" ? `[${address.address}]` : address.address;
  process.stdout.write(`listening on http://${shown}:${address.port}\n`);
  let stopping = false;
  const stop = () => {
    if (stopping) {
      // A second signal: no more grace. The store's close still waits for a decision being persisted, then releases the lock.
      process.exitCode = EXIT_FAILURE;
      server.closeAllConnections();
      return;
    }
    stopping = true;
    // Requests in flight finish (their state is persisted before they reply); idle keep-alive connections are closed.
    // A client that stalls mid-request would hold the process until node's 5-minute request timeout: after the grace
    // period its connection is closed too, and the store's close still waits for any decision being persisted.
    setTimeout(() => server.closeAllConnections(), STOP_GRACE_MS).unref();
    server.close(
      () =>
        void store.close().then(
          () => process.exit(),
          (error: unknown) => {
            process.stderr.write(`temporal-witness: stopped, but could not release the state directory's lock: ${(error as Error).message}\n`);
            process.exit(EXIT_FAILURE);
          },
        ),
    );
    server.closeIdleConnections();
  };
  // Not once: a second signal must not fall to node's default, which would end the process holding the lock.
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

function parse(argv: readonly string[], options: ParseArgsConfig["options"]): { positionals: string[]; values: Record<string, string | boolean | undefined> } {
  try {
    const { positionals, values } = parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
    return { positionals, values };
  } catch (error) {
    // Node's message for an unknown option goes on about positional arguments; the option is what matters.
    const unknown = /^Unknown option '([^']+)'/.exec((error as Error).message);
    throw usageError(unknown === null ? (error as Error).message : `unknown option '${unknown[1]}'`);
  }
}

function parsePort(text: string): number {
  const port = /^[0-9]{1,5}$/.test(text) ? Number(text) : NaN;
  if (!(port >= 0 && port <= 65535)) throw usageError(`--port ${JSON.stringify(text)} is not an integer 0..65535 (0 picks a free port)`);
  return port;
}

function usageError(message: string): TemporalError {
  return new TemporalError("INVALID_ARGUMENT", message);
}
