import { beforeAll, describe, expect, it } from "vitest";
import { ALLOWED_ORIGINS, startService, type RunningService } from "./helpers.js";

let running: RunningService;
beforeAll(async () => {
  running = await startService();
});

const PREFIXES = ["/api/v1", "/v1"];
// Rule 6: every public and managed endpoint needs cross-origin access; these are the ones the spec names.
const ENDPOINTS = [
  { method: "GET", path: "/core/state" },
  { method: "GET", path: "/keys" },
  { method: "GET", path: "/clockchain/anchors?tile_id=0" },
  { method: "POST", path: "/security/tsae" },
];

describe.each(PREFIXES)("CORS under %s", (prefix) => {
  it.each(ALLOWED_ORIGINS)("echoes the allowed origin %s with Vary: Origin (rule 3, 7)", async (origin) => {
    const response = await fetch(`${running.url}${prefix}/core/state`, { headers: { origin } });
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe(origin);
    expect(response.headers.get("vary")).toMatch(/\bOrigin\b/);
  });

  it.each(ENDPOINTS)("answers a preflight for $method $path with 204, no body and the allow headers (rules 1, 2, 4)", async ({ method, path }) => {
    const response = await fetch(`${running.url}${prefix}${path}`, {
      method: "OPTIONS",
      headers: { origin: ALLOWED_ORIGINS[1], "access-control-request-method": method, "access-control-request-headers": "content-type, authorization" },
    });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe("");
    expect(response.headers.get("access-control-allow-origin")).toBe(ALLOWED_ORIGINS[1]);
    expect(response.headers.get("access-control-allow-methods")).toBe("GET, POST, OPTIONS");
    expect(response.headers.get("access-control-allow-headers")).toBe("Content-Type, Authorization");
  });

  it.each(ENDPOINTS)("lets a request with no Origin through for $method $path (rule 5)", async ({ method, path }) => {
    const response = await fetch(`${running.url}${prefix}${path}`, {
      method,
      headers: { authorization: `Bearer ${running.keys.enterprise}`, "content-type": "application/json" },
      ...(method === "POST" ? { body: "{}" } : {}),
    });
    expect(response.status).not.toBe(403);
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
  });

  it.each([
    "https://evil.example",
    "http://app.example.com", // scheme differs
    "https://app.example.com.evil.example", // suffix
    "https://sub.app.example.com",
    "https://app.example.com/",
    "null",
  ])("rejects origin %s with a JSON error saying CORS does not allow it (rule 5)", async (origin) => {
    for (const method of ["GET", "OPTIONS"]) {
      const response = await fetch(`${running.url}${prefix}/core/state`, { method, headers: { origin } });
      expect(response.status).toBe(403);
      expect(response.headers.get("access-control-allow-origin")).toBeNull();
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("CORS_ORIGIN_NOT_ALLOWED");
      expect(body.error.message).toContain("CORS does not allow");
      expect(body.error.message).toContain(origin);
    }
  });

  it("keeps the CORS headers on error replies so a browser can read them", async () => {
    const response = await fetch(`${running.url}${prefix}/security/tsae`, { method: "POST", headers: { origin: ALLOWED_ORIGINS[0], "content-type": "application/json" }, body: "{}" });
    expect(response.status).toBe(401);
    expect(response.headers.get("access-control-allow-origin")).toBe(ALLOWED_ORIGINS[0]);
  });
});

describe("CORS with no origins configured", () => {
  it("rejects every Origin but serves requests without one", async () => {
    const bare = await startService({ cors: { origins: [] } });
    expect((await fetch(`${bare.url}/api/v1/core/state`, { headers: { origin: ALLOWED_ORIGINS[0] } })).status).toBe(403);
    expect((await fetch(`${bare.url}/api/v1/core/state`)).status).toBe(200);
  });
});
