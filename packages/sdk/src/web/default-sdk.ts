import { TemporalError } from "../core/errors.js";
import type { Authority } from "../core/types.js";

/**
 * The default authority outside Node (browsers, web workers, edge runtimes):
 * the package's `#default-sdk` import resolves here wherever the `node`
 * condition does not apply. There is no home directory to keep a key and a
 * ledger in, so there is no default yet: callers pass an authority.
 */
export function defaultSdk(): Authority {
  throw new TemporalError(
    "NO_DEFAULT_AUTHORITY",
    "there is no default authority outside Node.js: pass `sdk` to run() (an Authority, e.g. createClient({ baseUrl }) for a Temporal Permission Service)",
  );
}
