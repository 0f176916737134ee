/** Several real `temporal-service` processes on one throw-away PostgreSQL database, and clients of them, for the tests of issue 16. */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { contextAt, createTsaeRequest, sha256Hex, type AnchorProof, type Challenge, type Receipt } from "@temporal/agent-sdk";
import { createSigningKeyFile } from "@temporal/agent-sdk/node";
import { createApiKey } from "@temporal/agent-sdk/service";
import type { TestPostgres } from "@temporal/store-postgres/testing";
import { tempDir } from "./helpers.js";
import { startServiceProcess, type ServiceProcess } from "./service-process.js";

const UNLIMITED = { burst: 1e9, per_second: 1e9 };

/** What every node of one cluster shares: the database, the key file and a config with one enterprise API key. */
export interface Cluster {
  readonly storeUrl: string;
  readonly apiKey: string;
  /** Starts node `name` on its own home (nothing in it is used but the lock-free config) and a free port. */
  start(name: string): Promise<ServiceProcess>;
}

export async function clusterOn(postgres: TestPostgres): Promise<Cluster> {
  const dir = await tempDir();
  const storeUrl = await postgres.createDatabase();
  const keyFile = join(dir, "signing-key.pem");
  await createSigningKeyFile(keyFile);
  const { key, record } = createApiKey("enterprise", "cluster test", new Date());
  const config = join(dir, "service.json");
  await writeFile(config, JSON.stringify({ keys: [record], rate_limit: { per_ip: UNLIMITED, per_key: UNLIMITED } }));
  return {
    storeUrl,
    apiKey: key,
    start: (name) => startServiceProcess(["--home", join(dir, name), "--config", config, "--port", "0", "--store", storeUrl, "--signing-key", keyFile, "--node-id", name]),
  };
}

/** An answer other than the one expected: its status, error code and Retry-After. */
export class Refused extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly retryAfter: string | null,
  ) {
    super(`HTTP ${status} ${code}`);
  }
}

/**
 * A JSON API client of one node; a network failure (a node killed) rejects with fetch's TypeError. `clock` times the
 * requests it issues, so a test can keep them all in one tile (a tile is a UTC day).
 */
export function client(url: string, apiKey: string, clock: () => number = Date.now) {
  const call = async <T>(method: "GET" | "POST", path: string, expected: number, body?: unknown): Promise<T> => {
    const response = await fetch(`${url}/api/v1/${path}`, {
      method,
      // A connection per request: a kept-alive one that the node closes as idle just as a request is sent on it fails
      // that request (ECONNRESET, "other side closed"), a race a loaded machine makes likely and no node failure.
      headers: { authorization: `Bearer ${apiKey}`, connection: "close", ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(20_000),
    });
    const reply = (await response.json()) as T & { error?: { code: string } };
    if (response.status !== expected) throw new Refused(response.status, reply.error?.code ?? "", response.headers.get("retry-after"));
    return reply;
  };
  return {
    get: <T>(path: string) => call<T>("GET", path, 200),
    issue: (tag: string, challenge?: Challenge) => call<Receipt>("POST", "security/tsae", 201, { ...tsaeRequest(tag, clock()), ...(challenge === undefined ? {} : { challenge }) }),
    anchor: (receipt: Receipt) => call<AnchorProof>("POST", "clockchain/anchor", 200, { receipt }),
  };
}

export type Client = ReturnType<typeof client>;

/** A request for a new action each time, so every anchor is a new leaf. */
function tsaeRequest(tag: string, unixMs: number) {
  return createTsaeRequest(contextAt(unixMs, { zone: 1 }), { scope: "test.cluster.v1", action_hash_hex: sha256Hex(tag) });
}
