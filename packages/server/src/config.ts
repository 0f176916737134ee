import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { makeDirectory, writeFileDurably } from "@temporal/agent-sdk/node";
import { Ajv2020 } from "ajv/dist/2020.js";
import { TemporalError } from "@temporal/agent-sdk";
import { DEFAULT_CONFIG, type ServiceConfig } from "@temporal/agent-sdk/service";
import { schemaProblems } from "./schema-problems.js";
import { LOG_LEVELS, type LogLevel } from "./request-log.js";
import { TIERS } from "./tiers.js";

// The config's shape and defaults are the SDK pipeline's, which the in-process stand-in runs with too.
export { DEFAULT_CONFIG, type BucketConfig, type CarbonSource, type QualitySource, type ServiceConfig } from "@temporal/agent-sdk/service";

const bucket = {
  type: "object",
  required: ["burst", "per_second"],
  additionalProperties: false,
  properties: { burst: { type: "number", minimum: 1 }, per_second: { type: "number", exclusiveMinimum: 0 } },
};

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
          label: { type: "string" },
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
      properties: { score: { type: "number", minimum: 0, maximum: 1 }, file: { type: "string", minLength: 1 } },
      minProperties: 1,
      maxProperties: 1,
    },
    carbon: {
      type: ["object", "null"],
      additionalProperties: false,
      properties: { intensity: { type: "number", minimum: 0 }, forecast_file: { type: "string", minLength: 1 }, location: { type: "string" } },
      if: { type: "object" },
      then: { anyOf: [{ required: ["intensity"] }, { required: ["forecast_file"] }] },
    },
    challenge_ttl_ms: { type: "integer", minimum: 1000, maximum: 3_600_000 },
    trust_proxy: { type: "boolean" },
    // The request log's level (docs/operations.md), read at the start; --log-level overrides it.
    log_level: { enum: [...LOG_LEVELS] },
    // A C2SP note key name: no space, "+" or control character (checked again, with its reason, when the authority is made).
    authority_name: { type: ["string", "null"], pattern: "^[^\\s+\\u0000-\\u001f\\u007f]+$" },
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

/** The raw JSON object of a config file, validated; `{}` when the file does not exist and `optional` is set. */
export async function readConfigObject(path: string, optional: boolean): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT" && optional) return {};
    throw new ConfigError(`cannot read config ${path}: ${(error as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`config ${path} is not valid JSON: ${(error as Error).message}`);
  }
  if (!validateConfig(value)) throw new ConfigError(`config ${path} is invalid: ${describeSchemaErrors(validateConfig.errors ?? [])}`);
  const { carbon } = value as { carbon?: Record<string, unknown> | null };
  if (carbon != null && "intensity" in carbon && "forecast_file" in carbon) {
    throw new ConfigError(`config ${path} is invalid: carbon takes either intensity (a static value) or forecast_file, not both`);
  }
  return value as Record<string, unknown>;
}

/** Reads and completes a config file with the defaults. */
export async function loadConfig(path: string, optional: boolean): Promise<ServiceConfig> {
  return (await loadConfigFile(path, optional)).config;
}

/** Reads a config file: the service's config, completed with the defaults, and the address it asks to listen on. */
export async function loadConfigFile(path: string, optional: boolean): Promise<{ config: ServiceConfig; listen: ListenSettings; logLevel?: LogLevel }> {
  const { host, port, log_level, ...rest } = (await readConfigObject(path, optional)) as ListenSettings & { log_level?: LogLevel } & Record<string, unknown>;
  return { config: completeConfig(rest, dirname(path)), listen: { host, port }, logLevel: log_level };
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
    quality: quality !== null && "file" in quality ? { file: resolve(base, quality.file) } : quality,
    carbon: carbon !== null && "forecast_file" in carbon ? { ...carbon, forecast_file: resolve(base, carbon.forecast_file) } : carbon,
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
  return schemaProblems(errors, "")
    .map(({ field, problem }) => `${field === "" ? "(root)" : field} ${problem}`)
    .join("; ");
}
