import { existsSync } from "node:fs";
import { open } from "node:fs/promises";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
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
    const probe = await open(join(home, "clockchain.log"), "r");
    await probe.close();
    const proto = Object.getPrototypeOf(probe) as { datasync(): Promise<void>; truncate(): Promise<void> };
    const eio = Object.assign(new Error("EIO: i/o error"), { code: "EIO" });
    vi.spyOn(proto, "datasync").mockRejectedValueOnce(eio);
    vi.spyOn(proto, "truncate").mockRejectedValueOnce(eio);
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

  it("refuses TEMPORAL_URL until the HTTP client exists", async () => {
    vi.stubEnv("TEMPORAL_URL", "https://temporal.example");
    const { defaultSdk } = await import("../src/index.js");
    expect(() => defaultSdk()).toThrow(expect.objectContaining({ code: "REMOTE_UNSUPPORTED" }));
    expect(() => defaultSdk()).toThrow(/"https:\/\/temporal\.example"/);
  });
});
