import { KeyFileSigner } from "@temporal/agent-sdk/node";
import type { Signer } from "@temporal/agent-sdk";
import type { NodeSettings } from "./node-settings.js";
import type { ServiceStore } from "./store.js";

/** The store and signer a node's settings name; each absent when the home's files serve. Opening does no I/O: `authority.ready()` connects and loads. */
export function openNodeStore(node: NodeSettings): { store?: ServiceStore; signer?: Signer } {
  return {
    ...(node.signingKeyFile === undefined ? {} : { signer: new KeyFileSigner(node.signingKeyFile) }),
  };
}
