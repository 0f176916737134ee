import { KERNEL_VERSION } from "../core/index.js";
import type { Route } from "./routes.js";
import { ERROR_BODY } from "./schemas.js";
import { TIERS } from "./tiers.js";

export const API_PREFIXES = ["/api/v1", "/v1"] as const;

const ERROR_STATUSES: Record<string, string> = {
  "400":
    "Malformed JSON, invalid UTF-8, a key twice in one object (DUPLICATE_KEY), no Host header on HTTP/1.1 (MISSING_HOST), or a body or query that breaks the schema (details lists every bad field)",
  "401": "No API key on a non-public endpoint, or a key the service does not know",
  "403": "The key's tier is below the endpoint's, or the Origin is not allowed by CORS",
  "404": "Unknown path, (clockchain/proof) no such anchor, or (ztt/sign) no ZTT window configured (ZTT_NOT_CONFIGURED)",
  "405": "The path exists but not for this method (see Allow)",
  "409": "(ztt/sign, ztt/certify) the ZTT window is closed by the service's clock (ZTT_WINDOW_CLOSED): next_open_unix_ms says when it opens, Retry-After in how many seconds",
  "408": "The request's headers or body did not arrive in time (limits.headers_timeout_ms, limits.request_timeout_ms)",
  "413": "Body over 64 KiB",
  "415": "A body that is not application/json",
  "429": "Rate limited per key or per address (see Retry-After)",
  "503": "A configured source or the store is unavailable, or the service is shutting down",
};

/**
 * The OpenAPI 3.1 document of the service, built from the same route table the server runs; `platformPaths`
 * are path items the platform serves beside the routes (each with its own `servers`, since they are outside the prefixes).
 */
export function openApiDocument(routes: readonly Route[], version: string, platformPaths: Readonly<Record<string, unknown>> = {}): Record<string, unknown> {
  const paths: Record<string, unknown> = { ...platformPaths };
  for (const route of routes) {
    const item = (paths[route.path] ??= {}) as Record<string, unknown>;
    item[route.method.toLowerCase()] = operation(route);
  }
  return {
    openapi: "3.1.0",
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    info: {
      title: "Temporal Permission Service",
      version,
      description: `Temporal permission layer (kernel ${KERNEL_VERSION}): phase windows, T-Watch, TPE vectors, signed TSAE receipts and the clockchain. Tiers, lowest first: ${TIERS.join(" < ")}; each includes the ones below it.`,
    },
    servers: API_PREFIXES.map((url) => ({ url })),
    components: {
      securitySchemes: { apiKey: { type: "http", scheme: "bearer", description: "An API key from `temporal-service keys create --tier <tier>`" } },
      schemas: { Error: ERROR_BODY },
    },
    paths,
  };
}

function operation(route: Route): Record<string, unknown> {
  const errors = Object.fromEntries(
    Object.entries(ERROR_STATUSES).map(([status, description]) => [status, { description, content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } }]),
  );
  return {
    operationId: route.operationId,
    summary: route.summary,
    "x-tier": route.tier,
    security: route.tier === "public" ? [{}, { apiKey: [] }] : [{ apiKey: [] }],
    ...(route.query === undefined ? {} : { parameters: queryParameters(route.query) }),
    ...(route.body === undefined ? {} : { requestBody: { required: true, content: { "application/json": { schema: route.body } } } }),
    responses: {
      [String(route.status)]: { description: "Success", content: { "application/json": { schema: route.reply } } },
      ...errors,
    },
  };
}

function queryParameters(schema: Record<string, unknown>): unknown[] {
  const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = (schema.required ?? []) as string[];
  return Object.entries(properties).map(([name, property]) => ({ name, in: "query", required: required.includes(name), schema: property }));
}
