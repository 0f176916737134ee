import { TemporalError } from "../core/errors.js";
import type { Authority } from "../core/types.js";
import { defaultHome } from "./home.js";
import { createLocalAuthority, type LocalAuthority } from "./local-authority.js";

const authorities = new Map<string, LocalAuthority>();

/**
 * The authority compiled missions use when given none: one local authority
 * per process for the default home. `TEMPORAL_URL` is reserved for the HTTP
 * client of the service; until that exists, setting it is an error rather
 * than a silent fallback to local receipts.
 */
export function defaultSdk(): Authority {
  const url = process.env.TEMPORAL_URL;
  if (url) {
    throw new TemporalError("REMOTE_UNSUPPORTED", `TEMPORAL_URL is set to ${JSON.stringify(url)}, but this version of @temporal/agent-sdk has no HTTP client yet; unset it to use the local authority`);
  }
  const home = defaultHome();
  let authority = authorities.get(home);
  if (authority === undefined || authority.closed || authority.failed) {
    authority = createLocalAuthority({ home });
    authorities.set(home, authority);
  }
  return authority;
}
