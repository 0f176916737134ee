import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import * as core from "../src/core/index.js";
import * as sdk from "../src/index.js";
import * as node from "../src/node/index.js";

const packageDir = fileURLToPath(new URL("../", import.meta.url));
const srcDir = join(packageDir, "src");
const packageJson = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as { imports: Record<string, Record<string, string>> };

/** Conditions a bundler for the browser matches (esbuild, Vite, webpack, Rollup's node-resolve), never `node`. */
const BROWSER_CONDITIONS = new Set(["browser", "import", "module", "default"]);

/** Source without comments, so only code is inspected. */
function code(file: string): string {
  return readFileSync(join(srcDir, file), "utf8")
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/\/\/.*$/gm, "");
}

/** Code without its quoted strings, so that a message saying "process" is not taken for the global. */
function withoutStrings(source: string): string {
  return source.replace(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'/g, '""');
}

function specifiers(file: string): string[] {
  return [...code(file).matchAll(/(?:\bfrom|^\s*import)\s+["']([^"']+)["']/gm)].map((match) => match[1] as string);
}

/**
 * The source file a specifier of `file` loads in a browser build: relative
 * imports as written, the package's own `#` imports through the first
 * condition a browser bundler matches (their targets are built files, mapped
 * back to source). Anything else (a package, a `node:` module) is undefined.
 */
function resolveForBrowser(file: string, specifier: string): string | undefined {
  if (specifier.startsWith("./") || specifier.startsWith("../")) return join(dirname(file), specifier).replace(/\.js$/, ".ts");
  const targets = packageJson.imports[specifier];
  if (targets === undefined) return undefined;
  const condition = Object.keys(targets).find((key) => BROWSER_CONDITIONS.has(key));
  const target = condition === undefined ? undefined : targets[condition];
  return target?.replace(/^\.\/dist\//, "").replace(/\.js$/, ".ts");
}

/** Every source file an entry point loads in a browser build, as paths relative to src. */
function reachableFrom(entry: string): string[] {
  const seen = new Set<string>([entry]);
  for (const file of seen) {
    for (const specifier of specifiers(file)) {
      const target = resolveForBrowser(file, specifier);
      if (target !== undefined) seen.add(relative(srcDir, join(srcDir, target)));
    }
  }
  return [...seen].sort();
}

const fromMain = reachableFrom("index.ts");
const fromCore = reachableFrom("core/index.ts");
const fromService = reachableFrom("service/index.ts");
const fromTesting = reachableFrom("testing/index.ts");
/** The directories the core, service and testing entries are made of: all of their files must be safe, exported or not yet. */
const pureDirFiles = ["core", "remote", "authority", "service", "testing", "ztt"].flatMap((dir) =>
  readdirSync(join(srcDir, dir))
    .filter((name) => name.endsWith(".ts"))
    .map((name) => `${dir}/${name}`),
);
const browserFiles = [...new Set([...fromMain, ...fromService, ...fromTesting, ...pureDirFiles])].sort();

describe("what a browser build loads", () => {
  it("from the main entry: the core, the client, defineMission and the non-Node default authority, nothing under src/node", () => {
    expect(fromMain).toEqual(expect.arrayContaining(["core/index.ts", "remote/client.ts", "mission/define-mission.ts", "web/default-sdk.ts"]));
    expect(fromMain.filter((file) => file.startsWith("node/"))).toEqual([]);
  });

  it("from the core entry: only the core and the client (with the platform-free ZTT module, whose bundles it returns)", () => {
    expect(fromCore).toContain("remote/client.ts");
    expect(fromCore.filter((file) => !/^(?:core|remote|authority|ztt)\//.test(file))).toEqual([]);
  });

  it("from the service and testing entries: the service pipeline over the core, the client and the in-memory authority, nothing under src/node", () => {
    expect(fromService).toEqual(expect.arrayContaining(["service/pipeline.ts", "service/request-validators.body.generated.ts", "service/request-validators.query.generated.ts"]));
    expect(fromTesting).toEqual(expect.arrayContaining(["testing/test-service.ts", "service/pipeline.ts", "remote/client.ts", "authority/memory-authority.ts"]));
    expect([...fromService, ...fromTesting].filter((file) => !/^(?:core|remote|authority|service|testing|ztt)\//.test(file))).toEqual([]);
  });

  it.each(browserFiles)("%s uses nothing Node-specific", (file) => {
    const source = code(file);
    expect(source).not.toMatch(/from\s+["']node:/);
    expect(source).not.toMatch(/\bimport\s*\(/);
    expect(source).not.toMatch(/\brequire\s*\(/);
    expect(withoutStrings(source)).not.toMatch(/\bprocess\b/);
    expect(withoutStrings(source)).not.toMatch(/\bBuffer\b/);
    // No packages (the SDK has no runtime dependencies): relative files, or the package's own `#` imports.
    for (const specifier of specifiers(file)) {
      expect(resolveForBrowser(file, specifier), `${file} imports ${specifier}`).toBeDefined();
    }
  });
});

describe("the entry points", () => {
  it("share the pure operations compiled missions call", () => {
    const pure = [
      "now",
      "allow",
      "enforce",
      "nextOpen",
      "canonicalJson",
      "sha256Hex",
      "verifyReceipt",
      "verifyInclusion",
      "diff",
      "tpeVector",
      "zoneFromUtcOffset",
      "zoneFromTimeZone",
      "PhaseWindowError",
      "TsaeRequestError",
      "KERNEL_VERSION",
    ];
    for (const name of [
      ...pure,
      "createClient",
      "TemporalClient",
      "TemporalApiError",
      "syncClock",
      "createMemoryAuthority",
      "createAuthority",
      "MemorySigner",
      "MemoryLogStore",
      "MemoryChallengeStore",
      "ClockchainState",
    ]) {
      expect(core).toHaveProperty(name);
      expect((sdk as Record<string, unknown>)[name]).toBe((core as Record<string, unknown>)[name]);
    }
  });

  it("keep the mission runtime and the default authority out of the core, and the Node parts out of the main entry", () => {
    expect(typeof sdk.defineMission).toBe("function");
    expect(typeof sdk.defaultSdk).toBe("function");
    for (const name of ["defineMission", "defaultSdk"]) expect(core).not.toHaveProperty(name);
    for (const name of [
      "createLocalAuthority",
      "LocalAuthority",
      "defaultHome",
      "homeParts",
      "FileLogStore",
      "acquireLock",
      "checkLedgerFile",
      "migrateLedger",
      "HomeLockedError",
      "LedgerCorruptError",
    ]) {
      expect(node).toHaveProperty(name);
      expect(sdk).not.toHaveProperty(name);
    }
  });

  it("give the main entry the Node default authority under Node", () => {
    expect(sdk.defaultSdk).toBe(node.defaultSdk);
  });
});
