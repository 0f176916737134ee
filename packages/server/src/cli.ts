import { join } from "node:path";
import { Command, InvalidArgumentError, Option } from "commander";
import { defaultHome } from "@temporal/agent-sdk/node";
import { createApiKey } from "./api-keys.js";
import { ConfigError, loadConfig, readConfigObject, writeConfigObject } from "./config.js";
import { createService } from "./service.js";
import { TIERS } from "./tiers.js";

interface LocationOptions {
  readonly home?: string;
  readonly config?: string;
}

function locate(options: LocationOptions): { home: string; config: string; explicitConfig: boolean } {
  const home = options.home ?? defaultHome();
  return { home, config: options.config ?? join(home, "service.json"), explicitConfig: options.config !== undefined };
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65_535) throw new InvalidArgumentError("a port is an integer 0..65535 (0 picks a free port)");
  return port;
}

function fail(message: string, exitCode: number): never {
  process.stderr.write(`temporal-service: ${message}\n`);
  process.exit(exitCode);
}

async function serve(options: LocationOptions & { host: string; port: number }): Promise<void> {
  const { home, config: configPath, explicitConfig } = locate(options);
  const config = await loadConfig(configPath, !explicitConfig);
  const service = createService({ home, config });
  // Opening the authority loads the key and verifies the whole clockchain; do it before listening so a damaged or unwritable home fails now, not on the first request.
  await service.authority.ready();
  const url = await service.listen({ host: options.host, port: options.port });
  process.stdout.write(`listening on ${url}\n`);
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) fail(`${signal} again: exiting without waiting for requests in flight`, 1);
    stopping = true;
    process.stdout.write(`${signal}: finishing requests in flight and closing the ledger\n`);
    service.close().then(
      () => process.exit(0),
      (error: unknown) => fail(`could not close cleanly: ${(error as Error).message}`, 1),
    );
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

async function createKey(options: LocationOptions & { tier: (typeof TIERS)[number]; label?: string }): Promise<void> {
  const { config: configPath } = locate(options);
  const raw = await readConfigObject(configPath, true);
  const { key, record } = createApiKey(options.tier, options.label, new Date());
  const keys: unknown[] = Array.isArray(raw.keys) ? raw.keys : [];
  await writeConfigObject(configPath, { ...raw, keys: [...keys, record] });
  process.stderr.write(`created ${options.tier} key ${record.id} in ${configPath}; it is shown only now, store it safely:\n`);
  process.stdout.write(`${key}\n`);
}

async function listKeys(options: LocationOptions): Promise<void> {
  const { config: configPath } = locate(options);
  const { keys } = await loadConfig(configPath, true);
  if (keys.length === 0) process.stderr.write(`no keys in ${configPath}\n`);
  for (const { id, tier, label, created_utc } of keys) process.stdout.write(`${id}\t${tier}\t${created_utc}\t${label ?? ""}\n`);
}

const homeOption = () => new Option("--home <dir>", "service home: signing key, clockchain, default config (default: $TEMPORAL_HOME or ./.temporal)");
const configOption = () => new Option("--config <file>", "service config JSON (default: <home>/service.json; see docs/service.md)");

export function program(): Command {
  const root = new Command("temporal-service")
    .description("The Temporal Permission Service: the HTTP interface of @temporal/agent-sdk, with tiers, CORS and the clockchain")
    .showHelpAfterError()
    .addHelpText("after", "\nExamples:\n  temporal-service --port 8787\n  temporal-service keys create --tier enterprise --label ci\n  TEMPORAL_URL=http://127.0.0.1:8787 TEMPORAL_API_KEY=<key> temporalc run mission.mission --tasks tasks.mjs");
  root
    .command("serve", { isDefault: true })
    .description("serve the API at /api/v1 and /v1 until SIGINT or SIGTERM")
    .option("--host <host>", "address to listen on", "127.0.0.1")
    .option("--port <port>", "port to listen on (0 picks a free one)", parsePort, 8787)
    .addOption(configOption())
    .addOption(homeOption())
    .action(serve);
  const keys = root.command("keys").description("manage API keys (the config keeps only their SHA-256)");
  keys
    .command("create")
    .description("create a key, print it once, and store its hash and tier in the config")
    .addOption(new Option("--tier <tier>", "access tier").choices(TIERS).makeOptionMandatory())
    .option("--label <text>", "a note to recognise the key by")
    .addOption(configOption())
    .addOption(homeOption())
    .action(createKey);
  keys.command("list").description("list key ids, tiers and labels").addOption(configOption()).addOption(homeOption()).action(listKeys);
  return root;
}

export async function main(argv: readonly string[]): Promise<void> {
  try {
    await program().parseAsync([...argv], { from: "user" });
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message, 2);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE" || code === "EACCES" || code === "EADDRNOTAVAIL") fail((error as Error).message, 1);
    if (typeof code === "string" && /^[A-Z_]+$/.test(code)) fail(`${code}: ${(error as Error).message}`, 1);
    throw error;
  }
}
