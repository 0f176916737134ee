import { hostname } from "node:os";
import { parsePostgresUrl, redactUrl } from "@temporal/store-postgres";
import { UsageError } from "./exit-status.js";

/**
 * What one service node is started with beyond the service's config: where
 * the store is, which key file signs, how the node names itself, and which
 * retired keys `GET keys` still lists. They take effect at start only.
 */
export interface NodeSettings {
  /** A `postgres://` URL; undefined for the embedded file store under the home. */
  readonly storeUrl?: string;
  /** A PKCS#8 PEM Ed25519 key file shared by every node; undefined for the home's own key. */
  readonly signingKeyFile?: string;
  readonly nodeId: string;
  /** Retired verifying keys: PEM files (public or private) or public JWKs. */
  readonly previousKeys: readonly PreviousKey[];
}

export type PreviousKey = string | { readonly kty: string; readonly crv: string; readonly x: string; readonly kid?: string };

/** The same settings as they appear in the config file (`store`, `signing_key`, `node_id`, `previous_keys`), paths already resolved. */
export interface NodeFileSettings {
  readonly store?: string;
  readonly signing_key?: string;
  readonly node_id?: string;
  readonly previous_keys?: readonly PreviousKey[];
}

export interface NodeFlags {
  readonly store?: string;
  readonly signingKey?: string;
  readonly nodeId?: string;
}

export const STORE_URL_RULE = "a store is a PostgreSQL URL such as postgres://user@host:5432/db (without --store the file store under --home is used)";
const STORE_URL = /^postgres(?:ql)?:\/\/./;

/** The longest node id: the config's `node_id` and the flag and variable alike. */
export const NODE_ID_MAX_LENGTH = 200;
export const NODE_ID_RULE = `a node id is 1 to ${NODE_ID_MAX_LENGTH} characters, such as web-1 (without one, <host name>:<pid> is used)`;

/** `value` when it can name a node, or undefined when it breaks NODE_ID_RULE (an empty one, as \`--node-id "$UNSET"\` gives, would leave the nodes unnamed). */
export function parseNodeId(value: string): string | undefined {
  const length = characters(value);
  return length >= 1 && length <= NODE_ID_MAX_LENGTH ? value : undefined;
}

/** Characters as the config's schema counts them (code points, as JSON Schema's maxLength does), not UTF-16 units. */
function characters(value: string): number {
  return [...value].length;
}

/** `value` when it is a PostgreSQL URL, or undefined when it breaks STORE_URL_RULE. */
export function parseStoreUrl(value: string): string | undefined {
  return STORE_URL.test(value) && parsePostgresUrl(value) !== undefined ? value : undefined;
}

/**
 * Each setting from the flag, else the environment (TEMPORAL_STORE_URL,
 * TEMPORAL_SIGNING_KEY_FILE, TEMPORAL_NODE_ID; empty counts as unset), else
 * the config file; the node id defaults to `<host name>:<pid>`, unique
 * among the nodes running at one time.
 */
export function resolveNodeSettings(flags: NodeFlags, env: NodeJS.ProcessEnv, file: NodeFileSettings, configPath: string): NodeSettings {
  const storeUrl = flags.store ?? storeFrom(env.TEMPORAL_STORE_URL || undefined, "the environment variable TEMPORAL_STORE_URL") ?? storeFrom(file.store, `store in config ${configPath}`);
  return {
    storeUrl,
    signingKeyFile: flags.signingKey ?? (env.TEMPORAL_SIGNING_KEY_FILE || undefined) ?? file.signing_key,
    nodeId: flags.nodeId ?? nodeIdFromEnv(env.TEMPORAL_NODE_ID || undefined) ?? file.node_id ?? `${hostname()}:${process.pid}`,
    previousKeys: file.previous_keys ?? [],
  };
}

function storeFrom(value: string | undefined, source: string): string | undefined {
  if (value === undefined) return undefined;
  if (parseStoreUrl(value) === undefined) throw storeUrlRefused(source, value);
  return value;
}

/**
 * Why a store URL from `source` (`--store`, the environment, the config) is refused: the URL with its password
 * redacted; text that is no URL at all is not shown, since it may be a password pasted in the wrong place.
 */
export function storeUrlRefused(source: string, value: string): UsageError {
  const shown = parsePostgresUrl(value) !== undefined ? JSON.stringify(redactUrl(value)) : "not a URL (its text is not shown, in case it is a password pasted in the wrong place)";
  return new UsageError(`${source} is ${shown}: ${STORE_URL_RULE}`);
}

function nodeIdFromEnv(value: string | undefined): string | undefined {
  if (value === undefined || parseNodeId(value) !== undefined) return value;
  throw new UsageError(`the environment variable TEMPORAL_NODE_ID is ${characters(value)} characters long: ${NODE_ID_RULE}`);
}
