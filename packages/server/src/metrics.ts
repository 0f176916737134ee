import type { AnchorProof } from "@temporal/agent-sdk";
import type { RequestOutcome } from "@temporal/agent-sdk/service";
import { Counter, Gauge, Histogram, Registry, type HistogramConfiguration } from "prom-client";
import { innerMap } from "./nested-map.js";
import type { ServiceStore } from "./store.js";

/** Replies mostly take well under a millisecond, so the buckets start lower than prom-client's defaults. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Tiles whose size is reported: the most recent ones appended to, so the label set stays bounded whatever runs for how long. */
const RECENT_TILES = 4;
/** The route label of a request that matched no route (404, 405, or turned away before routing): one value, not the raw path, so cardinality stays bounded. */
export const UNMATCHED_ROUTE = "unmatched";

/**
 * One (route, method, status) of the request metrics, found by three Map lookups of strings and a number the request
 * already has. prom-client builds a label object, validates it and hashes it into a new string on every `inc` and
 * `observe` (with a closure per `observe`), which took more time per request than the rest of the metrics and log
 * together; so a reply adds one to `uncounted`, which the counter takes in when it is scraped, and counts its duration
 * in its route's buckets (RequestDurations).
 */
interface RequestSeries {
  readonly labels: { readonly route: string; readonly method: string; readonly status: number };
  uncounted: number;
  readonly durations: DurationCounts;
}

/** One route's request durations: a count per bucket of LATENCY_BUCKETS (and one past the last), their sum and number. */
interface DurationCounts {
  readonly buckets: Float64Array;
  sum: number;
  count: number;
}

type HistogramSamples = Awaited<ReturnType<Histogram<"route" | "le">["get"]>>;

/**
 * The request-duration histogram, counted by the service and rendered by prom-client. Even through a child made once,
 * prom-client's `observe` builds and validates a label object, hashes it, and finds the bucket by its bound turned into
 * a string key: about 4 µs per reply in one process on the loaded 2-core machine, against 0.1-0.4 µs to count into an
 * array here. prom-client reads a histogram's samples through `getForPromString` (the text format) and `get` (JSON),
 * so both answer from these counts, in prom-client's own shape (cumulative `_bucket` samples with `le`, `_sum`, `_count`).
 */
class RequestDurations extends Histogram<"route" | "le"> {
  readonly #name: string;
  readonly #help: string;
  readonly #byRoute = new Map<string, DurationCounts>();

  constructor(configuration: HistogramConfiguration<"route" | "le">) {
    super(configuration);
    this.#name = configuration.name;
    this.#help = configuration.help;
  }

  /** The counts of `route`, made empty when first asked for. */
  countsOf(route: string): DurationCounts {
    let counts = this.#byRoute.get(route);
    if (counts === undefined) this.#byRoute.set(route, (counts = { buckets: new Float64Array(LATENCY_BUCKETS.length + 1), sum: 0, count: 0 }));
    return counts;
  }

  override async get(): Promise<HistogramSamples> {
    return this.getForPromString();
  }

  /** Called by prom-client's registry for the text format. */
  async getForPromString(): Promise<HistogramSamples> {
    const values: HistogramSamples["values"] = [];
    for (const [route, { buckets, sum, count }] of this.#byRoute) {
      let cumulative = 0;
      LATENCY_BUCKETS.forEach((le, i) => {
        cumulative += buckets[i] as number;
        values.push({ labels: { le, route }, value: cumulative, metricName: `${this.#name}_bucket` });
      });
      values.push({ labels: { le: "+Inf", route }, value: count, metricName: `${this.#name}_bucket` });
      values.push({ labels: { route }, value: sum, metricName: `${this.#name}_sum` });
      values.push({ labels: { route }, value: count, metricName: `${this.#name}_count` });
    }
    // prom-client's typings declare `type` as a numeric enum (its code writes and reads the string) and a `collect`
    // hook in this result (its code reads none there).
    return { name: this.#name, help: this.#help, type: "histogram" as unknown as HistogramSamples["type"], values, aggregator: "sum", collect: () => undefined };
  }

  override reset(): void {
    // prom-client's constructor calls reset() too, before this class's fields exist.
    if (#byRoute in this) this.#byRoute.clear();
  }
}

/** Counts one duration, in seconds, into `counts`. */
function countDuration(counts: DurationCounts, seconds: number): void {
  let bucket = 0;
  while (bucket < LATENCY_BUCKETS.length && seconds > (LATENCY_BUCKETS[bucket] as number)) bucket++;
  (counts.buckets[bucket] as number)++;
  counts.sum += seconds;
  counts.count++;
}

/**
 * The service's Prometheus metrics (docs/operations.md lists them), in a registry of its own so two services in one
 * process do not collide. Fed by the pipeline's request observer and by a wrapper around the store.
 */
export class ServiceMetrics {
  readonly registry = new Registry();
  readonly #duration = new RequestDurations({
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
  /** Route template -> method -> status -> its series; every level is bounded (routes, Node's methods, the service's statuses). */
  readonly #series = new Map<string, Map<string, Map<number, RequestSeries>>>();
  /** Tile id -> size, oldest first (Map keeps insertion order). */
  readonly #recentTiles = new Map<number, number>();

  constructor() {
    const series = this.#series;
    // Counted in `#series` per request, and added up here when scraped (prom-client's `collect`): see RequestSeries.
    new Counter({
      name: "temporal_http_requests_total",
      help: "HTTP requests answered, by route template, method and status",
      labelNames: ["route", "method", "status"] as const,
      registers: [this.registry],
      collect() {
        for (const byMethod of series.values())
          for (const byStatus of byMethod.values())
            for (const one of byStatus.values()) {
              if (one.uncounted === 0) continue;
              this.inc(one.labels, one.uncounted);
              one.uncounted = 0;
            }
      },
    });
  }

  /** Counts one reply: `method` is Node's, which its parser limits to a fixed set. */
  observeRequest(method: string, outcome: RequestOutcome): void {
    const route = outcome.route ?? UNMATCHED_ROUTE;
    const one = this.#seriesOf(route, method, outcome.status);
    one.uncounted++;
    countDuration(one.durations, outcome.durationMs / 1000);
    if (outcome.rateLimited !== undefined) this.#rateLimited.inc({ limit: outcome.rateLimited });
  }

  #seriesOf(route: string, method: string, status: number): RequestSeries {
    const byStatus = innerMap(innerMap(this.#series, route), method);
    let one = byStatus.get(status);
    if (one === undefined) byStatus.set(status, (one = { labels: { route, method, status }, uncounted: 0, durations: this.#duration.countsOf(route) }));
    return one;
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
        append: (entries, signing, joining) => time("append", () => log.append(entries, signing, joining)).then((proofs) => this.#appended(proofs)),
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
