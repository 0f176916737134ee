import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { API_PREFIXES, ROUTES } from "../src/index.js";
import { startService } from "./helpers.js";

type JsonObject = Record<string, unknown>;

const running = await startService();
const document = (await (await fetch(`${running.url}/api/v1/openapi.json`)).json()) as {
  openapi: string;
  servers: { url: string }[];
  paths: Record<string, Record<string, { responses: Record<string, { content: { "application/json": { schema: object } } }> }>>;
  components: { schemas: Record<string, object> };
};
/** The operators' endpoints (docs/operations.md) sit at the root, outside the prefixes: their path items name their own `servers`. */
const operatorsPaths = Object.keys(document.paths).filter((path) => "servers" in (document.paths[path] as object));
for (const path of operatorsPaths) delete document.paths[path];

describe("the OpenAPI document", () => {
  it("is OpenAPI 3.1 with both path prefixes as servers", () => {
    expect(document.openapi).toBe("3.1.0");
    expect(document.servers.map((s) => s.url)).toEqual([...API_PREFIXES]);
  });

  it("lists exactly the routes the server answers, under both prefixes", async () => {
    const documented = Object.entries(document.paths).flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`));
    expect(documented.sort()).toEqual(ROUTES.map((route) => `${route.method} ${route.path}`).sort());
    // The server answers exactly these: each documented path and method under both prefixes, the path's other methods 405 with Allow, and nothing else.
    for (const [path, operations] of Object.entries(document.paths)) {
      const methods = Object.keys(operations).map((method) => method.toUpperCase());
      for (const prefix of API_PREFIXES) {
        for (const method of ["GET", "POST", "PUT", "DELETE", "PATCH"]) {
          const response = await fetch(`${running.url}${prefix}${path}`, { method, headers: { authorization: `Bearer ${running.keys.enterprise}` } });
          const code = response.status >= 400 ? ((await response.json()) as { error: { code: string } }).error.code : "";
          if (methods.includes(method)) expect(code, `${method} ${prefix}${path}`).not.toMatch(/^(NOT_FOUND|METHOD_NOT_ALLOWED)$/);
          else expect([response.status, response.headers.get("allow")], `${method} ${prefix}${path}`).toEqual([405, [...methods, "OPTIONS"].join(", ")]);
        }
      }
    }
    for (const path of ["/api/v2/core/state", "/api/v1/core", "/core/state", "/api/v1/core/state/x"]) expect((await fetch(`${running.url}${path}`)).status, path).toBe(404);
  });

  it("lists the operators' endpoints at the root, where the server answers them", async () => {
    expect(operatorsPaths.sort()).toEqual(["/healthz", "/metrics", "/readyz"]);
    for (const path of operatorsPaths) expect((await fetch(`${running.url}${path}`)).status, path).toBe(200);
  });

  it("documents ztt/verify's expected window and zone as optional, in the shapes ztt/certify takes them", () => {
    const body = (path: string) =>
      (document.paths[path]?.post as unknown as { requestBody: { content: { "application/json": { schema: JsonObject } } } }).requestBody.content["application/json"].schema;
    const { properties, required } = body("/ztt/verify") as { properties: Record<string, JsonObject>; required: string[] };
    const certify = body("/ztt/certify") as { properties: Record<string, JsonObject> };
    expect(required).toEqual(["bundle"]);
    for (const field of ["window", "zone"]) expect({ ...properties[field], description: "" }, field).toEqual({ ...certify.properties[field], description: "" });
  });

  it("has schemas that compile as JSON Schema 2020-12", () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addSchema(document, "openapi");
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        for (const status of Object.keys(operation.responses)) {
          const pointer = `openapi#/paths/${path.replace(/~/g, "~0").replace(/\//g, "~1")}/${method}/responses/${status}/content/application~1json/schema`;
          expect(ajv.getSchema(pointer), pointer).toBeTypeOf("function");
        }
      }
    }
  });
});
