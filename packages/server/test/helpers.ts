import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import type { Tier } from "@temporal/agent-sdk";
import { DEFAULT_CONFIG, createApiKey, createService, type ServiceConfig, type TemporalService } from "../src/index.js";
import { createTestService } from "../src/testing.js";

const cleanups: (() => Promise<void>)[] = [];

// Registered when a test file imports this module, so it runs after that file's tests.
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A fresh directory under the OS temp dir, removed when the test file finishes. */
export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "temporal-server-test-"));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

export const ALLOWED_ORIGINS = ["https://app.example.com", "http://localhost:5173", "https://example.org", "http://intranet.example"] as const;

export interface RunningService {
  readonly url: string;
  readonly home: string;
  readonly service: TemporalService;
  /** One API key per tier (public has none). */
  readonly keys: Readonly<Record<Exclude<Tier, "public">, string>>;
  readonly config: ServiceConfig;
}

/**
 * Starts a real service on 127.0.0.1, port 0, with a fresh home, the four
 * test origins and one key per tier; stopped when the test file finishes.
 */
export async function startService(overrides: Partial<ServiceConfig> = {}, options: { clock?: () => number } = {}): Promise<RunningService> {
  const home = await tempDir();
  const now = new Date(0);
  const created = (["developer", "managed", "quantum", "enterprise"] as const).map((tier) => [tier, createApiKey(tier, `test ${tier}`, now)] as const);
  const config: ServiceConfig = {
    ...DEFAULT_CONFIG,
    cors: { origins: [...ALLOWED_ORIGINS] },
    keys: created.map(([, { record }]) => record),
    rate_limit: { per_ip: { burst: 1e9, per_second: 1e9 }, per_key: { burst: 1e9, per_second: 1e9 } },
    ...overrides,
  };
  const service = createService({ home, config, ...(options.clock === undefined ? {} : { clock: options.clock }) });
  const url = await service.listen({ host: "127.0.0.1", port: 0 });
  cleanups.push(() => service.close());
  const keys = Object.fromEntries(created.map(([tier, { key }]) => [tier, key])) as Record<Exclude<Tier, "public">, string>;
  return { url, home, service, keys, config };
}

/** A service a suite runs against, real or in-process, reached through `fetch`. */
export interface ServiceUnderTest {
  /** The base URL to give the client. */
  readonly url: string;
  /** One API key per tier (public has none). */
  readonly keys: Readonly<Record<Exclude<Tier, "public">, string>>;
  /** Reaches this service: the global fetch for a real one. */
  readonly fetch: (url: string, init?: RequestInit) => Promise<Response>;
  /** The kind of log store `clockchain/status` reports. */
  readonly storeKind: "file" | "memory";
}

/** How a suite gets a service of one kind: the same config overrides and, when `at` is given, a clock pinned there. */
export interface ServiceKind {
  readonly name: string;
  start(overrides?: Partial<ServiceConfig>, options?: { at?: number }): Promise<ServiceUnderTest>;
}

export const REAL_SERVICE: ServiceKind = {
  name: "a real service",
  async start(overrides = {}, { at } = {}) {
    const running = await startService(overrides, at === undefined ? {} : { clock: () => at });
    return { url: running.url, keys: running.keys, fetch: (url, init) => fetch(url, init), storeKind: "file" };
  },
};

/** createTestService with what startService sets: the test origins and no rate limits (its keys are its own). */
export const STAND_IN: ServiceKind = {
  name: "the in-process stand-in",
  async start(overrides = {}, { at } = {}) {
    const { quality = null, carbon = null, keys: _keys, ...config } = { cors: { origins: [...ALLOWED_ORIGINS] }, ...overrides };
    const service = createTestService({ ...(at === undefined ? {} : { now: at }), quality, carbon, config });
    cleanups.push(() => service.close());
    return { url: service.baseUrl, keys: service.apiKeys, fetch: service.fetch, storeKind: "memory" };
  },
};
