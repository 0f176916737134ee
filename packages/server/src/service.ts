import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { KeyRing, type Caller } from "./api-keys.js";
import { DEFAULT_CONFIG, type ServiceConfig } from "./config.js";
import { HttpError } from "./http-error.js";
import { API_PREFIXES, openApiDocument } from "./openapi.js";
import { RateLimiter } from "./rate-limit.js";
import { addHeaders, commonHeaders, rejectMalformedRequest, sendError, sendJson, type HeaderList } from "./reply.js";
import { readJsonBody } from "./request-body.js";
import { pathOf, queryOf, routingPath } from "./request-target.js";
import { requestValidators, type RequestValidator } from "./request-validation.js";
import { ROUTES, type Route, type RouteContext, type RouteInput } from "./routes.js";
import { httpErrorFromSdk } from "./sdk-errors.js";
import { carbonReader, qualityReader } from "./sources.js";
import { serviceAuthority, type ServiceAuthority, type ServiceStore } from "./store.js";
import type { Signer } from "@temporal/agent-sdk";
import { tierAllows } from "./tiers.js";

export const BODY_LIMIT_BYTES = 64 * 1024;

export interface ServiceOptions {
  /** Where the file store keeps its ledger and challenges, and the file signer its key (each unused when replaced below). */
  readonly home: string;
  readonly config?: ServiceConfig;
  /** Replaces the embedded file store (the ledger and challenges in `home`). */
  readonly store?: ServiceStore;
  /** Replaces the key file in `home`. */
  readonly signer?: Signer;
  /** Service time in Unix ms; defaults to `Date.now`. */
  readonly clock?: () => number;
  /** Where unexpected errors (answered 500) are reported; defaults to stderr. */
  readonly onUnexpectedError?: (error: unknown) => void;
}

export interface TemporalService {
  /** The Node HTTP server; `listen` starts it. */
  readonly server: Server;
  /** The SDK authority the handlers use, composed of the store and the signer. */
  readonly authority: ServiceAuthority;
  /** Starts listening; resolves with the base URL, for example `http://127.0.0.1:8787`. */
  listen(options: { host: string; port: number }): Promise<string>;
  /** Stops accepting, lets requests in flight finish, then closes the authority and its store (every anchor is durable once acknowledged). Idempotent. */
  close(): Promise<void>;
}

/** A route with its request validators, compiled once and shared by both path prefixes. */
interface Endpoint {
  readonly route: Route;
  readonly validateQuery: RequestValidator | undefined;
  readonly validateBody: RequestValidator | undefined;
}

const VERSION = (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }).version;
const PREFLIGHT_HEADERS = {
  "access-control-allow-methods": "GET, POST, OPTIONS",
  "access-control-allow-headers": "Content-Type, Authorization",
  "access-control-max-age": "600",
};
const CLOSING_HEADERS = { connection: "close", "retry-after": "1" };

/** Builds the service: routes at `/api/v1/...` and `/v1/...`, CORS, tiers, rate limits and one error shape. */
export function createService(options: ServiceOptions): TemporalService {
  const config = options.config ?? DEFAULT_CONFIG;
  const clock = options.clock ?? Date.now;
  const authority = serviceAuthority({ home: options.home, store: options.store, signer: options.signer, clock, authorityName: config.authority_name ?? undefined });
  const keys = new KeyRing(config.keys);
  const origins = new Set(config.cors.origins);
  const perIp = new RateLimiter(config.rate_limit.per_ip);
  const perKey = new RateLimiter(config.rate_limit.per_key);
  const reportUnexpected = options.onUnexpectedError ?? ((error: unknown) => console.error("temporal-service: unexpected error:", error));
  const openapi = openApiDocument(ROUTES, VERSION);
  const context: RouteContext = {
    authority,
    clock,
    quality: qualityReader(config.quality, clock()),
    carbon: carbonReader(config.carbon),
    challengeTtlMs: config.challenge_ttl_ms,
    openapi: () => openapi,
  };
  const validators = requestValidators();
  /** Path (with either prefix) -> method -> endpoint. */
  const table = new Map<string, Map<string, Endpoint>>();
  for (const route of ROUTES) {
    const endpoint: Endpoint = {
      route,
      validateQuery: route.query === undefined ? undefined : validators.query(route.query),
      validateBody: route.body === undefined ? undefined : validators.body(route.body),
    };
    for (const prefix of API_PREFIXES) {
      const path = prefix + route.path;
      if (!table.has(path)) table.set(path, new Map());
      table.get(path)?.set(route.method, endpoint);
    }
  }

  let closing: Promise<void> | undefined;
  const server = createServer(serve);
  server.on("clientError", rejectMalformedRequest);

  function serve(request: IncomingMessage, response: ServerResponse): void {
    const headers = commonHeaders();
    const fail = (error: unknown) => sendError(response, headers, toHttpError(error, reportUnexpected));
    try {
      const receivedMs = clock();
      const endpoint = admit(request, response, headers, receivedMs);
      if (endpoint === undefined) return;
      if (endpoint.route.method === "GET") {
        const query = queryOf(request.url as string);
        endpoint.validateQuery?.(query);
        respond(response, headers, endpoint.route, { query, body: undefined, receivedMs }, fail);
        return;
      }
      readJsonBody(request, BODY_LIMIT_BYTES, (error, body) => {
        if (error !== undefined) {
          fail(error);
          return;
        }
        try {
          endpoint.validateBody?.(body);
          respond(response, headers, endpoint.route, { query: {}, body, receivedMs }, fail);
        } catch (thrown) {
          fail(thrown);
        }
      });
    } catch (error) {
      fail(error);
    }
  }

  /** Runs a route and sends its result. Most routes answer synchronously, without a promise per request; those that touch the store or a source return one. */
  function respond(response: ServerResponse, headers: HeaderList, route: Route, input: RouteInput, fail: (error: unknown) => void): void {
    const result = route.handle(input, context);
    const serialize = route.serialize ?? JSON.stringify;
    if (result instanceof Promise) result.then((value) => sendJson(response, route.status, headers, serialize(value)), fail);
    else sendJson(response, route.status, headers, serialize(result));
  }

  /**
   * CORS, the address's rate limit, preflight, 404/405 and the tier check, before the body is read.
   * Returns the endpoint to run, or undefined once it has answered (a preflight).
   */
  function admit(request: IncomingMessage, response: ServerResponse, headers: HeaderList, receivedMs: number): Endpoint | undefined {
    // Requests that arrive on a kept-alive connection while closing are turned away; the client may retry elsewhere.
    if (closing !== undefined) throw new HttpError(503, "SHUTTING_DOWN", "the service is shutting down; retry shortly", { headers: CLOSING_HEADERS });
    const url = request.url as string;
    const methods = table.get(routingPath(url));
    const origin = request.headers.origin;
    if (origin !== undefined) {
      if (!origins.has(origin)) throw new HttpError(403, "CORS_ORIGIN_NOT_ALLOWED", `CORS does not allow origin ${JSON.stringify(origin)}`);
      headers.push("access-control-allow-origin", origin, "access-control-expose-headers", "Retry-After");
    }
    limit(perIp, clientAddress(request), receivedMs);
    const method = request.method as string;
    if (method === "OPTIONS" && methods !== undefined) {
      addHeaders(headers, PREFLIGHT_HEADERS);
      response.writeHead(204, headers).end();
      return undefined;
    }
    const endpoint = methods?.get(method);
    // Before the body is read, so a wrong path or method is reported as such rather than as a bad body.
    if (endpoint === undefined) throw unroutable(method, url, methods);
    const { route } = endpoint;
    const caller = authenticate(request.headers.authorization);
    if (caller !== undefined) limit(perKey, caller.id, receivedMs);
    if (!tierAllows(caller?.tier ?? "public", route.tier)) {
      if (caller === undefined) throw new HttpError(401, "UNAUTHORIZED", `${route.path} needs an API key of tier ${route.tier} or above: send Authorization: Bearer <key>`, { headers: { "www-authenticate": "Bearer" } });
      throw new HttpError(403, "FORBIDDEN", `${route.path} needs tier ${route.tier} or above; this key is ${caller.tier}`);
    }
    return endpoint;
  }

  /** The client's address: the socket's, or behind a trusted proxy the first (original) one in X-Forwarded-For. */
  function clientAddress(request: IncomingMessage): string {
    const forwarded = config.trust_proxy ? request.headers["x-forwarded-for"] : undefined;
    if (typeof forwarded === "string") {
      const first = forwarded.split(",", 1)[0]?.trim();
      if (first) return first;
    }
    return request.socket.remoteAddress ?? "";
  }

  function authenticate(header: string | undefined): Caller | undefined {
    if (header === undefined) return undefined;
    const match = /^Bearer +(\S+) *$/i.exec(header);
    if (match === null) throw new HttpError(401, "UNAUTHORIZED", "Authorization must be 'Bearer <key>'", { headers: { "www-authenticate": "Bearer" } });
    const caller = keys.lookup(match[1] as string);
    if (caller === undefined) throw new HttpError(401, "UNAUTHORIZED", "unknown API key", { headers: { "www-authenticate": "Bearer" } });
    return caller;
  }

  function limit(limiter: RateLimiter, client: string, nowMs: number): void {
    const waitMs = limiter.take(client, nowMs);
    if (waitMs > 0) {
      const seconds = Math.max(1, Math.ceil(waitMs / 1000));
      throw new HttpError(429, "RATE_LIMITED", `too many requests; retry after ${seconds} s`, { headers: { "retry-after": String(seconds) } });
    }
  }

  return {
    server,
    authority,
    async listen({ host, port }) {
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen({ host, port }, () => {
          server.off("error", reject);
          resolve();
        });
      });
      const address = server.address();
      if (address === null || typeof address === "string") throw new Error(`unexpected listening address ${String(address)}`);
      const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
      return `http://${shownHost}:${address.port}`;
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        if (!server.listening) {
          resolve();
          return;
        }
        // Stops accepting and closes kept-alive connections as they fall idle; a request that still comes in on one is answered 503 (see admit).
        const sweep = setInterval(() => server.closeIdleConnections(), 50);
        server.close(() => {
          clearInterval(sweep);
          resolve();
        });
        server.closeIdleConnections();
      }).then(() => authority.close());
      return closing;
    },
  };
}

/** 405 with `Allow` for a known path, else 404. */
function unroutable(method: string, url: string, methods: ReadonlyMap<string, Endpoint> | undefined): HttpError {
  const path = pathOf(url);
  if (methods === undefined) return new HttpError(404, "NOT_FOUND", `no endpoint at ${method} ${path}; see /api/v1/openapi.json`);
  const allowed = [...methods.keys(), "OPTIONS"].join(", ");
  return new HttpError(405, "METHOD_NOT_ALLOWED", `${method} is not allowed at ${path}; use ${allowed}`, { headers: { allow: allowed } });
}

/** Every error ends as one of the documented replies; only a bug in the service is a 500. */
function toHttpError(error: unknown, reportUnexpected: (error: unknown) => void): HttpError {
  if (error instanceof HttpError) return error;
  const fromSdk = httpErrorFromSdk(error);
  if (fromSdk !== undefined) return fromSdk;
  reportUnexpected(error);
  return new HttpError(500, "INTERNAL_ERROR", "the service failed unexpectedly; the error was logged");
}
