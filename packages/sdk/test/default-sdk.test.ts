import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { tempDir } from "./helpers.js";

afterEach(() => {
  vi.unstubAllEnvs();
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
