import { existsSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { failNextOn } from "./file-faults.js";
import { tempDir } from "./helpers.js";

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe("defaultSdk", () => {
  it("touches nothing on import or creation, and memoises one local authority per home", async () => {
    const home = join(await tempDir(), "from-env");
    vi.stubEnv("TEMPORAL_HOME", home);
    vi.stubEnv("TEMPORAL_URL", "");
    const { defaultSdk } = await import("../src/index.js");
    const sdk = defaultSdk();
    expect(existsSync(home)).toBe(false);
    expect(defaultSdk()).toBe(sdk);
    expect(sdk).toMatchObject({ kind: "local", home });
    const keys = await sdk.publicKeys();
    expect(existsSync(join(home, "signing-key.pem"))).toBe(true);
    await sdk.close();
    const fresh = defaultSdk();
    expect(fresh).not.toBe(sdk);
    expect(await fresh.publicKeys()).toEqual(keys);
    await fresh.close();
  });

  it("replaces an authority that has failed", async () => {
    const home = await tempDir();
    vi.stubEnv("TEMPORAL_HOME", home);
    vi.stubEnv("TEMPORAL_URL", "");
    const { contextAt, createTsaeRequest, defaultSdk, sha256Hex } = await import("../src/index.js");
    const sdk = defaultSdk();
    const receipt = await sdk.issueReceipt(createTsaeRequest(contextAt(Date.now()), { scope: "test.default.v1", action_hash_hex: sha256Hex("a") }));
    // An fsync fails and the batch cannot be cut off again: the authority gives up.
    const eio = Object.assign(new Error("EIO: i/o error"), { code: "EIO" });
    await failNextOn(join(home, "clockchain.log"), "datasync", eio);
    await failNextOn(join(home, "clockchain.log"), "truncate", eio);
    await expect(sdk.anchor(receipt)).rejects.toMatchObject({ code: "LEDGER_IO_FAILED" });
    vi.restoreAllMocks();
    const fresh = defaultSdk();
    expect(fresh).not.toBe(sdk);
    expect(await fresh.anchor(receipt)).toMatchObject({ leaf_index: 0 });
    expect(defaultSdk()).toBe(fresh);
    await fresh.close();
    await sdk.close();
  });

  it("defaults to ./.temporal without TEMPORAL_HOME", async () => {
    vi.stubEnv("TEMPORAL_HOME", "");
    vi.stubEnv("TEMPORAL_URL", "");
    const { defaultSdk } = await import("../src/index.js");
    expect(defaultSdk()).toMatchObject({ home: resolve(".temporal") });
  });

  it("returns the HTTP client when TEMPORAL_URL is set, one per URL and key, and touches no home", async () => {
    const home = join(await tempDir(), "unused");
    vi.stubEnv("TEMPORAL_HOME", home);
    vi.stubEnv("TEMPORAL_URL", "https://temporal.example/edge/");
    vi.stubEnv("TEMPORAL_API_KEY", "");
    const { TemporalClient, defaultSdk } = await import("../src/index.js");
    const sdk = defaultSdk();
    expect(sdk).toBeInstanceOf(TemporalClient);
    expect(sdk).toMatchObject({ kind: "remote", baseUrl: "https://temporal.example/edge" });
    expect(defaultSdk()).toBe(sdk);
    vi.stubEnv("TEMPORAL_API_KEY", "key-1");
    const keyed = defaultSdk();
    expect(keyed).not.toBe(sdk);
    expect(defaultSdk()).toBe(keyed);
    vi.stubEnv("TEMPORAL_URL", "https://other.example");
    expect(defaultSdk()).toMatchObject({ baseUrl: "https://other.example" });
    vi.stubEnv("TEMPORAL_URL", "https://temporal.example/edge/");
    expect(defaultSdk()).toBe(keyed);
    await keyed.close();
    const fresh = defaultSdk();
    expect(fresh).not.toBe(keyed);
    expect(fresh).toMatchObject({ kind: "remote", closed: false });
    expect(existsSync(home)).toBe(false);
  });

  it("sends TEMPORAL_API_KEY as the bearer token", async () => {
    const seen: (string | undefined)[] = [];
    const server = createServer((req, res) => {
      seen.push(req.headers.authorization);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ keys: {} }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      vi.stubEnv("TEMPORAL_URL", `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      vi.stubEnv("TEMPORAL_API_KEY", "tk_test_123");
      const { defaultSdk } = await import("../src/index.js");
      expect(await defaultSdk().publicKeys()).toEqual({});
      expect(seen).toEqual(["Bearer tk_test_123"]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("names the variable when TEMPORAL_URL or TEMPORAL_API_KEY is unusable", async () => {
    const { defaultSdk } = await import("../src/index.js");
    vi.stubEnv("TEMPORAL_API_KEY", "");
    for (const url of ["temporal.example", "ftp://temporal.example", "http://temporal.example/?x=1"]) {
      vi.stubEnv("TEMPORAL_URL", url);
      expect(() => defaultSdk()).toThrow(expect.objectContaining({ code: "INVALID_BASE_URL" }));
      expect(() => defaultSdk()).toThrow(/^TEMPORAL_URL /);
    }
    vi.stubEnv("TEMPORAL_URL", "https://temporal.example");
    vi.stubEnv("TEMPORAL_API_KEY", "secret value");
    expect(() => defaultSdk()).toThrow(expect.objectContaining({ code: "INVALID_CLIENT_OPTIONS" }));
    expect(() => defaultSdk()).toThrow(/^TEMPORAL_API_KEY /);
    expect(() => defaultSdk()).not.toThrow(/secret/);
  });
});
