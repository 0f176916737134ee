import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import * as core from "../src/core/index.js";
import * as sdk from "../src/index.js";

const coreDir = fileURLToPath(new URL("../src/core/", import.meta.url));
const coreFiles = readdirSync(coreDir).filter((name) => name.endsWith(".ts"));

/** Source without comments and string contents, so only code is inspected. */
function code(file: string): string {
  return readFileSync(join(coreDir, file), "utf8")
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/\/\/.*$/gm, "");
}

describe("the core entry point", () => {
  it.each(coreFiles)("%s uses nothing Node-specific", (file) => {
    const source = code(file);
    expect(source).not.toMatch(/from\s+["']node:/);
    expect(source).not.toMatch(/\brequire\s*\(/);
    expect(source).not.toMatch(/\bprocess\b/);
    expect(source).not.toMatch(/\bBuffer\b/);
    for (const [, specifier] of source.matchAll(/from\s+["']([^"']+)["']/g)) expect(specifier).toMatch(/^\.\/[a-z0-9-]+\.js$/);
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
  });
});
