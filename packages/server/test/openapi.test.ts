import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { API_PREFIXES, ROUTES } from "../src/index.js";
import { startService } from "./helpers.js";

const running = await startService();
const document = (await (await fetch(`${running.url}/api/v1/openapi.json`)).json()) as {
  openapi: string;
  servers: { url: string }[];
  paths: Record<string, Record<string, { responses: Record<string, { content: { "application/json": { schema: object } } }> }>>;
  components: { schemas: Record<string, object> };
};

describe("the OpenAPI document", () => {
  it("is OpenAPI 3.1 with both path prefixes as servers", () => {
    expect(document.openapi).toBe("3.1.0");
    expect(document.servers.map((s) => s.url)).toEqual([...API_PREFIXES]);
  });

  it("lists exactly the routes the server registers, under both prefixes", () => {
    const documented = Object.entries(document.paths).flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`));
    expect(documented.sort()).toEqual(ROUTES.map((route) => `${route.method} ${route.path}`).sort());
    const registered = running.service.app.printRoutes({ commonPrefix: false });
    for (const route of ROUTES) {
      for (const prefix of API_PREFIXES) expect(running.service.app.hasRoute({ method: route.method, url: prefix + route.path })).toBe(true);
    }
    // Every registered path (besides Fastify's HEAD twins of GET routes) is documented.
    const paths = [...registered.matchAll(/(\/[^\s(]*) \(([A-Z, ]+)\)/g)].map((m) => m[1] as string);
    for (const path of paths) {
      const prefix = API_PREFIXES.find((p) => path.startsWith(p));
      expect(prefix, path).toBeDefined();
      expect(document.paths[path.slice((prefix as string).length)], path).toBeDefined();
    }
  });

  it("has schemas that compile as JSON Schema 2020-12", () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addSchema(document as object, "openapi");
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
