import { KeyFileSigner } from "@temporal/agent-sdk/node";
import type { Signer } from "@temporal/agent-sdk";
import { openPostgresStore } from "@temporal/store-postgres";
import type { NodeSettings } from "./node-settings.js";
import type { ServiceStore } from "./store.js";

/**
 * The store and signer a node's settings name; each absent when the home's
 * files serve. Nothing is connected or read here: `authority.ready()` does
 * that, so an unreachable database or a missing key fails the start there.
 */
export function openNodeStore(node: NodeSettings): { store?: ServiceStore; signer?: Signer } {
  return {
    ...(node.storeUrl === undefined ? {} : { store: openPostgresStore({ url: node.storeUrl, nodeId: node.nodeId }) }),
    ...(node.signingKeyFile === undefined ? {} : { signer: new KeyFileSigner(node.signingKeyFile) }),
  };
}
