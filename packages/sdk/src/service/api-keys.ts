import { bytesToBase64Url } from "../core/encoding.js";
import { sha256Hex, type Tier } from "../core/index.js";

/** An API key as the config keeps it: only its SHA-256, never the key. */
export interface ApiKeyRecord {
  readonly id: string;
  readonly sha256: string;
  readonly tier: Tier;
  readonly label?: string;
  readonly created_utc: string;
}

const KEY_PREFIX = "tps_";

/** SHA-256 of the key's UTF-8, as hex. */
export function hashApiKey(key: string): string {
  return sha256Hex(key);
}

/** A new random key (shown to the operator once) and the record that stores its hash. */
export function createApiKey(tier: Tier, label: string | undefined, now: Date): { key: string; record: ApiKeyRecord } {
  const key = KEY_PREFIX + bytesToBase64Url(crypto.getRandomValues(new Uint8Array(32)));
  return { key, record: apiKeyRecord(key, tier, label, now) };
}

/** The record that stores the hash of `key`. */
export function apiKeyRecord(key: string, tier: Tier, label: string | undefined, now: Date): ApiKeyRecord {
  const sha256 = hashApiKey(key);
  return { id: sha256.slice(0, 12), sha256, tier, ...(label === undefined ? {} : { label }), created_utc: now.toISOString() };
}

/** Who presented a key: its id (for the per-key rate limit) and its tier. */
export interface Caller {
  readonly id: string;
  readonly tier: Tier;
}

/** Looks up the tier of a presented key by its hash, so the config never needs the keys themselves. */
export class KeyRing {
  readonly #byHash = new Map<string, Caller>();
  /**
   * Keys already seen to match, so a client that sends its key on every request is not hashed every time.
   * Only matching keys are kept, so this holds at most one entry per configured key whatever clients send.
   */
  readonly #matched = new Map<string, Caller>();

  constructor(records: readonly ApiKeyRecord[]) {
    for (const { sha256, id, tier } of records) this.#byHash.set(sha256, { id, tier });
  }

  /** The caller of a key that already matched, without hashing; undefined for any other string. */
  known(key: string): Caller | undefined {
    return this.#matched.get(key);
  }

  lookup(key: string): Caller | undefined {
    const known = this.known(key);
    if (known !== undefined) return known;
    const caller = this.#byHash.get(hashApiKey(key));
    if (caller !== undefined) this.#matched.set(key, caller);
    return caller;
  }
}
