import { join } from "node:path";
import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { TemporalError, WINDOW_TEXT_RULE, ZONE_TEXT_RULE, parseWindowText, parseZoneText } from "@temporal/agent-sdk";
import { createSigningKeyFile, defaultHome, describeIoError, errnoCode } from "@temporal/agent-sdk/node";
import { createApiKey } from "./api-keys.js";
import { LABEL_PATTERN, LABEL_RULE, loadConfig, readConfigObject, writeConfigObject } from "./config.js";
import { EXIT_FAILURE, EXIT_USAGE, UsageError } from "./exit-status.js";
import { HOST_RULE, PORT_RULE, parseHost, parsePort } from "./listen-address.js";
import { NODE_ID_RULE, parseNodeId, parseStoreUrl, storeUrlRefused, type NodeFlags } from "./node-settings.js";
import { LOG_LEVELS } from "./request-log.js";
import { serve, ServiceStartError, type ServeOptions, type ServiceFiles } from "./serve-command.js";
import type { ZttFlags } from "./ztt-config.js";
import { TIERS } from "./tiers.js";
import { SERVICE_VERSION } from "./version.js";

interface LocationOptions {
  readonly home?: string;
  readonly config?: string;
}

function locate(options: LocationOptions): ServiceFiles {
  const home = options.home ?? defaultHome();
  return { home, config: options.config ?? join(home, "service.json"), explicit: options.config !== undefined };
}

const LABEL = new RegExp(LABEL_PATTERN, "u");

function parseLabel(value: string): string | undefined {
  return LABEL.test(value) ? value : undefined;
}

function parsed<T>(parse: (value: string) => T | undefined, rule: string): (value: string) => T {
  return (value) => {
    const result = parse(value);
    if (result === undefined) throw new InvalidArgumentError(rule);
    return result;
  };
}

/** Like `parsed`, but Commander's message would echo a password: `storeUrlRefused` redacts it. */
function storeUrlFlag(value: string): string {
  const url = parseStoreUrl(value);
  if (url === undefined) throw storeUrlRefused("--store", value);
  return url;
}

async function createKey(options: LocationOptions & { tier: (typeof TIERS)[number]; label?: string }): Promise<void> {
  const { config: configPath } = locate(options);
  const raw = await readConfigObject(configPath, true);
  const { key, record } = createApiKey(options.tier, options.label, new Date());
  const keys: unknown[] = Array.isArray(raw.keys) ? raw.keys : [];
  await writeConfigObject(configPath, { ...raw, keys: [...keys, record] });
  process.stderr.write(`created ${options.tier} key ${record.id} in ${configPath}; it is shown only now, store it safely (a running service serves it after SIGHUP):\n`);
  process.stdout.write(`${key}\n`);
}

async function listKeys(options: LocationOptions): Promise<void> {
  const { config: configPath, explicit } = locate(options);
  // The home's config may not exist yet (no key was made); a file named by --config must.
  const { keys } = await loadConfig(configPath, !explicit);
  if (keys.length === 0) process.stderr.write(`no keys in ${configPath}\n`);
  for (const { id, tier, label, created_utc } of keys) process.stdout.write(`${id}\t${tier}\t${created_utc}\t${label ?? ""}\n`);
}

async function createSigningKey(file: string): Promise<void> {
  let key: Awaited<ReturnType<typeof createSigningKeyFile>>;
  try {
    key = await createSigningKeyFile(file);
  } catch (error) {
    throw new ServiceStartError(
      errnoCode(error) === "EEXIST" ? `${file} exists; a key file is never replaced (remove it first if it is really unused)` : `cannot create ${file}: ${describeIoError(error)}`,
    );
  }
  process.stderr.write(`created signing key ${key.verifying.key_id} in ${file}; give every node this file (--signing-key)\n`);
  process.stdout.write(`${key.verifying.key_id}\n`);
}

const homeOption = () => new Option("--home <dir>", "service home: signing key, clockchain, default config (default: $TEMPORAL_HOME, else ./.temporal)");
const configOption = () => new Option("--config <file>", "service config JSON (default: <home>/service.json; see docs/service.md)");

const SERVE_HELP = `
Environment:
  HOST           address to listen on when --host is not given
  PORT           port to listen on when --port is not given
  TEMPORAL_HOME  the home when --home is not given
  TEMPORAL_STORE_URL         the store when --store is not given
  TEMPORAL_SIGNING_KEY_FILE  the key file when --signing-key is not given
  TEMPORAL_NODE_ID           the node id when --node-id is not given
  Where to listen comes from --host/--port, else HOST/PORT, else "host"/"port"
  in the config file, else 127.0.0.1:8787. The store, key file and node id
  likewise come from the flag, else the variable, else "store", "signing_key"
  and "node_id" in the config file. An empty variable counts as unset.

Signals:
  SIGTERM, SIGINT  stop accepting, finish requests in flight, close the ledger
                   and exit 0; a second one exits 1 at once
  SIGHUP           reload the config file (keys, CORS, rate limits, sources,
                   challenge TTL, trust_proxy, limits) and print a line; a file that
                   cannot be used is reported and the running config kept

Exit status: 0 after SIGTERM or SIGINT, 1 when the service cannot start (the
home is damaged or unwritable, the database is unreachable, the key file is
missing, the address is in use or not permitted, the TLS files cannot be read
or do not match) or cannot stop cleanly, 2 for usage errors: an unknown
option, a bad value, a bad config file, a bad HOST, PORT or TEMPORAL_STORE_URL.

Examples:
  $ temporal-service --port 8787
  $ PORT=0 temporal-service --home /srv/temporal --config /etc/temporal/service.json
  $ temporal-service keys create --tier enterprise --label ci
  $ temporal-service signing-key create /etc/temporal/signing-key.pem
  $ temporal-service --store postgres://temporal@db/temporal --signing-key /etc/temporal/signing-key.pem --node-id a
  $ kill -HUP <pid>    # serve the key just created without a restart
  $ temporal-service --ztt-window 330,30 --ztt-zone Z1   # POST ztt/sign signs from 22:00 to 02:00 Z1 local
  $ TEMPORAL_URL=http://127.0.0.1:8787 TEMPORAL_API_KEY=<key> temporalc run mission.mission --tasks tasks.mjs`;

/** The options and action of serving, on the root command (`temporal-service --port 0`) and on `serve`. */
function servingCommand(command: Command): Command {
  return command
    .addOption(new Option("--host <host>", "address to listen on (default: $HOST, else the config's host, else 127.0.0.1)").argParser(parsed(parseHost, HOST_RULE)))
    .addOption(new Option("--port <port>", "port to listen on, 0 for a free one (default: $PORT, else the config's port, else 8787)").argParser(parsed(parsePort, PORT_RULE)))
    .addOption(
      new Option("--store <url>", "a postgres:// URL: the store shared by several nodes (default: $TEMPORAL_STORE_URL, else the config's store, else the home's files)").argParser(
        storeUrlFlag,
      ),
    )
    .addOption(
      new Option("--signing-key <file>", "PKCS#8 PEM Ed25519 key file, the same on every node (default: $TEMPORAL_SIGNING_KEY_FILE, else the config's signing_key, else the home's key)"),
    )
    .addOption(
      new Option("--node-id <id>", "this node's name in clockchain/status, 1 to 200 characters (default: $TEMPORAL_NODE_ID, else the config's node_id, else <host name>:<pid>)").argParser(
        parsed(parseNodeId, NODE_ID_RULE),
      ),
    )
    .addOption(configOption())
    .addOption(homeOption())
    .addOption(new Option("--log-level <level>", "request log: one JSON line per request at info, on stdout (default: the config's log_level, else info)").choices(LOG_LEVELS))
    .addOption(new Option("--tls-cert <pem>", "serve HTTPS with this certificate chain (PEM file); needs --tls-key"))
    .addOption(new Option("--tls-key <pem>", "the private key (PEM file) of --tls-cert"))
    .addOption(
      new Option("--ztt-window <start,end>", "the ZTT signer's window in degrees, e.g. 330,30 (default: the config's ztt.window, else no signer)").argParser(
        parsed(parseWindowText, WINDOW_TEXT_RULE),
      ),
    )
    .addOption(new Option("--ztt-zone <zone>", "the ZTT window's zone, Z0..Z11 or 0..11 (default: the config's ztt.zone, else Z0)").argParser(parsed(parseZoneText, ZONE_TEXT_RULE)))
    .addHelpText("after", SERVE_HELP)
    .action(async (options: LocationOptions & NodeFlags & ZttFlags & ServeOptions & { host?: string; port?: number }, self: Command) => {
      if (self.args.length > 0)
        throw new UsageError(self.parent === null ? `unknown command '${self.args[0]}' (the commands are serve, keys and signing-key)` : `serve takes no arguments, got '${self.args[0]}'`);
      await serve(
        locate(options),
        { host: options.host, port: options.port, store: options.store, signingKey: options.signingKey, nodeId: options.nodeId, zttWindow: options.zttWindow, zttZone: options.zttZone },
        { logLevel: options.logLevel, tlsCert: options.tlsCert, tlsKey: options.tlsKey },
      );
    });
}

export function program(): Command {
  const root = new Command("temporal-service")
    .description("The Temporal Permission Service: the HTTP interface of @temporal/agent-sdk, with tiers, CORS and the clockchain.\nWithout a command, serves (as 'serve').")
    .version(SERVICE_VERSION, "-V, --version", "print the temporal-service version (-v works too)")
    .addOption(new Option("-v").hideHelp())
    .on("option:v", () => {
      process.stdout.write(`${SERVICE_VERSION}\n`);
      throw new CommanderError(0, "commander.version", SERVICE_VERSION);
    })
    .helpOption("-h, --help", "show help for temporal-service or a command")
    // Each command parses its own options, so `keys create --home` is not taken by the root's --home.
    .enablePositionalOptions()
    .allowExcessArguments()
    .showSuggestionAfterError()
    .exitOverride()
    .configureOutput({ outputError: (text, write) => write(`temporal-service: INVALID_ARGUMENT: ${text.replace(/^error: /, "")}`) });
  servingCommand(root);
  servingCommand(root.command("serve").description("serve the API at /api/v1 and /v1 until SIGINT or SIGTERM (what temporal-service does without a command)"));
  const keys = root.command("keys").description("manage API keys (the config keeps only their SHA-256)");
  keys
    .command("create")
    .description("create a key, print it once, and store its hash and tier in the config")
    .addOption(new Option("--tier <tier>", "access tier").choices(TIERS).makeOptionMandatory())
    .addOption(new Option("--label <text>", "a note to recognise the key by").argParser(parsed(parseLabel, LABEL_RULE)))
    .addOption(configOption())
    .addOption(homeOption())
    .addHelpText(
      "after",
      `
A running service serves the new key after SIGHUP (kill -HUP <pid>).

Exit status: 0 when the key was created, 2 for usage errors or a config
file that cannot be read or written.

Example:
  $ temporal-service keys create --tier enterprise --label ci --home /srv/temporal`,
    )
    .action(createKey);
  keys
    .command("list")
    .description("list key ids, tiers and labels")
    .addOption(configOption())
    .addOption(homeOption())
    .addHelpText(
      "after",
      `
Exit status: 0, or 2 for usage errors or a config file that cannot be used.

Example:
  $ temporal-service keys list --home /srv/temporal`,
    )
    .action(listKeys);
  const signingKey = root.command("signing-key").description("manage the Ed25519 signing key that several nodes on one store share");
  signingKey
    .command("create")
    .description("create a new PKCS#8 PEM Ed25519 key file (mode 0600) and print its key id; an existing file is never replaced")
    .argument("<file>", "where to write the key")
    .addHelpText(
      "after",
      `
Give every node the same file (--signing-key or TEMPORAL_SIGNING_KEY_FILE).

Exit status: 0 when the key was created, 1 when the file exists or cannot be
written, 2 for usage errors.

Example:
  $ temporal-service signing-key create /etc/temporal/signing-key.pem`,
    )
    .action(createSigningKey);
  root.hook("preAction", (_root, command) => {
    // Options given before a command belong to the root and would be ignored by the command.
    const misplaced = command === root ? [] : Object.keys(root.opts());
    if (misplaced.length > 0) throw new UsageError(`give the options after the command: ${commandPath(command)} ${misplaced.map((name) => `--${name}`).join(" ")} ...`);
  });
  for (const command of [root, ...root.commands, ...keys.commands, ...signingKey.commands]) command.showHelpAfterError(helpHint(command));
  return root;
}

function commandPath(command: Command): string {
  return command.parent === null ? command.name() : `${commandPath(command.parent)} ${command.name()}`;
}

function helpHint(command: Command): string {
  return `Try '${commandPath(command)} --help' for more information.`;
}

/** Runs `temporal-service` with `argv` (without node and the script) and sets the exit status; see SERVE_HELP. */
export async function main(argv: readonly string[]): Promise<void> {
  let running: Command | undefined;
  const root = program().hook("preAction", (_root, command) => {
    running = command;
  });
  try {
    await root.parseAsync([...argv], { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander has printed the message and the hint; it exits 0 for --help and --version.
      process.exitCode = error.exitCode === 0 ? 0 : EXIT_USAGE;
      return;
    }
    if (error instanceof UsageError || (error instanceof TemporalError && error.code === "INVALID_SERVICE_CONFIG")) {
      process.stderr.write(`temporal-service: ${error.code}: ${error.message}\n${helpHint(running ?? root)}\n`);
      process.exitCode = EXIT_USAGE;
      return;
    }
    process.exitCode = EXIT_FAILURE;
    if (error instanceof ServiceStartError) process.stderr.write(`temporal-service: ${error.message}\n`);
    // The home's errors (LEDGER_CORRUPT, HOME_NOT_WRITABLE, ...) and file-system errors carry a code that says what to look up.
    else if (typeof (error as NodeJS.ErrnoException).code === "string") process.stderr.write(`temporal-service: ${(error as NodeJS.ErrnoException).code}: ${(error as Error).message}\n`);
    // Anything else is a bug: its stack is worth reporting.
    else process.stderr.write(`temporal-service: unexpected error: ${error instanceof Error ? error.stack : String(error)}\n`);
  }
}
