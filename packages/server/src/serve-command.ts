import { collectDefaultMetrics } from "prom-client";
import { TemporalError, type WitnessingOptions } from "@temporal/agent-sdk";
import { describeListenFailure } from "@temporal/agent-sdk/node";
import { createService, type TemporalService } from "./service.js";
import { loadConfigFile } from "./config.js";
import { EXIT_FAILURE, EXIT_OK, UsageError } from "./exit-status.js";
import { resolveListenAddress, type ListenAddress } from "./listen-address.js";
import { resolveNodeSettings, type NodeFlags, type NodeSettings } from "./node-settings.js";
import { describeKeyMismatch, describeStoreUnavailable, openNodeStore } from "./node-store.js";
import { loadPreviousKeys } from "./previous-keys.js";
import type { LogLevel } from "./request-log.js";
import { readTlsFiles, TlsFilesError, type TlsCredentials } from "./tls.js";
import { withZttFlags, type ZttFlags } from "./ztt-config.js";

/** The flags that override the environment and the config file: where to listen, the node's settings, the ZTT window. */
export type ServeFlags = Partial<ListenAddress> & NodeFlags & ZttFlags;

/** Where the service's files are: the home, and the config file (`explicit` when --config named it, so it must exist). */
export interface ServiceFiles {
  readonly home: string;
  readonly config: string;
  readonly explicit: boolean;
}

/** The serving flags beside the address: the request log's level and the TLS files (both or neither). */
export interface ServeOptions {
  readonly logLevel?: LogLevel;
  readonly tlsCert?: string;
  readonly tlsKey?: string;
}

/** The service could not start; the message says why and what to do, in one line. */
export class ServiceStartError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "ServiceStartError";
  }
}

/**
 * Runs the service until SIGINT or SIGTERM: opens the home, listens, prints
 * `listening on <url>`, reloads the config on SIGHUP. Resolves once it is
 * listening; the signal handlers end the process.
 */
export async function serve(files: ServiceFiles, flags: ServeFlags, options: ServeOptions = {}): Promise<void> {
  const { config: fileConfig, listen, node: nodeFile, logLevel, witnessing, found } = await loadConfigFile(files.config, !files.explicit);
  const config = withZttFlags(fileConfig, flags);
  const address = resolveListenAddress(flags, process.env, listen, files.config);
  const node = resolveNodeSettings(flags, process.env, nodeFile, files.config);
  const previousKeys = await loadPreviousKeys(node.previousKeys, files.config);
  const tls = await tlsCredentials(options);
  const opened = openNodeStore(node);
  let service: TemporalService;
  try {
    service = createService({
      home: files.home,
      config,
      ...opened,
      nodeId: node.nodeId,
      previousKeys,
      witnessing,
      tls,
      requestLog: { level: options.logLevel ?? logLevel ?? "info" },
    });
  } catch (error) {
    // The store's pool is the service's to close once created; without a service it is given back here.
    await opened.store?.close?.();
    throw error;
  }
  // Process metrics (CPU, memory, event loop lag, ...) once per process, beside the service's own.
  collectDefaultMetrics({ register: service.metrics });
  let url: string;
  try {
    // Opening the authority loads the key and verifies the whole clockchain; do it before listening so a damaged or unwritable home fails now, not on the first request.
    await service.authority.ready();
    url = await service.listen(address);
  } catch (error) {
    // Closing gives back what opening the home took (the ledger and its lock), so a start right after on this home does not wait for it.
    await service.close().catch(() => undefined);
    const failure = describeListenFailure(error, address, "temporal-service") ?? describeKeyMismatch(error, node) ?? describeStoreUnavailable(error, node);
    throw failure === undefined ? error : new ServiceStartError(failure, { cause: error });
  }
  // Handlers first: a supervisor may signal as soon as it reads the line, and until a handler is installed a signal kills the process.
  handleSignals(service, files, flags, { address, node, witnessing }, found);
  process.stdout.write(`listening on ${url}\n`);
}

async function tlsCredentials({ tlsCert, tlsKey }: ServeOptions): Promise<TlsCredentials | undefined> {
  if (tlsCert === undefined && tlsKey === undefined) return undefined;
  if (tlsCert === undefined || tlsKey === undefined) throw new UsageError(`--tls-cert and --tls-key go together: give ${tlsCert === undefined ? "--tls-cert" : "--tls-key"} too`);
  try {
    return await readTlsFiles(tlsCert, tlsKey);
  } catch (error) {
    throw error instanceof TlsFilesError ? new ServiceStartError(error.message, { cause: error }) : error;
  }
}

/** What a running node was started with, which a reloaded config file cannot change. */
interface StartSettings {
  readonly address: ListenAddress;
  readonly node: NodeSettings;
  readonly witnessing: WitnessingOptions | undefined;
}

/** `configFound`: whether the config file was read at the start. */
function handleSignals(service: TemporalService, files: ServiceFiles, flags: ServeFlags, running: StartSettings, configFound: boolean): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) exitWith(`${signal} again: exiting without waiting for requests in flight`, EXIT_FAILURE);
    stopping = true;
    process.stdout.write(`${signal}: finishing requests in flight and closing the ledger\n`);
    service.close().then(
      () => process.exit(EXIT_OK),
      (error: unknown) => exitWith(`could not close cleanly: ${(error as Error).message}`, EXIT_FAILURE),
    );
  };
  // Once the config file has been read (at the start, or by a reload after `keys create` made it), a reload that finds
  // it missing keeps the running config rather than serving the defaults, which have no keys.
  let configSeen = configFound;
  // One reload at a time, in the order the signals came.
  let reloading = Promise.resolve();
  const reload = () => {
    reloading = reloading.then(async () => {
      if (!stopping && (await reloadConfig(service, files, flags, running, !files.explicit && !configSeen))) configSeen = true;
    });
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  process.on("SIGHUP", reload);
}

/** Node settings by the config file's name for them. */
const NODE_FIELDS = [
  ["storeUrl", "store"],
  ["signingKeyFile", "signing_key"],
  ["nodeId", "node_id"],
  ["previousKeys", "previous_keys"],
] as const;

/**
 * SIGHUP: serve with the config file as it is now, or keep the running config if the file cannot be used (or, not
 * `optional`, is missing). Either way, one line says so. Resolves with whether the file was read.
 */
async function reloadConfig(service: TemporalService, files: ServiceFiles, flags: ServeFlags, running: StartSettings, optional: boolean): Promise<boolean> {
  try {
    const { config: fileConfig, listen, node: nodeFile, witnessing, found } = await loadConfigFile(files.config, optional);
    const config = withZttFlags(fileConfig, flags);
    const address = resolveListenAddress(flags, process.env, listen, files.config);
    const node = resolveNodeSettings(flags, process.env, nodeFile, files.config);
    const startOnly: string[] = [
      ...service.reconfigure(config),
      ...(["host", "port"] as const).filter((field) => address[field] !== running.address[field]),
      ...NODE_FIELDS.filter(([field]) => JSON.stringify(node[field]) !== JSON.stringify(running.node[field])).map(([, name]) => name),
      ...(JSON.stringify(witnessing) === JSON.stringify(running.witnessing) ? [] : ["witnessing"]),
    ];
    const later = startOnly.length === 0 ? "" : `; ${startOnly.join(", ")} changed, which takes effect at the next start`;
    process.stdout.write(`SIGHUP: reloaded ${files.config}: ${config.keys.length} API keys, ${config.cors.origins.length} CORS origins${later}\n`);
    return found;
  } catch (error) {
    const code = error instanceof TemporalError ? `${error.code}: ` : "";
    process.stderr.write(`temporal-service: SIGHUP: kept the running config: ${code}${(error as Error).message}\n`);
    return false;
  }
}

function exitWith(message: string, status: number): never {
  process.stderr.write(`temporal-service: ${message}\n`);
  process.exit(status);
}
