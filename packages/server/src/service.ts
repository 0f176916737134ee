import { readFileSync } from "node:fs";
import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { KeyRing } from "./api-keys.js";
import { DEFAULT_CONFIG, type ServiceConfig } from "./config.js";
import { HttpError } from "./http-error.js";
import { API_PREFIXES, openApiDocument } from "./openapi.js";
import { RateLimiter } from "./rate-limit.js";
import { ROUTES, type Route, type RouteContext } from "./routes.js";
import { schemaProblems } from "./schema-problems.js";
import { httpErrorFromSdk } from "./sdk-errors.js";
import { carbonReader, qualityReader } from "./sources.js";
import { fileStore, type ServiceStore } from "./store.js";
import { tierAllows } from "./tiers.js";

export const BODY_LIMIT_BYTES = 64 * 1024;

export interface ServiceOptions {
  /** Where the file store keeps its key and ledger (ignored when `store` is given). */
  readonly home: string;
  readonly config?: ServiceConfig;
  /** Replaces the embedded file store. */
  readonly store?: ServiceStore;
  /** Service time in Unix ms; defaults to `Date.now`. */
  readonly clock?: () => number;
  /** Where unexpected errors (answered 500) are reported; defaults to stderr. */
  readonly onUnexpectedError?: (error: unknown) => void;
}

export interface TemporalService {
  readonly app: FastifyInstance;
  readonly store: ServiceStore;
  /** Starts listening; resolves with the base URL, for example `http://127.0.0.1:8787`. */
  listen(options: { host: string; port: number }): Promise<string>;
  /** Stops accepting, lets requests in flight finish, then closes the store (making every anchor durable). Idempotent. */
  close(): Promise<void>;
}

const VERSION = (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }).version;
const PREFLIGHT_HEADERS = {
  "access-control-allow-methods": "GET, POST, OPTIONS",
  "access-control-allow-headers": "Content-Type, Authorization",
  "access-control-max-age": "600",
};
const JSON_TYPE = "application/json; charset=utf-8";
/** On every reply, errors included. */
const COMMON_HEADERS = { "cache-control": "no-store", "x-content-type-options": "nosniff", vary: "Origin" };
const utf8 = new TextDecoder("utf-8", { fatal: true });

declare module "fastify" {
  interface FastifyRequest {
    receivedMs: number;
  }
}

/** Builds the service: routes at `/api/v1/...` and `/v1/...`, CORS, tiers, rate limits and one error shape. */
export function createService(options: ServiceOptions): TemporalService {
  const config = options.config ?? DEFAULT_CONFIG;
  const clock = options.clock ?? Date.now;
  const store = options.store ?? fileStore(options.home, clock);
  const keys = new KeyRing(config.keys);
  const origins = new Set(config.cors.origins);
  const perIp = new RateLimiter(config.rate_limit.per_ip);
  const perKey = new RateLimiter(config.rate_limit.per_key);
  const reportUnexpected = options.onUnexpectedError ?? ((error: unknown) => console.error("temporal-service: unexpected error:", error));
  const openapi = openApiDocument(ROUTES, VERSION);
  const context: RouteContext = {
    store,
    clock,
    quality: qualityReader(config.quality, clock()),
    carbon: carbonReader(config.carbon),
    challengeTtlMs: config.challenge_ttl_ms,
    openapi: () => openapi,
  };
  /** Path -> method -> route, for the checks that run before Fastify routes (CORS, tiers) and for 405. */
  const table = new Map<string, Map<string, Route>>();
  for (const route of ROUTES) {
    for (const prefix of API_PREFIXES) {
      const path = prefix + route.path;
      if (!table.has(path)) table.set(path, new Map());
      table.get(path)?.set(route.method, route);
    }
  }

  // No automatic HEAD routes: every method a route answers goes through the tier check.
  const app = Fastify({
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.trust_proxy,
    logger: false,
    return503OnClosing: true,
    exposeHeadRoutes: false,
    // Fastify's own replies (a path with a broken %-escape, a request the HTTP parser refuses) get the one error shape too.
    frameworkErrors: (error, _request, reply) => sendError(reply.headers(COMMON_HEADERS), new HttpError(400, error.code === "FST_ERR_BAD_URL" ? "INVALID_URL" : "BAD_REQUEST", error.message)),
    clientErrorHandler: rejectMalformedRequest,
  });
  const bodyAjv = new Ajv2020({ allErrors: true, strict: true, coerceTypes: false });
  const queryAjv = new Ajv2020({ allErrors: true, strict: true, coerceTypes: true });
  app.setValidatorCompiler<Record<string, unknown>>(({ schema, httpPart }) =>
    httpPart === "body" ? bodyAjv.compile(schema) : refusingNonFinite(queryAjv.compile(schema)),
  );
  app.decorateRequest("receivedMs", 0);

  app.removeAllContentTypeParsers();
  app.addContentTypeParser("application/json", { parseAs: "buffer" }, (_request, body: Buffer, done) => {
    let text: string;
    try {
      text = utf8.decode(body);
    } catch {
      done(new HttpError(400, "INVALID_JSON", "the body is not valid UTF-8"), undefined);
      return;
    }
    try {
      done(null, JSON.parse(text));
    } catch (error) {
      done(new HttpError(400, "INVALID_JSON", text.trim() === "" ? "the body is empty; send a JSON object" : `the body is not valid JSON: ${(error as Error).message}`), undefined);
    }
  });

  // A callback hook, not an async one: this runs on every request, and a promise per request costs measurable throughput.
  app.addHook("onRequest", (request, reply, done) => {
    try {
      if (admit(request, reply)) done();
    } catch (error) {
      done(error as HttpError);
    }
  });

  /** CORS, the address's rate limit, preflight, 404/405 and the tier check, before the body is read. Returns false once it has answered (a preflight). */
  function admit(request: FastifyRequest, reply: FastifyReply): boolean {
    request.receivedMs = clock();
    const methods = table.get(pathOf(request.url));
    const origin = request.headers.origin;
    reply.headers(COMMON_HEADERS);
    if (origin !== undefined) {
      if (!origins.has(origin)) throw new HttpError(403, "CORS_ORIGIN_NOT_ALLOWED", `CORS does not allow origin ${JSON.stringify(origin)}`);
      reply.header("access-control-allow-origin", origin).header("access-control-expose-headers", "Retry-After");
    }
    limit(perIp, request.ip, request.receivedMs);
    if (request.method === "OPTIONS" && methods !== undefined) {
      reply.code(204).headers(PREFLIGHT_HEADERS).send();
      return false;
    }
    const route = methods?.get(request.method);
    // Before the body is read, so a wrong path or method is reported as such rather than as a bad body.
    if (route === undefined) throw unroutable(request.method, request.url, methods);
    const caller = authenticate(request.headers.authorization);
    if (caller !== undefined) limit(perKey, caller.id, request.receivedMs);
    if (!tierAllows(caller?.tier ?? "public", route.tier)) {
      if (caller === undefined) throw new HttpError(401, "UNAUTHORIZED", `${route.path} needs an API key of tier ${route.tier} or above: send Authorization: Bearer <key>`, { headers: { "www-authenticate": "Bearer" } });
      throw new HttpError(403, "FORBIDDEN", `${route.path} needs tier ${route.tier} or above; this key is ${caller.tier}`);
    }
    return true;
  }

  function authenticate(header: string | undefined): { id: string; tier: ServiceConfig["keys"][number]["tier"] } | undefined {
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

  for (const route of ROUTES) {
    for (const prefix of API_PREFIXES) {
      app.route({
        method: route.method,
        url: prefix + route.path,
        schema: { ...(route.query === undefined ? {} : { querystring: route.query }), ...(route.body === undefined ? {} : { body: route.body }) },
        handler: (request, reply) => {
          const result = route.handle({ query: (request.query ?? {}) as Record<string, unknown>, body: request.body, receivedMs: request.receivedMs }, context);
          // Most routes answer synchronously; only those that touch the store wait (a returned promise of the reply tells Fastify it was sent).
          if (result instanceof Promise) return result.then((value) => sendJson(reply, route.status, value));
          sendJson(reply, route.status, result);
          return undefined;
        },
      });
    }
  }

  // onRequest already answers every request no route matches; this covers anything that reaches Fastify's own fallback.
  app.setNotFoundHandler((request, reply) => {
    sendError(reply, unroutable(request.method, request.url, table.get(pathOf(request.url))));
  });

  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    sendError(reply, toHttpError(error, request, reportUnexpected));
  });

  let closing: Promise<void> | undefined;
  return {
    app,
    store,
    async listen({ host, port }) {
      await app.listen({ host, port });
      const address = app.server.address();
      if (address === null || typeof address === "string") throw new Error(`unexpected listening address ${String(address)}`);
      const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
      return `http://${shownHost}:${address.port}`;
    },
    close() {
      closing ??= app.close().then(() => store.close());
      return closing;
    },
  };
}

function pathOf(url: string): string {
  const query = url.indexOf("?");
  return query === -1 ? url : url.slice(0, query);
}

/** 405 with `Allow` for a known path, else 404. */
function unroutable(method: string, url: string, methods: ReadonlyMap<string, Route> | undefined): HttpError {
  if (methods === undefined) return new HttpError(404, "NOT_FOUND", `no endpoint at ${method} ${pathOf(url)}; see /api/v1/openapi.json`);
  const allowed = [...methods.keys(), "OPTIONS"].join(", ");
  return new HttpError(405, "METHOD_NOT_ALLOWED", `${method} is not allowed at ${pathOf(url)}; use ${allowed}`, { headers: { allow: allowed } });
}

/** Answers a request Node's HTTP parser refused (oversized headers, a bad header name, Content-Length with chunked) in the error shape, then closes. */
function rejectMalformedRequest(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const reply =
    error.code === "HPE_HEADER_OVERFLOW" ? new HttpError(431, "HEADERS_TOO_LARGE", "the request headers are over the size limit")
    : error.code === "ERR_HTTP_REQUEST_TIMEOUT" ? new HttpError(408, "REQUEST_TIMEOUT", "the request did not arrive in time")
    : new HttpError(400, "MALFORMED_REQUEST", "the request is not valid HTTP/1.1");
  const body = JSON.stringify(reply.body);
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${reply.status} ${STATUS_CODES[reply.status]}\r\ncontent-type: ${JSON_TYPE}\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
  }
  socket.destroy();
}

/**
 * Ajv's coercion reads a query value such as `1e400` as Infinity, which then passes `minimum`/`maximum`;
 * a non-finite number is never a meaningful query value, so it is refused like any other schema violation.
 */
function refusingNonFinite(validate: ValidateFunction): (data: unknown) => boolean {
  const check = (data: unknown): boolean => {
    const valid = validate(data);
    check.errors = validate.errors;
    if (!valid || data === null || typeof data !== "object") return valid;
    const values = data as Record<string, unknown>;
    let errors: NonNullable<ValidateFunction["errors"]> | undefined;
    for (const name in values) {
      const value = values[name];
      if (typeof value === "number" && !Number.isFinite(value)) {
        (errors ??= []).push({ instancePath: `/${name.replace(/~/g, "~0").replace(/\//g, "~1")}`, schemaPath: "#/finite", keyword: "finite", params: {}, message: "must be a finite number" });
      }
    }
    if (errors === undefined) return true;
    check.errors = errors;
    return false;
  };
  check.errors = null as ValidateFunction["errors"];
  return check;
}

function sendJson(reply: FastifyReply, status: number, value: unknown): FastifyReply {
  return reply.code(status).header("content-type", JSON_TYPE).send(JSON.stringify(value));
}

function sendError(reply: FastifyReply, error: HttpError): void {
  sendJson(reply.headers(error.headers), error.status, error.body);
}

/** Every error ends as one of the documented replies; only a bug in the service is a 500. */
function toHttpError(error: FastifyError, request: FastifyRequest, reportUnexpected: (error: unknown) => void): HttpError {
  if (error instanceof HttpError) return error;
  if (error.validation !== undefined) {
    const part = error.validationContext === "querystring" ? "query" : (error.validationContext ?? "request");
    const details = schemaProblems(error.validation as Parameters<typeof schemaProblems>[0], part);
    return new HttpError(400, "VALIDATION_FAILED", `invalid ${part}: ${details.map((d) => `${d.field} ${d.problem}`).join("; ")}`, { details });
  }
  const fromSdk = httpErrorFromSdk(error);
  if (fromSdk !== undefined) return fromSdk;
  switch (error.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return new HttpError(413, "PAYLOAD_TOO_LARGE", `the body is over ${BODY_LIMIT_BYTES} bytes`);
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return new HttpError(415, "UNSUPPORTED_MEDIA_TYPE", `send the body as application/json (got ${JSON.stringify(request.headers["content-type"] ?? "none")})`);
  }
  if (typeof error.statusCode === "number" && error.statusCode >= 400 && error.statusCode < 500) {
    return new HttpError(error.statusCode, "BAD_REQUEST", error.message);
  }
  reportUnexpected(error);
  return new HttpError(500, "INTERNAL_ERROR", "the service failed unexpectedly; the error was logged");
}
