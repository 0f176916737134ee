import type { IncomingMessage, ServerResponse } from "node:http";
import { commonHeaders, jsonHeaders, type RequestObserver, type RequestOutcome, type Transport } from "@temporal/agent-sdk/service";
import { NOT_READY_RETRY_AFTER_S, type Readiness } from "./health.js";
import type { ServiceMetrics } from "./metrics.js";
import type { RequestLog } from "./request-log.js";

const PROMETHEUS_TYPE = "text/plain; version=0.0.4; charset=utf-8";

/**
 * The operators' endpoints, served beside the API and outside it: no API key, no rate limit, no CORS, so a load
 * balancer or Prometheus can always reach them (docs/operations.md).
 */
const ENDPOINTS = ["/healthz", "/readyz", "/metrics"] as const;
type Endpoint = (typeof ENDPOINTS)[number];

export interface OperationsOptions {
  readonly metrics: ServiceMetrics;
  readonly readiness: () => Promise<Readiness>;
  readonly log: RequestLog | undefined;
  readonly onUnexpectedError: (error: unknown) => void;
}

/** Health, readiness and metrics, plus what every reply gets: its request id, its metrics and its log line. */
export class Operations {
  readonly #options: OperationsOptions;
  #closing = false;

  constructor(options: OperationsOptions) {
    this.#options = options;
  }

  /** Answers the operators' endpoints; false for any other request, which is the API's. */
  serve(request: IncomingMessage, response: ServerResponse): boolean {
    const url = request.url ?? "/";
    if (url.startsWith("/api/") || url.startsWith("/v1/")) return false;
    const query = url.indexOf("?");
    const path = query === -1 ? url : url.slice(0, query);
    if (!(ENDPOINTS as readonly string[]).includes(path)) return false;
    const started = performance.now();
    const reply = (status: number, contentType: string, body: string, extra: readonly string[] = []) => {
      const headers = commonHeaders();
      if (contentType === "application/json") jsonHeaders(headers, body);
      else headers.push("content-type", contentType, "content-length", String(Buffer.byteLength(body)));
      headers.push(...extra);
      this.#send(response, status, headers, request.method === "HEAD" ? "" : body);
      this.#report(request, { route: path, status, durationMs: performance.now() - started, tier: "public", keyId: undefined, rateLimited: undefined, errorCode: undefined });
    };
    if (request.method !== "GET" && request.method !== "HEAD") {
      const body = JSON.stringify({ error: { code: "METHOD_NOT_ALLOWED", message: `${request.method ?? ""} is not allowed at ${path}; use GET, HEAD` } });
      reply(405, "application/json", body, ["allow", "GET, HEAD"]);
      return true;
    }
    this.#answer(path as Endpoint).then(
      ({ status, contentType, body, headers }) => reply(status, contentType, body, headers),
      (error: unknown) => {
        this.#options.onUnexpectedError(error);
        reply(500, "application/json", JSON.stringify({ error: { code: "INTERNAL_ERROR", message: "the service failed unexpectedly; the error was logged" } }));
      },
    );
    return true;
  }

  /** From now on /readyz answers 503, so load balancers stop sending requests while those in flight finish. */
  shutDown(): void {
    this.#closing = true;
  }

  /** Told of every reply the API pipeline sends. */
  readonly observer: RequestObserver = (request, outcome) => this.#report(request as IncomingMessage, outcome);

  /** `base` with the request id added to every reply. */
  transport(base: Transport<IncomingMessage, ServerResponse>): Transport<IncomingMessage, ServerResponse> {
    return { ...base, send: (response, status, headers, body) => this.#send(response, status, headers, body) };
  }

  #send(response: ServerResponse, status: number, headers: string[], body: string | undefined): void {
    const { log } = this.#options;
    if (log !== undefined) headers.push("x-request-id", log.requestId(response.req));
    response.writeHead(status, headers).end(body);
  }

  #report(request: IncomingMessage, outcome: RequestOutcome): void {
    this.#options.metrics.observeRequest(request.method ?? "", outcome);
    this.#options.log?.reply(request, outcome);
  }

  async #answer(path: Endpoint): Promise<{ status: number; contentType: string; body: string; headers?: readonly string[] }> {
    switch (path) {
      case "/healthz":
        return { status: 200, contentType: "application/json", body: '{"status":"ok"}' };
      case "/readyz": {
        const { ready, reason, store } = this.#closing ? { ...(await this.#options.readiness()), ready: false, reason: "the service is shutting down" } : await this.#options.readiness();
        if (ready) return { status: 200, contentType: "application/json", body: JSON.stringify({ status: "ready", store }) };
        return { status: 503, contentType: "application/json", body: JSON.stringify({ status: "not_ready", reason, store }), headers: ["retry-after", String(NOT_READY_RETRY_AFTER_S)] };
      }
      case "/metrics":
        return { status: 200, contentType: PROMETHEUS_TYPE, body: await this.#options.metrics.text() };
    }
  }
}

const STORE_HEALTH_SCHEMA = {
  type: "object",
  required: ["kind", "reachable", "migrations"],
  properties: {
    kind: { type: "string" },
    reachable: { type: "boolean" },
    migrations: { enum: ["applied", "pending", "unknown"] },
    latency_ms: { type: "number" },
    detail: { type: "string" },
  },
};

/** The operators' endpoints in the OpenAPI document: at the root, beside the API's prefixes, with no security. */
export const OPERATIONS_OPENAPI_PATHS: Readonly<Record<string, unknown>> = {
  "/healthz": operation("healthz", "The process is alive (for a liveness probe); touches no store", {
    200: json("Alive", { type: "object", required: ["status"], properties: { status: { const: "ok" } } }),
  }),
  "/readyz": operation("readyz", "The store is reachable and its migrations applied (for a load balancer's readiness probe); checked at most once a second", {
    200: json("Ready", { type: "object", required: ["status", "store"], properties: { status: { const: "ready" }, store: STORE_HEALTH_SCHEMA } }),
    503: {
      ...json("Not ready; the reason says why", {
        type: "object",
        required: ["status", "reason", "store"],
        properties: { status: { const: "not_ready" }, reason: { type: "string" }, store: STORE_HEALTH_SCHEMA },
      }),
      headers: { "Retry-After": { schema: { type: "integer" }, description: "Seconds before probing again" } },
    },
  }),
  "/metrics": operation("metrics", "Prometheus metrics in the text exposition format (docs/operations.md); keep it off the public network", {
    200: { description: "Prometheus text format 0.0.4", content: { "text/plain": { schema: { type: "string" } } } },
  }),
};

function operation(operationId: string, summary: string, responses: Record<number, unknown>): Record<string, unknown> {
  return { servers: [{ url: "/" }], get: { operationId, summary, "x-tier": "none: no API key, no rate limit", security: [{}], responses } };
}

function json(description: string, schema: unknown): { description: string; content: Record<string, { schema: unknown }> } {
  return { description, content: { "application/json": { schema } } };
}
