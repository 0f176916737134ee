import type { IncomingMessage, ServerResponse } from "node:http";
import { commonHeaders, jsonContentType, type HeaderList, type RequestObserver, type RequestOutcome } from "@temporal/agent-sdk/service";
import { NOT_READY_RETRY_AFTER_S, type Readiness } from "./health.js";
import type { ServiceMetrics } from "./metrics.js";
import { writeReply } from "./reply.js";
import { requestIdOf, type RequestLog } from "./request-log.js";

const PROMETHEUS_TYPE = "text/plain; version=0.0.4; charset=utf-8";

/**
 * The operators' endpoints, served beside the API and outside it: no API key, no rate limit, no CORS, so a load
 * balancer or Prometheus can always reach them (docs/operations.md).
 */
const ENDPOINTS = ["/healthz", "/readyz", "/metrics"] as const;
type Endpoint = (typeof ENDPOINTS)[number];

/** A reply of one of the operators' endpoints. */
interface Answer {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
  readonly headers?: readonly string[];
}

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
    void this.#serveEndpoint(request, response, path as Endpoint);
    return true;
  }

  /** From now on /readyz answers 503, so load balancers stop sending requests while those in flight finish. */
  shutDown(): void {
    this.#closing = true;
  }

  /**
   * Told of every reply of the API pipeline just before it is sent: adds the request id to its headers, counts it
   * in the metrics and logs it. One call per reply, and the id is a local, so nothing is kept on the request.
   */
  readonly observer: RequestObserver = (request, outcome, headers) => this.#record(request as IncomingMessage, outcome, headers);

  #record(request: IncomingMessage, outcome: RequestOutcome, headers: HeaderList): void {
    this.#options.metrics.observeRequest(request.method ?? "", outcome);
    const { log } = this.#options;
    if (log === undefined) return;
    const id = requestIdOf(request);
    headers.push("x-request-id", id);
    log.reply(id, request.method, outcome);
  }

  /** Answers one of the operators' endpoints: not the hot path, so plain async/await. */
  async #serveEndpoint(request: IncomingMessage, response: ServerResponse, path: Endpoint): Promise<void> {
    const started = performance.now();
    let answer: Answer;
    if (request.method !== "GET" && request.method !== "HEAD") {
      const body = JSON.stringify({ error: { code: "METHOD_NOT_ALLOWED", message: `${request.method ?? ""} is not allowed at ${path}; use GET, HEAD` } });
      answer = { status: 405, contentType: "application/json", body, headers: ["allow", "GET, HEAD"] };
    } else {
      try {
        answer = await this.#answer(path);
      } catch (error) {
        this.#options.onUnexpectedError(error);
        answer = {
          status: 500,
          contentType: "application/json",
          body: JSON.stringify({ error: { code: "INTERNAL_ERROR", message: "the service failed unexpectedly; the error was logged" } }),
        };
      }
    }
    const { status, contentType, body } = answer;
    const headers = commonHeaders();
    if (contentType === "application/json") jsonContentType(headers);
    else headers.push("content-type", contentType);
    headers.push(...(answer.headers ?? []));
    this.#record(request, { route: path, status, durationMs: performance.now() - started, tier: "public", keyId: undefined, rateLimited: undefined, errorCode: undefined }, headers);
    writeReply(response, status, headers, body, request.method === "HEAD" ? "head" : "utf8");
  }

  async #answer(path: Endpoint): Promise<Answer> {
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
