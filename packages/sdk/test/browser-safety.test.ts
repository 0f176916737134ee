import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import * as core from "../src/core/index.js";
import * as sdk from "../src/index.js";

const srcDir = fileURLToPath(new URL("../src/", import.meta.url));
/** The directories behind `@temporal/agent-sdk/core`: the pure core, the HTTP client and the composed authorities it re-exports. */
const browserDirs = ["core", "remote", "authority"];
const browserFiles = browserDirs.flatMap((dir) =>
  readdirSync(join(srcDir, dir))
    .filter((name) => name.endsWith(".ts"))
    .map((name) => `${dir}/${name}`),
);

/** Source without comments, so only code is inspected. */
function code(file: string): string {
  return readFileSync(join(srcDir, file), "utf8")
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/\/\/.*$/gm, "");
}

describe("the core entry point", () => {
  it("covers the HTTP client", () => {
    expect(browserFiles).toContain("remote/client.ts");
    expect(browserFiles).toContain("core/index.ts");
  });

  it.each(browserFiles)("%s uses nothing Node-specific", (file) => {
    const source = code(file);
    expect(source).not.toMatch(/from\s+["']node:/);
    expect(source).not.toMatch(/\bimport\s*\(/);
    expect(source).not.toMatch(/\brequire\s*\(/);
    expect(source).not.toMatch(/\bprocess\b/);
    expect(source).not.toMatch(/\bBuffer\b/);
    // Only relative imports within the browser-safe directories: no packages, no src/node or src/mission.
    for (const [, specifier] of source.matchAll(/from\s+["']([^"']+)["']/g)) {
      expect(specifier).toMatch(/^(?:\.\/|\.\.\/(?:core|remote|authority)\/)[a-z0-9-]+\.js$/);
    }
  });

  it("exposes the operations compiled missions call, from both entry points", () => {
    const pure = ["now", "allow", "enforce", "nextOpen", "canonicalJson", "sha256Hex", "verifyReceipt", "verifyInclusion", "diff", "tpeVector", "zoneFromUtcOffset", "zoneFromTimeZone", "PhaseWindowError", "TsaeRequestError", "KERNEL_VERSION"];
    for (const name of pure) {
      expect(core).toHaveProperty(name);
      expect((sdk as Record<string, unknown>)[name]).toBe((core as Record<string, unknown>)[name]);
    }
    expect(typeof sdk.defaultSdk).toBe("function");
    expect(typeof sdk.createLocalAuthority).toBe("function");
    expect(core).not.toHaveProperty("defaultSdk");
    for (const name of ["createMemoryAuthority", "createAuthority", "MemorySigner", "MemoryLogStore", "MemoryChallengeStore", "ClockchainState"]) {
      expect(core).toHaveProperty(name);
      expect((sdk as Record<string, unknown>)[name]).toBe((core as Record<string, unknown>)[name]);
    }
    for (const name of ["createClient", "TemporalClient", "TemporalApiError", "syncClock"]) {
      expect(core).toHaveProperty(name);
      expect((sdk as Record<string, unknown>)[name]).toBe((core as Record<string, unknown>)[name]);
    }
  });
});
