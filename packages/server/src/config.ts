import { dirname, resolve } from "node:path";
import { describeIoError, errnoCode, makeDirectory, readSmallFile, writeFileDurably } from "@temporal/agent-sdk/node";
import { Ajv2020 } from "ajv/dist/2020.js";
import { TemporalError, jsonSyntaxProblem, type WitnessingOptions } from "@temporal/agent-sdk";
import { DEFAULT_CONFIG, TrustedProxies, duplicateKeyPointer, type ServiceConfig } from "@temporal/agent-sdk/service";
import { QuantumError, backendById } from "@temporal/quantum";
import { NODE_ID_MAX_LENGTH, type NodeFileSettings } from "./node-settings.js";
import { schemaProblems } from "./schema-problems.js";
import { LOG_LEVELS, type LogLevel } from "./request-log.js";
import { TIERS } from "./tiers.js";
import { WITNESSING_CONFIG_SCHEMA, witnessingOptions, type WitnessingConfig } from "./witnessing-config.js";
import { ZTT_CONFIG_SCHEMA, zttConfig } from "./ztt-config.js";

// The config's shape and defaults are the SDK pipeline's, which the in-process stand-in runs with too.
export { DEFAULT_CONFIG, type BucketConfig, type CarbonSource, type ConnectionLimits, type QualitySource, type ServiceConfig } from "@temporal/agent-sdk/service";

const bucket = {
  type: "object",
  required: ["burst", "per_second"],
  additionalProperties: false,
  properties: { burst: { type: "number", minimum: 1 }, per_second: { type: "number", exclusiveMinimum: 0 } },
};

/** An API key's label: text without control characters, so that `keys list` prints each key on one line of tab-separated fields. */
export const LABEL_PATTERN = "^[^\\u0000-\\u001f\\u007f]*$";
export const LABEL_RULE = "text without control characters (a tab or a line break would split keys list's lines)";

const CONFIG_SCHEMA = {
  type: "object",
  additionalProperties: false,
  properties: {
    $schema: { type: "string" },
    // Where `temporal-service` listens unless --host/--port or HOST/PORT say otherwise; not part of ServiceConfig, since createService does not listen by itself.
    host: { type: "string", minLength: 1 },
    port: { type: "integer", minimum: 0, maximum: 65_535 },
    cors: {
      type: "object",
      additionalProperties: false,
      required: ["origins"],
      properties: { origins: { type: "array", items: { type: "string", pattern: "^https?://[^/?#]+$" }, uniqueItems: true } },
    },
    keys: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["id", "sha256", "tier", "created_utc"],
        properties: {
          id: { type: "string", minLength: 1 },
          sha256: { type: "string", pattern: "^[0-9a-f]{64}$" },
          tier: { enum: [...TIERS] },
          // One line of `keys list`, whose fields are separated by tabs.
          label: { type: "string", pattern: LABEL_PATTERN, title: LABEL_RULE },
          created_utc: { type: "string" },
        },
      },
    },
    rate_limit: {
      type: "object",
      additionalProperties: false,
      properties: { per_ip: bucket, per_key: bucket },
    },
    quality: {
      type: ["object", "null"],
      additionalProperties: false,
      properties: {
        score: { type: "number", minimum: 0, maximum: 1 },
        file: { type: "string", minLength: 1 },
        // The HS-Bloch quality of a @temporal/quantum simulator backend; noise, shots and seed go with it only.
        simulator: { type: "string", minLength: 1 },
        noise: { type: "number", minimum: 0, maximum: 1 },
        shots: { type: "integer", minimum: 1, maximum: 1_000_000 },
        seed: { type: "integer", minimum: 0, maximum: 4_294_967_295 },
      },
      minProperties: 1,
      if: { type: "object" },
      then: {
        oneOf: [
          { required: ["score"], maxProperties: 1 },
          { required: ["file"], maxProperties: 1 },
          { required: ["simulator"], not: { anyOf: [{ required: ["score"] }, { required: ["file"] }] } },
        ],
      },
    },
    carbon: {
      type: ["object", "null"],
      additionalProperties: false,
      properties: { intensity: { type: "number", minimum: 0 }, forecast_file: { type: "string", minLength: 1 }, location: { type: "string" } },
      if: { type: "object" },
      then: { anyOf: [{ required: ["intensity"] }, { required: ["forecast_file"] }] },
    },
    challenge_ttl_ms: { type: "integer", minimum: 1000, maximum: 3_600_000 },
    // `true` is refused with its own message in readConfigObject: it used to trust the leftmost entry, which the client writes.
    trust_proxy: { anyOf: [{ type: "boolean" }, { type: "array", items: { type: "string", minLength: 1 }, uniqueItems: true }] },
    limits: {
      type: "object",
      additionalProperties: false,
      properties: {
        max_connections: { type: "integer", minimum: 1 },
        max_connections_per_address: { type: "integer", minimum: 1 },
        headers_timeout_ms: { type: "integer", minimum: 100 },
        request_timeout_ms: { type: "integer", minimum: 100 },
        keep_alive_timeout_ms: { type: "integer", minimum: 100 },
      },
    },
    // The request log's level (docs/operations.md), read at the start; --log-level overrides it.
    log_level: { enum: [...LOG_LEVELS] },
    // A C2SP note key name: no space, "+" or control character (checked again, with its reason, when the authority is made).
    authority_name: { type: ["string", "null"], pattern: "^[^\\s+\\u0000-\\u001f\\u007f]+$" },
    // Node settings (node-settings.ts): like host and port, not part of ServiceConfig, and read at start only.
    store: { type: "string", pattern: "^postgres(ql)?://." },
    signing_key: { type: "string", minLength: 1 },
    node_id: { type: "string", minLength: 1, maxLength: NODE_ID_MAX_LENGTH },
    // Witnesses and quorum (witnessing-config.ts): read at start only.
    witnessing: WITNESSING_CONFIG_SCHEMA,
    // The ZTT signer's window and zone (ztt-config.ts): read at start only.
    ztt: ZTT_CONFIG_SCHEMA,
    previous_keys: {
      type: "array",
      items: {
        anyOf: [
          { type: "string", minLength: 1 },
          {
            type: "object",
            required: ["kty", "crv", "x"],
            properties: { kty: { const: "OKP" }, crv: { const: "Ed25519" }, x: { type: "string" }, kid: { type: "string" } },
          },
        ],
      },
    },
  },
} as const;

// strictRequired is off because `carbon` names its alternatives in `then`, away from `properties`.
const validateConfig = new Ajv2020({ allErrors: true, strict: true, strictRequired: false }).compile(CONFIG_SCHEMA);

/** A config file that cannot be used (`INVALID_SERVICE_CONFIG`); the message names the file and every bad field. */
export class ConfigError extends TemporalError {
  declare readonly code: "INVALID_SERVICE_CONFIG";
  constructor(message: string, options?: ErrorOptions) {
    super("INVALID_SERVICE_CONFIG", message, options);
    this.name = "ConfigError";
  }
}

/** The address a config file asks `temporal-service` to listen on, where it says. */
export interface ListenSettings {
  readonly host?: string;
  readonly port?: number;
}

/** A config holds API keys' hashes, about 150 bytes each: 8 MiB holds tens of thousands. */
const CONFIG_LIMIT_BYTES = 8 * 1_048_576;

/** The raw JSON object of a config file, validated; `{}` when the file does not exist and `optional` is set. */
export async function readConfigObject(path: string, optional: boolean): Promise<Record<string, unknown>> {
  return (await readConfigIfPresent(path, optional)) ?? {};
}

/** The raw JSON object of a config file, validated; `undefined` when the file does not exist and `optional` is set. */
async function readConfigIfPresent(path: string, optional: boolean): Promise<Record<string, unknown> | undefined> {
  let text: string;
  try {
    text = (await readSmallFile(path, CONFIG_LIMIT_BYTES)).toString("utf8");
  } catch (error) {
    if (errnoCode(error) === "ENOENT" && optional) return undefined;
    throw new ConfigError(`cannot read config ${path}: ${describeIoError(error)}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const { where, reason } = jsonSyntaxProblem(text, error);
    throw new ConfigError(`config ${where === undefined ? path : `${path}:${where}`} is not valid JSON: ${reason}`);
  }
  // JSON.parse keeps the last of two equal keys: a second "keys" would drop the first's keys unseen, and `keys create` would write the file back without them.
  const duplicate = duplicateKeyPointer(text, value);
  if (duplicate !== undefined) throw new ConfigError(`config ${path} is invalid: it has the key at ${duplicate} more than once (only the last would count); keep one`);
  if (!validateConfig(value)) throw new ConfigError(`config ${path} is invalid: ${describeSchemaErrors(validateConfig.errors ?? [])}`);
  const { carbon, trust_proxy: trustProxy, limits } = value as { carbon?: Record<string, unknown> | null; trust_proxy?: unknown; limits?: Partial<ServiceConfig["limits"]> };
  if (carbon != null && "intensity" in carbon && "forecast_file" in carbon) {
    throw new ConfigError(`config ${path} is invalid: carbon takes either intensity (a static value) or forecast_file, not both`);
  }
  const { quality } = value as { quality?: { simulator?: string; noise?: number } | null };
  if (typeof quality?.simulator === "string") {
    // The backend's own rules (a known id; noise only where there is a noise model), so a config that loads cannot fail at the first quantum/decision.
    try {
      backendById(quality.simulator, quality.noise === undefined ? {} : { noise: quality.noise });
    } catch (error) {
      if (!(error instanceof QuantumError)) throw error;
      throw new ConfigError(`config ${path} is invalid: quality: ${error.message}`);
    }
  }
  const witnessing = witnessingOptions((value as { witnessing?: WitnessingConfig | null }).witnessing);
  const problem =
    trustProxyProblem(trustProxy) ?? limitsProblem({ ...DEFAULT_CONFIG.limits, ...limits }) ?? (witnessing !== undefined && "problem" in witnessing ? witnessing.problem : undefined);
  if (problem !== undefined) throw new ConfigError(`config ${path} is invalid: ${problem}`);
  return value as Record<string, unknown>;
}

function trustProxyProblem(trustProxy: unknown): string | undefined {
  if (trustProxy === true)
    return 'trust_proxy no longer takes true (it trusted X-Forwarded-For\'s leftmost entry, which any client can write): list your proxies\' addresses or ranges instead, such as ["127.0.0.1", "::1"] or ["10.0.0.0/8"]';
  if (!Array.isArray(trustProxy)) return undefined;
  try {
    new TrustedProxies(trustProxy as string[]);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

function limitsProblem(limits: ServiceConfig["limits"]): string | undefined {
  // Node refuses a server whose headers may take longer than the whole request.
  if (limits.headers_timeout_ms > limits.request_timeout_ms)
    return `limits.headers_timeout_ms (${limits.headers_timeout_ms}) is over limits.request_timeout_ms (${limits.request_timeout_ms})`;
  return undefined;
}

/** Reads and completes a config file with the defaults. */
export async function loadConfig(path: string, optional: boolean): Promise<ServiceConfig> {
  return (await loadConfigFile(path, optional)).config;
}

/**
 * Reads a config file: the service's config, completed with the defaults, the address it asks to listen on, the node settings it gives and the request log's level;
 * `found` is false when an optional file does not exist (so its defaults were used).
 */
export async function loadConfigFile(
  path: string,
  optional: boolean,
): Promise<{ config: ServiceConfig; listen: ListenSettings; node: NodeFileSettings; logLevel?: LogLevel; witnessing?: WitnessingOptions; found: boolean }> {
  const raw = await readConfigIfPresent(path, optional);
  const { host, port, store, signing_key, node_id, previous_keys, log_level, witnessing, ...rest } = (raw ?? {}) as ListenSettings &
    NodeFileSettings & { log_level?: LogLevel; witnessing?: WitnessingConfig | null } & Record<string, unknown>;
  const base = dirname(path);
  const node: NodeFileSettings = {
    store,
    node_id,
    signing_key: signing_key === undefined ? undefined : resolve(base, signing_key),
    previous_keys: previous_keys?.map((key) => (typeof key === "string" ? resolve(base, key) : key)),
  };
  // Checked by readConfigObject, so never a problem here.
  const witnesses = witnessingOptions(witnessing) as WitnessingOptions | undefined;
  return { config: completeConfig(rest, base), listen: { host, port }, node, logLevel: log_level, witnessing: witnesses, found: raw !== undefined };
}

/** The defaults filled in, and relative file paths resolved against `base`, the config file's directory. */
function completeConfig(raw: Partial<ServiceConfig>, base: string): ServiceConfig {
  const quality = raw.quality ?? null;
  const carbon = raw.carbon ?? null;
  return {
    ...DEFAULT_CONFIG,
    ...raw,
    cors: { origins: (raw.cors?.origins ?? []).map(normalizeOrigin) },
    rate_limit: { ...DEFAULT_CONFIG.rate_limit, ...raw.rate_limit },
    // `false` (the old off) is the empty list; `true` was refused when the file was read.
    trust_proxy: Array.isArray(raw.trust_proxy) ? raw.trust_proxy : [],
    limits: { ...DEFAULT_CONFIG.limits, ...raw.limits },
    quality: quality !== null && "file" in quality ? { file: resolve(base, quality.file) } : quality,
    carbon: carbon !== null && "forecast_file" in carbon ? { ...carbon, forecast_file: resolve(base, carbon.forecast_file) } : carbon,
    ztt: zttConfig(raw.ztt),
  };
}

/** Browsers send `Origin` as scheme://host[:port] in lower case with no default port; configured origins are compared in that form. */
function normalizeOrigin(origin: string): string {
  return new URL(origin).origin;
}

/** Writes the config atomically and durably, readable by the owner only since it lists key hashes and tiers. */
export async function writeConfigObject(path: string, value: Record<string, unknown>): Promise<void> {
  if (!validateConfig(value)) throw new ConfigError(`refusing to write an invalid config: ${describeSchemaErrors(validateConfig.errors ?? [])}`);
  try {
    // The default config lives in the service home, which `keys create` may be the first to need.
    await makeDirectory(dirname(path), { mode: 0o700 });
    await writeFileDurably(path, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  } catch (error) {
    throw new ConfigError(`cannot write config ${path}: ${(error as Error).message}`);
  }
}

function describeSchemaErrors(errors: Parameters<typeof schemaProblems>[0]): string {
  return schemaProblems(errors, "", CONFIG_SCHEMA)
    .map(({ field, problem }) => `${field === "" ? "(root)" : field} ${problem}`)
    .join("; ");
}
