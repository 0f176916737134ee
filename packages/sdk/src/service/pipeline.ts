import { TemporalTypeError } from "../core/index.js";
import { KeyRing, type Caller } from "./api-keys.js";
import { HttpError } from "./http-error.js";
import { API_PREFIXES, openApiDocument } from "./openapi.js";
import { RateLimiter } from "./rate-limit.js";
import { addHeaders, commonHeaders, jsonContentType, type HeaderList } from "./reply-headers.js";
import { pathOf, queryOf, routingPath } from "./request-target.js";
import { requestValidators, type RequestValidator } from "./request-validation.js";
import { REQUESTS } from "./schemas.js";
import { TrustedProxies } from "./client-address.js";
import { beginExchange, reportExchange, type Exchange, type RateLimitScope, type RequestObserver } from "./request-outcome.js";
import { ROUTES, type Route, type RouteContext, type RouteInput } from "./routes.js";
import { httpErrorFromSdk } from "./sdk-errors.js";
import type { ServiceAuthority, ServiceConfig } from "./service-config.js";
import { staticCarbonReader, staticQualityReader, type CarbonReader, type QualityReader } from "./sources.js";
import { tierAllows } from "./tiers.js";
import type { ZttSigner } from "../ztt/index.js";

export const BODY_LIMIT_BYTES = 64 * 1024;

/** The request headers the pipeline itself reads; the body's are the transport's. Node's `IncomingMessage.headers` is one as it is. */
export interface AdmissionHeaders {
  readonly origin?: string | undefined;
  readonly authorization?: string | undefined;
  readonly "x-forwarded-for"?: string | string[] | undefined;
}

/** What the pipeline reads of a request; Node's `IncomingMessage` is one as it is, so the HTTP path wraps nothing. */
export interface RequestHead {
  readonly method?: string | undefined;
  /** The request target: path and query. */
  readonly url?: string | undefined;
  readonly headers: AdmissionHeaders;
}

/** Called at most once with the body's JSON value, or with the error to answer (415, 413, 400 INVALID_JSON). */
export type BodyDone = (error: HttpError | undefined, body?: unknown) => void;

/**
 * How requests arrive and replies leave: node:http (temporal-service's service.ts) or an in-process `fetch`
 * (the stand-in's fetch-transport.ts).
 * Its functions are called with the transport's own request and reply objects, so the pipeline allocates
 * nothing to adapt them.
 */
export interface Transport<Req extends RequestHead, Res> {
  /** The peer's address, counted by the per-address rate limit unless a trusted proxy names the client. */
  remoteAddress(request: Req): string;
  /** Reads the JSON body up to `limitBytes` with the rules of request-body.ts. */
  readJsonBody(request: Req, limitBytes: number, done: BodyDone): void;
  /**
   * Sends the whole reply, adding its `Content-Length`: `body` is the JSON text, or undefined for none (a preflight's
   * 204); `ascii` says it has no character past U+007F, so its length is its byte count and its UTF-8 is its Latin-1.
   */
  send(reply: Res, status: number, headers: HeaderList, body: string | undefined, ascii: boolean): void;
  /** True once a reply has been sent. */
  replied(reply: Res): boolean;
  /** Drops the exchange without a reply: only a bug answers twice, and the exchange is then in an unknown state. */
  abort(reply: Res): void;
}

export interface PipelineOptions {
  readonly config: ServiceConfig;
  readonly authority: ServiceAuthority;
  /** Service time in Unix ms. */
  readonly clock: () => number;
  /** Where unexpected errors (answered 500) are reported. */
  readonly onUnexpectedError: (error: unknown) => void;
  /** The version `GET openapi.json` reports: the serving package's. */
  readonly version: string;
  /** Reads `config.quality`; needed for a file source, which only the platform can read. Default: the static source, or none. */
  readonly quality?: QualityReader;
  /** Reads `config.carbon`, as `quality`. */
  readonly carbon?: CarbonReader;
  /** Told of every reply sent (route, status, duration, tier, rate-limit rejection): the platform's metrics and request logs. */
  readonly observer?: RequestObserver;
  /** Paths the platform serves beside the pipeline (health, metrics), added to `GET openapi.json` as OpenAPI path items. */
  readonly openApiPaths?: Readonly<Record<string, unknown>>;
  /** The ZTT signer of `config.ztt` (`serviceZttSigner`), made once by the platform so it outlives a reconfigure; none: `ztt/sign` answers 404. */
  readonly ztt?: ZttSigner;
}

/** The service's request handling, independent of how requests arrive. */
export interface Pipeline {
  /** The handler for one transport: admission, body, validation, route and the one error shape. Make it once per transport. */
  handler<Req extends RequestHead, Res>(transport: Transport<Req, Res>): (request: Req, reply: Res) => void;
  /** From now on every request is answered 503 SHUTTING_DOWN. */
  shutDown(): void;
}

/** A route with its request validators, compiled once and shared by both path prefixes. */
interface Endpoint {
  readonly route: Route;
  readonly validateQuery: RequestValidator;
  readonly validateBody: RequestValidator | undefined;
}

const PREFLIGHT_HEADERS = {
  "access-control-allow-methods": "GET, POST, OPTIONS",
  "access-control-allow-headers": "Content-Type, Authorization",
  "access-control-max-age": "600",
};
const CLOSING_HEADERS = { connection: "close", "retry-after": "1" };

/** The routes at `/api/v1/...` and `/v1/...`, CORS, tiers, rate limits and one error shape, over `options.authority`. */
export function createPipeline(options: PipelineOptions): Pipeline {
  const { config, clock, authority } = options;
  const keys = new KeyRing(config.keys);
  const origins = new Set(config.cors.origins);
  const perIp = new RateLimiter(config.rate_limit.per_ip);
  const perKey = new RateLimiter(config.rate_limit.per_key);
  const proxies = new TrustedProxies(config.trust_proxy);
  const reportUnexpected = options.onUnexpectedError;
  const { observer } = options;
  const openapi = openApiDocument(ROUTES, options.version, options.openApiPaths);
  const context: RouteContext = {
    authority,
    clock,
    quality: options.quality ?? staticQualityReader(staticSource(config.quality, "quality", "score"), clock()),
    carbon: options.carbon ?? staticCarbonReader(staticSource(config.carbon, "carbon", "intensity")),
    challengeTtlMs: config.challenge_ttl_ms,
    openapi: () => openapi,
    ztt: options.ztt,
  };
  const validators = requestValidators();
  /** Path (with either prefix) -> method -> endpoint. */
  const table = new Map<string, Map<string, Endpoint>>();
  for (const route of ROUTES) {
    const endpoint: Endpoint = {
      route,
      // A route without query parameters (every POST) refuses any, as a GET route refuses those it does not know.
      validateQuery: validators.query(route.query ?? REQUESTS.none),
      validateBody: route.body === undefined ? undefined : validators.body(route.body),
    };
    for (const prefix of API_PREFIXES) {
      const path = prefix + route.path;
      if (!table.has(path)) table.set(path, new Map());
      table.get(path)?.set(route.method, endpoint);
    }
  }
  let closing = false;

  function handler<Req extends RequestHead, Res>(transport: Transport<Req, Res>): (request: Req, reply: Res) => void {
    /** Tells the observer, if there is one (it may add headers), then sends the reply. */
    function send(request: Req, reply: Res, status: number, headers: HeaderList, body: string | undefined, exchange: Exchange | undefined, ascii = false): void {
      if (exchange !== undefined) reportExchange(observer as RequestObserver, request, exchange, status, headers);
      transport.send(reply, status, headers, body, ascii);
    }

    function sendJson(request: Req, reply: Res, status: number, headers: HeaderList, json: string, exchange: Exchange | undefined, ascii = false): void {
      jsonContentType(headers);
      send(request, reply, status, headers, json, exchange, ascii);
    }

    function sendError(request: Req, reply: Res, headers: HeaderList, error: HttpError, exchange: Exchange | undefined): void {
      if (transport.replied(reply)) {
        transport.abort(reply);
        return;
      }
      addHeaders(headers, error.headers);
      if (exchange !== undefined) exchange.errorCode = error.code;
      sendJson(request, reply, error.status, headers, JSON.stringify(error.body), exchange);
    }

    /**
     * Runs a route and sends its result. Most routes (`core/state`, `allow`, ...) answer synchronously, and those are
     * sent at once, without a promise per request; those that touch the store or a source return one (respondLater).
     */
    function respond(request: Req, reply: Res, headers: HeaderList, route: Route, input: RouteInput, fail: (error: unknown) => void, exchange: Exchange | undefined): void {
      const result = route.handle(input, context);
      if (result instanceof Promise) void respondLater(request, reply, headers, route, result, fail, exchange);
      else sendJson(request, reply, route.status, headers, (route.serialize ?? JSON.stringify)(result), exchange, route.asciiReply);
    }

    /** Sends a route's result once it is settled; a rejection, or a failure to serialize or send the value, is answered by `fail`. */
    async function respondLater(
      request: Req,
      reply: Res,
      headers: HeaderList,
      route: Route,
      result: Promise<unknown>,
      fail: (error: unknown) => void,
      exchange: Exchange | undefined,
    ): Promise<void> {
      try {
        const value = await result;
        sendJson(request, reply, route.status, headers, (route.serialize ?? JSON.stringify)(value), exchange, route.asciiReply);
      } catch (error) {
        fail(error);
      }
    }

    /**
     * CORS, the address's rate limit, preflight, 404/405 and the tier check, before the body is read.
     * Returns the endpoint to run, or undefined once it has answered (a preflight).
     */
    function admit(request: Req, reply: Res, headers: HeaderList, receivedMs: number, exchange: Exchange | undefined): Endpoint | undefined {
      // Requests that arrive on a kept-alive connection while closing are turned away; the client may retry elsewhere.
      if (closing) throw new HttpError(503, "SHUTTING_DOWN", "the service is shutting down; retry shortly", { headers: CLOSING_HEADERS });
      const url = request.url as string;
      const methods = table.get(routingPath(url));
      const origin = request.headers.origin;
      if (origin !== undefined) {
        if (!origins.has(origin)) throw new HttpError(403, "CORS_ORIGIN_NOT_ALLOWED", `CORS does not allow origin ${JSON.stringify(origin)}`);
        headers.push("access-control-allow-origin", origin, "access-control-expose-headers", "Retry-After");
      }
      limit(perIp, proxies.clientAddress(transport.remoteAddress(request), request.headers["x-forwarded-for"]), receivedMs, "per_ip", exchange);
      const method = request.method as string;
      if (method === "OPTIONS" && methods !== undefined) {
        // Every method of a path shares its route template.
        if (exchange !== undefined) exchange.route = methods.values().next().value?.route.path;
        addHeaders(headers, PREFLIGHT_HEADERS);
        send(request, reply, 204, headers, undefined, exchange);
        return undefined;
      }
      const endpoint = methods?.get(method);
      // Before the body is read, so a wrong path or method is reported as such rather than as a bad body.
      if (endpoint === undefined) throw unroutable(method, url, methods);
      const { route } = endpoint;
      if (exchange !== undefined) exchange.route = route.path;
      const caller = authenticate(request.headers.authorization);
      if (caller !== undefined) {
        if (exchange !== undefined) {
          exchange.tier = caller.tier;
          exchange.keyId = caller.id;
        }
        limit(perKey, caller.id, receivedMs, "per_key", exchange);
      }
      if (!tierAllows(caller?.tier ?? "public", route.tier)) {
        if (caller === undefined)
          throw new HttpError(401, "UNAUTHORIZED", `${route.path} needs an API key of tier ${route.tier} or above: send Authorization: Bearer <key>`, {
            headers: { "www-authenticate": "Bearer" },
          });
        throw new HttpError(403, "FORBIDDEN", `${route.path} needs tier ${route.tier} or above; this key is ${caller.tier}`);
      }
      return endpoint;
    }

    return function serve(request: Req, reply: Res): void {
      const exchange = observer === undefined ? undefined : beginExchange();
      const headers = commonHeaders();
      const fail = (error: unknown) => sendError(request, reply, headers, toHttpError(error, reportUnexpected), exchange);
      try {
        const receivedMs = clock();
        const endpoint = admit(request, reply, headers, receivedMs, exchange);
        if (endpoint === undefined) return;
        if (endpoint.route.method === "GET") {
          const query = queryOf(request.url as string);
          endpoint.validateQuery(query);
          respond(request, reply, headers, endpoint.route, { query, body: undefined, receivedMs }, fail, exchange);
          return;
        }
        // Refused before the body is read: `POST allow?zone=1` must not be answered for zone 0.
        const url = request.url as string;
        if (url.includes("?")) endpoint.validateQuery(queryOf(url));
        transport.readJsonBody(request, BODY_LIMIT_BYTES, (error, body) => {
          if (error !== undefined) {
            fail(error);
            return;
          }
          try {
            endpoint.validateBody?.(body);
            respond(request, reply, headers, endpoint.route, { query: {}, body, receivedMs, outcome: exchange }, fail, exchange);
          } catch (thrown) {
            fail(thrown);
          }
        });
      } catch (error) {
        fail(error);
      }
    };
  }

  function authenticate(header: string | undefined): Caller | undefined {
    if (header === undefined) return undefined;
    // A client sends the same key on every request: a key that matched before, after exactly "Bearer ", skips the
    // regular expression (about 1,100 instructions per request). A known key has no whitespace, so the result is the same.
    if (header.startsWith("Bearer ")) {
      const known = keys.known(header.slice(7));
      if (known !== undefined) return known;
    }
    const match = /^Bearer +(\S+) *$/i.exec(header);
    if (match === null) throw new HttpError(401, "UNAUTHORIZED", "Authorization must be 'Bearer <key>'", { headers: { "www-authenticate": "Bearer" } });
    const caller = keys.lookup(match[1] as string);
    if (caller === undefined) throw new HttpError(401, "UNAUTHORIZED", "unknown API key", { headers: { "www-authenticate": "Bearer" } });
    return caller;
  }

  return {
    handler,
    shutDown() {
      closing = true;
    },
  };
}

/** A static source as it is; a file or simulator source without the reader that `PipelineOptions` needs for it is a caller's mistake. */
function staticSource<S extends object, K extends string>(source: S | null, name: "quality" | "carbon", key: K): Extract<S, Record<K, unknown>> | null {
  if (source === null || key in source) return source as Extract<S, Record<K, unknown>> | null;
  throw new TemporalTypeError(
    "INVALID_ARGUMENT",
    `the ${name} source of this config is not a static value: give the pipeline a ${name} reader for it (temporal-service reads files and runs simulators; the stand-in takes a number or a function)`,
  );
}

function limit(limiter: RateLimiter, client: string, nowMs: number, scope: RateLimitScope, exchange: Exchange | undefined): void {
  const waitMs = limiter.take(client, nowMs);
  if (waitMs > 0) {
    if (exchange !== undefined) exchange.rateLimited = scope;
    const seconds = Math.max(1, Math.ceil(waitMs / 1000));
    throw new HttpError(429, "RATE_LIMITED", `too many requests; retry after ${seconds} s`, { headers: { "retry-after": String(seconds) } });
  }
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
