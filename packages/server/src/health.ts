import type { ServiceAuthority, ServiceStore, StoreHealth } from "./store.js";

/** A store that answers no health check within this is reported unreachable, so a hung database cannot hang the probe. */
const CHECK_TIMEOUT_MS = 2_000;
/** Probes arriving within this of the last check get its answer: a load balancer probing often never makes the store work harder. */
export const CHECK_REUSE_MS = 1_000;
/** What `Retry-After` says on a 503 from /readyz. */
export const NOT_READY_RETRY_AFTER_S = 5;

/** The answer of `GET /readyz`. */
export interface Readiness {
  readonly ready: boolean;
  /** Why not, when not ready. */
  readonly reason?: string;
  readonly store: StoreHealth;
}

/**
 * Whether the service can do its work: the store is reachable with its migrations applied (`store.health`) and does
 * not refuse every call (`log.failure`, e.g. `LOG_KEY_UNKNOWN` on a database a newer key signed), or, for
 * a store without a health check such as the home's files, the authority opened it (a damaged home is not ready).
 * Checks at most once per second, however often it is asked.
 */
export function readinessCheck(authority: ServiceAuthority, store: ServiceStore | undefined): () => Promise<Readiness> {
  const kind = store?.log.kind ?? "file";
  return reusedFor(CHECK_REUSE_MS, check);

  async function check(): Promise<Readiness> {
    if (authority.closed) return notReady("the service is shutting down", { kind, reachable: true, migrations: "unknown" });
    const health = store?.health;
    const reported = health === undefined ? await openedHealth() : await withTimeout(health.call(store));
    // A store that refuses every call (e.g. a database log signed by a key this node lacks) answers pings all the same.
    const blocked = store?.log.failure;
    if (blocked !== undefined) return notReady(`the ${reported.kind} store refuses every call: ${describe(blocked)}`, reported);
    if (authority.failed) return notReady("a write to the store failed and could not be undone; restart the service", reported);
    if (!reported.reachable) return notReady(`the ${reported.kind} store is not reachable${reported.detail === undefined ? "" : `: ${reported.detail}`}`, reported);
    if (reported.migrations !== "applied") return notReady(`the ${reported.kind} store's migrations are ${reported.migrations}`, reported);
    return { ready: true, store: reported };
  }

  async function openedHealth(): Promise<StoreHealth> {
    const started = performance.now();
    try {
      // Resolved once opened, so this is cheap after the start; it retries (and re-verifies) only while opening fails.
      await authority.ready();
      return { kind, reachable: true, migrations: "applied", latency_ms: roundMs(performance.now() - started) };
    } catch (error) {
      return { kind, reachable: false, migrations: "unknown", detail: describe(error) };
    }
  }

  async function withTimeout(pending: Promise<StoreHealth>): Promise<StoreHealth> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<StoreHealth>((resolve) => {
      timer = setTimeout(() => resolve({ kind, reachable: false, migrations: "unknown", detail: `no answer to the health check within ${CHECK_TIMEOUT_MS} ms` }), CHECK_TIMEOUT_MS);
    });
    try {
      return await Promise.race([pending.catch((error: unknown): StoreHealth => ({ kind, reachable: false, migrations: "unknown", detail: describe(error) })), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}

/**
 * `check`, called at most once per `ms`: calls within `ms` of the last one get its promise (its answer or its
 * failure), so however often a probe or a client asks, the store is asked at most once per `ms`.
 */
export function reusedFor<T>(ms: number, check: () => Promise<T>): () => Promise<T> {
  let last: { readonly at: number; readonly answer: Promise<T> } | undefined;
  return () => {
    const now = performance.now();
    if (last === undefined || now - last.at >= ms) last = { at: now, answer: check() };
    return last.answer;
  };
}

function notReady(reason: string, store: StoreHealth): Readiness {
  return { ready: false, reason, store };
}

function describe(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  return typeof code === "string" ? `${code}: ${message}` : message;
}

function roundMs(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
