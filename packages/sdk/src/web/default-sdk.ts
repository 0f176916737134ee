import { createMemoryAuthority } from "../authority/memory-authority.js";
import type { ComposedAuthority } from "../authority/composed-authority.js";
import type { Authority } from "../core/types.js";

let shared: ComposedAuthority | undefined;

/**
 * The default authority outside Node (browsers, web workers, edge runtimes):
 * the package's `#default-sdk` import resolves here wherever the `node`
 * condition does not apply. There is no home to keep a key and a ledger in,
 * so it is one in-memory authority per page, worker or isolate: its receipts
 * and proofs verify like any other, but its key and clockchain end with it.
 * Like the Node default, a closed or failed one is replaced on the next call.
 */
export function defaultSdk(): Authority {
  if (shared === undefined || shared.closed || shared.failed) shared = createMemoryAuthority();
  return shared;
}
