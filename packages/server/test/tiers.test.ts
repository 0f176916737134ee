import { readFileSync } from "node:fs";
import type { Tier } from "@temporal/agent-sdk";
import { beforeAll, describe, expect, it } from "vitest";
import { ROUTES, TIERS, tierAllows } from "../src/index.js";
import { startService, type RunningService } from "./helpers.js";

let running: RunningService;
beforeAll(async () => {
  running = await startService();
});

/** The tier table of docs/service.md: `| METHOD | /path | Tier |` rows. */
function documentedTiers(): Map<string, Tier> {
  const doc = readFileSync(new URL("../../../docs/service.md", import.meta.url), "utf8");
  const table = new Map<string, Tier>();
  for (const match of doc.matchAll(/^\| (GET|POST) \| `([^`]+)` \| (Public|Developer|Managed|Quantum|Enterprise) \|/gm)) {
    table.set(`${match[1]} ${match[2]}`, (match[3] as string).toLowerCase() as Tier);
  }
  return table;
}

describe("tiers", () => {
  it("docs/service.md documents exactly the tier of every route", () => {
    const documented = documentedTiers();
    expect(Object.fromEntries(documented)).toEqual(Object.fromEntries(ROUTES.map((route) => [`${route.method} ${route.path}`, route.tier])));
  });

  it("puts keys and clockchain/anchors in Public and follows the spec's table", () => {
    const tierOf = (path: string) => ROUTES.find((route) => route.path === path)?.tier;
    expect(tierOf("/keys")).toBe("public");
    expect(tierOf("/clockchain/anchors")).toBe("public");
    expect(tierOf("/security/tsae")).toBe("managed");
    expect(tierOf("/clockchain/anchor")).toBe("enterprise");
  });

  const callers: (Tier | "none")[] = ["none", ...TIERS.filter((tier) => tier !== "public")];
  const cases = ROUTES.flatMap((route) => callers.map((caller) => ({ route, caller, label: `${route.method} ${route.path} as ${caller}` })));

  it.each(cases)("$label", async ({ route, caller }) => {
    for (const prefix of ["/api/v1", "/v1"]) {
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (caller !== "none" && caller !== "public") headers.authorization = `Bearer ${running.keys[caller]}`;
      const response = await fetch(`${running.url}${prefix}${route.path}`, { method: route.method, headers, ...(route.method === "POST" ? { body: "{}" } : {}) });
      const allowed = tierAllows(caller === "none" ? "public" : caller, route.tier);
      if (allowed) {
        expect([401, 403]).not.toContain(response.status);
      } else {
        expect(response.status).toBe(caller === "none" ? 401 : 403);
        const body = (await response.json()) as { error: { code: string } };
        expect(body.error.code).toBe(caller === "none" ? "UNAUTHORIZED" : "FORBIDDEN");
      }
    }
  });

  it("rejects an unknown key and a malformed Authorization header with 401 even on public endpoints", async () => {
    for (const authorization of ["Bearer tps_not-a-key", "Basic dXNlcjpwYXNz", "Bearer"]) {
      const response = await fetch(`${running.url}/api/v1/core/state`, { headers: { authorization } });
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toBe("Bearer");
    }
  });

  it("reads a key the same way before and after it first matched: any case of Bearer, spaces around the key, nothing else", async () => {
    const key = running.keys.developer;
    const statusOf = async (authorization: string) => (await fetch(`${running.url}/api/v1/core/state`, { headers: { authorization } })).status;
    for (let round = 0; round < 2; round++) {
      for (const authorization of [`Bearer ${key}`, `bearer ${key}`, `BEARER   ${key}`, `Bearer ${key}  `]) expect(await statusOf(authorization)).toBe(200);
      for (const authorization of [`Bearer ${key} x`, `Bearer ${key}x`, `Bearer\t${key}`, `Token ${key}`]) expect(await statusOf(authorization)).toBe(401);
    }
  });
});
