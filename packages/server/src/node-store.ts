import { KeyFileSigner } from "@temporal/agent-sdk/node";
import { TemporalError, type Signer } from "@temporal/agent-sdk";
import { openPostgresStore, redactUrl } from "@temporal/store-postgres";
import type { NodeSettings } from "./node-settings.js";
import type { ServiceStore } from "./store.js";

/**
 * The store and signer a node's settings name; each absent when the home's
 * files serve. Nothing is connected or read here: `authority.ready()` does
 * that, so an unreachable database or a missing key fails the start there.
 */
export function openNodeStore(node: NodeSettings): { store?: ServiceStore; signer?: Signer } {
  return {
    ...(node.storeUrl === undefined
      ? {}
      : { store: openPostgresStore({ url: node.storeUrl, nodeId: node.nodeId, log: (message) => process.stderr.write(`temporal-service: ${message}\n`) }) }),
    ...(node.signingKeyFile === undefined ? {} : { signer: new KeyFileSigner(node.signingKeyFile) }),
  };
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
 * What to do when a shared store's clockchain does not verify with this
 * node's key (the SDK's `LEDGER_CORRUPT` for an `UNKNOWN_KEY` head): not
 * damage, almost always a node started with another key than the others.
 * Undefined for any other failure.
 */
export function describeKeyMismatch(error: unknown, node: NodeSettings): string | undefined {
  if (node.storeUrl === undefined || !(error instanceof TemporalError) || error.code !== "LEDGER_CORRUPT" || !error.message.includes("UNKNOWN_KEY")) return undefined;
  const own = node.signingKeyFile === undefined ? "without --signing-key this node signs with its home's key" : `this node signs with ${node.signingKeyFile}`;
  return `${error.message}. The database's clockchain is signed by another key: ${own}; give every node the same --signing-key file`;
}
