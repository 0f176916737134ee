import { KeyFileSigner } from "@temporal/agent-sdk/node";
import { TemporalError, TemporalTypeError, type Signer } from "@temporal/agent-sdk";
import { openPostgresStore, redactUrl } from "@temporal/store-postgres";
import { UsageError } from "./exit-status.js";
import type { NodeSettings } from "./node-settings.js";
import type { ServiceStore } from "./store.js";

/**
 * The store and signer a node's settings name; each absent when the home's
 * files serve. Nothing is connected or read here: `authority.ready()` does
 * that, so an unreachable database or a missing key fails the start there.
 */
export function openNodeStore(node: NodeSettings): { store?: ServiceStore; signer?: Signer } {
  return {
    ...(node.storeUrl === undefined ? {} : { store: openStore(node.storeUrl, node.nodeId) }),
    ...(node.signingKeyFile === undefined ? {} : { signer: new KeyFileSigner(node.signingKeyFile) }),
  };
}

/** The PostgreSQL store; a URL it refuses (a timeout parameter that is not whole milliseconds) is a usage error, as a bad --store is. */
function openStore(url: string, nodeId: string): ServiceStore {
  try {
    return openPostgresStore({ url, nodeId, log: (message) => process.stderr.write(`temporal-service: ${message}\n`) });
  } catch (error) {
    if (error instanceof TemporalTypeError && error.code === "INVALID_ARGUMENT") throw new UsageError(error.message);
    throw error;
  }
}

/**
 * The start's line when the shared store cannot be reached: the store's message names no database (clients see
 * it in 503s), so this one adds which, by its redacted URL. Undefined for any other failure.
 */
export function describeStoreUnavailable(error: unknown, node: NodeSettings): string | undefined {
  if (node.storeUrl === undefined || !(error instanceof TemporalError) || error.code !== "STORE_UNAVAILABLE") return undefined;
  return `${error.code}: PostgreSQL ${redactUrl(node.storeUrl)}: ${error.message}`;
}

/**
 * Which key file the node holds, beside the SDK's `LOG_KEY_UNKNOWN` (a
 * clockchain checkpoint signed by none of the node's keys): not damage, but a
 * node started with another key than the log's (on a shared store, than
 * the other nodes'), or a rotation without the retired key in
 * `previous_keys`. Undefined for any other failure.
 */
export function describeKeyMismatch(error: unknown, node: NodeSettings): string | undefined {
  if (!(error instanceof TemporalError) || error.code !== "LOG_KEY_UNKNOWN") return undefined;
  const own = node.signingKeyFile === undefined ? "Without --signing-key this node signs with its home's key" : `This node signs with ${node.signingKeyFile}`;
  const shared = node.storeUrl === undefined ? "" : "; on a shared database give every node the same --signing-key file and previous_keys";
  return `${error.code}: ${error.message}. ${own}${shared}`;
}
