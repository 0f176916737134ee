import { TemporalRangeError, TemporalTypeError } from "../core/errors.js";
import type { Authority } from "../core/types.js";
import { createClient, type TemporalClient } from "../remote/client.js";
import { defaultHome } from "./home.js";
import { createLocalAuthority, type LocalAuthority } from "./local-authority.js";

const authorities = new Map<string, LocalAuthority>();
const clients = new Map<string, TemporalClient>();

/**
 * The authority compiled missions use when given none. With `TEMPORAL_URL`
 * set, the HTTP client of the service there (with `TEMPORAL_API_KEY` as its
 * bearer token, if set), one per URL and key; otherwise one local authority
 * per process for the default home. Both variables are read at each call.
 */
export function defaultSdk(): Authority {
  const url = process.env.TEMPORAL_URL;
  if (url) return remoteSdk(url, process.env.TEMPORAL_API_KEY || undefined);
  const home = defaultHome();
  let authority = authorities.get(home);
  if (authority === undefined || authority.closed || authority.failed) {
    authority = createLocalAuthority({ home });
    authorities.set(home, authority);
  }
  return authority;
}

function remoteSdk(url: string, apiKey: string | undefined): TemporalClient {
  const key = JSON.stringify([url, apiKey ?? null]);
  let client = clients.get(key);
  if (client === undefined || client.closed) {
    client = createRemote(url, apiKey);
    clients.set(key, client);
  }
  return client;
}

function createRemote(url: string, apiKey: string | undefined): TemporalClient {
  try {
    return createClient(apiKey === undefined ? { baseUrl: url } : { baseUrl: url, apiKey });
  } catch (error) {
    // Name the variable to fix; the key's value is never echoed.
    if (error instanceof TemporalTypeError || error instanceof TemporalRangeError) {
      const variable = error.code === "INVALID_BASE_URL" ? "TEMPORAL_URL" : "TEMPORAL_API_KEY";
      const Class = error instanceof TemporalTypeError ? TemporalTypeError : TemporalRangeError;
      throw new Class(error.code, `${variable} is not usable by defaultSdk(): ${error.message}`);
    }
    throw error;
  }
}
