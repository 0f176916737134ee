import { mkdir, readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { writeFileDurably } from "@temporal/agent-sdk/node";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { ApiKeyRecord } from "./api-keys.js";
import { schemaProblems } from "./schema-problems.js";
import { TIERS } from "./tiers.js";

export interface BucketConfig {
  /** Requests that may arrive at once. */
  readonly burst: number;
  /** Requests per second the bucket refills with. */
  readonly per_second: number;
}

export type QualitySource = { readonly score: number } | { readonly file: string };
/** A static intensity, or a forecast file in the Carbon Aware SDK's shape; `location` picks one forecast of several and is echoed in replies. */
export type CarbonSource = { readonly intensity: number; readonly location?: string } | { readonly forecast_file: string; readonly location?: string };

/** The service configuration, as read from its JSON file; relative file paths are resolved against the file's directory. */
export interface ServiceConfig {
  readonly cors: { readonly origins: readonly string[] };
  readonly keys: readonly ApiKeyRecord[];
  readonly rate_limit: { readonly per_ip: BucketConfig; readonly per_key: BucketConfig };
  readonly quality: QualitySource | null;
  readonly carbon: CarbonSource | null;
  readonly challenge_ttl_ms: number;
  /** Take the client address from X-Forwarded-For (only behind a proxy you run). */
  readonly trust_proxy: boolean;
  /** The authority name of the clockchain's checkpoint origins (`<name>/tile/<tile id>`); null for `temporal-authority/<key id>`. */
  readonly authority_name: string | null;
}

export const DEFAULT_CONFIG: ServiceConfig = {
  cors: { origins: [] },
  keys: [],
  rate_limit: { per_ip: { burst: 300, per_second: 100 }, per_key: { burst: 1200, per_second: 400 } },
  quality: null,
  carbon: null,
  challenge_ttl_ms: 60_000,
  trust_proxy: false,
  authority_name: null,
};

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
    // A C2SP note key name: no space, "+" or control character (checked again, with its reason, when the authority is made).
    authority_name: { type: ["string", "null"], pattern: "^[^\\s+\\u0000-\\u001f\\u007f]+$" },
  },
} as const;

// strictRequired is off because `carbon` names its alternatives in `then`, away from `properties`.
const validateConfig = new Ajv2020({ allErrors: true, strict: true, strictRequired: false }).compile(CONFIG_SCHEMA);

/** A config file that cannot be used; the message names the file and every bad field. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
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
  const raw = (await readConfigObject(path, optional)) as Partial<ServiceConfig>;
  const base = dirname(path);
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
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
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
