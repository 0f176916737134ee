import type { AnchorProof } from "@temporal/agent-sdk";
import type { RequestOutcome } from "@temporal/agent-sdk/service";
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { ServiceStore } from "./store.js";

/** Replies mostly take well under a millisecond, so the buckets start lower than prom-client's defaults. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Tiles whose size is reported: the most recent ones appended to, so the label set stays bounded whatever runs for how long. */
const RECENT_TILES = 4;
/** The route label of a request that matched no route (404, 405, or turned away before routing): one value, not the raw path, so cardinality stays bounded. */
export const UNMATCHED_ROUTE = "unmatched";

/**
 * The service's Prometheus metrics (docs/operations.md lists them), in a registry of its own so two services in one
 * process do not collide. Fed by the pipeline's request observer and by a wrapper around the store.
 */
export class ServiceMetrics {
  readonly registry = new Registry();
  readonly #requests = new Counter({
    name: "temporal_http_requests_total",
    help: "HTTP requests answered, by route template, method and status",
    labelNames: ["route", "method", "status"] as const,
    registers: [this.registry],
  });
  readonly #duration = new Histogram({
    name: "temporal_http_request_duration_seconds",
    help: "Time from a request's arrival to its reply being handed to Node, by route template",
    labelNames: ["route"] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  readonly #rateLimited = new Counter({
    name: "temporal_rate_limit_rejections_total",
    help: "Requests answered 429 RATE_LIMITED, by the limit that refused them (per_ip or per_key)",
    labelNames: ["limit"] as const,
    registers: [this.registry],
  });
  readonly #store = new Histogram({
    name: "temporal_store_operation_duration_seconds",
    help: "Time of calls to the store (clockchain log and challenges), by operation; failed calls included",
    labelNames: ["operation"] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  readonly #anchors = new Counter({
    name: "temporal_anchors_appended_total",
    help: "Anchors acknowledged after a durable append to the store by this service (a repeated anchor of the same receipt counts again)",
    registers: [this.registry],
  });
  readonly #tileSize = new Gauge({
    name: "temporal_tile_size_leaves",
    help: `Leaves in the tile's tree as last seen by this service, for the ${RECENT_TILES} tiles it appended to most recently`,
    labelNames: ["tile"] as const,
    registers: [this.registry],
  });
  /** Tile id -> size, oldest first (Map keeps insertion order). */
  readonly #recentTiles = new Map<number, number>();

  /** Counts one reply: `method` is Node's, which its parser limits to a fixed set. */
  observeRequest(method: string, outcome: RequestOutcome): void {
    const route = outcome.route ?? UNMATCHED_ROUTE;
    this.#requests.inc({ route, method, status: outcome.status });
    this.#duration.observe({ route }, outcome.durationMs / 1000);
    if (outcome.rateLimited !== undefined) this.#rateLimited.inc({ limit: outcome.rateLimited });
  }

  /** The store with each call timed (opening and closing are not: they are not per-request work). */
  instrumentStore(store: ServiceStore): ServiceStore {
    const { log, challenges, health } = store;
    const time = <T>(operation: string, call: () => Promise<T>): Promise<T> => {
      const end = this.#store.startTimer({ operation });
      return call().finally(() => end());
    };
    return {
      ...(health === undefined ? {} : { health: () => health.call(store) }),
      log: {
        get kind() {
          return log.kind;
        },
        get failure() {
          return log.failure;
        },
        open: (key, previousKeys) => log.open(key, previousKeys),
        append: (entries, signing) => time("append", () => log.append(entries, signing)).then((proofs) => this.#appended(proofs)),
        proof: (receiptHash) => time("proof", () => log.proof(receiptHash)),
        list: (tileId) => time("list", () => log.list(tileId)),
        page: (tileId, offset, limit) => time("page", () => log.page(tileId, offset, limit)),
        consistencyProof: (tileId, first, second) => time("consistency_proof", () => log.consistencyProof(tileId, first, second)),
        headHashAt: (sequence) => time("head_hash", () => log.headHashAt(sequence)),
        status: () => time("status", () => log.status()),
        close: () => log.close(),
      },
      challenges: {
        add: (nonce, expiresUnixMs, nowUnixMs) => time("challenge_add", () => challenges.add(nonce, expiresUnixMs, nowUnixMs)),
        take: (nonce, nowUnixMs) => time("challenge_take", () => challenges.take(nonce, nowUnixMs)),
        close: () => challenges.close(),
      },
    };
  }

  /** The Prometheus text exposition of every metric. */
  async text(): Promise<string> {
    return this.registry.metrics();
  }

  #appended(proofs: AnchorProof[]): AnchorProof[] {
    this.#anchors.inc(proofs.length);
    for (const { tile_id, tree_size } of proofs) {
      const known = this.#recentTiles.get(tile_id);
      if (known !== undefined && known >= tree_size) continue;
      // Re-inserted, so the tile appended to last is the newest.
      this.#recentTiles.delete(tile_id);
      this.#recentTiles.set(tile_id, tree_size);
      this.#tileSize.set({ tile: tile_id }, tree_size);
    }
    while (this.#recentTiles.size > RECENT_TILES) {
      const oldest = this.#recentTiles.keys().next().value as number;
      this.#recentTiles.delete(oldest);
      this.#tileSize.remove({ tile: oldest });
    }
    return proofs;
  }
}
