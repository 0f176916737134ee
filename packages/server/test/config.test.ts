import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { TemporalError } from "@temporal/agent-sdk";
import { describe, expect, it } from "vitest";
import { ConfigError, DEFAULT_CONFIG, loadConfig, loadConfigFile } from "../src/index.js";
import { readConfigObject } from "../src/config.js";
import { tempDir } from "./helpers.js";

describe("the service config file", () => {
  it("gives host and port to the command, apart from the service's config", async () => {
    const path = join(await tempDir(), "service.json");
    await writeFile(path, JSON.stringify({ host: "0.0.0.0", port: 9000, challenge_ttl_ms: 5000 }));
    const { config, listen } = await loadConfigFile(path, false);
    expect(listen).toEqual({ host: "0.0.0.0", port: 9000 });
    expect(config).toEqual({ ...DEFAULT_CONFIG, challenge_ttl_ms: 5000 });
    expect(await loadConfig(path, false)).toEqual(config);
    expect((await loadConfigFile(join(path, "..", "absent.json"), true)).listen).toEqual({ host: undefined, port: undefined });
  });

  it("that cannot be used is a ConfigError, a TemporalError with the code INVALID_SERVICE_CONFIG", async () => {
    const path = join(await tempDir(), "service.json");
    await writeFile(path, JSON.stringify({ port: -1 }));
    const error: unknown = await loadConfig(path, false).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toBeInstanceOf(TemporalError);
    expect(error).toMatchObject({ code: "INVALID_SERVICE_CONFIG", message: expect.stringContaining("port must be >= 0") });
  });

  it("that names a key twice is refused with where, not read as its last one (a second keys would drop the first's keys)", async () => {
    const path = join(await tempDir(), "service.json");
    const key = { id: "a1", sha256: "0".repeat(64), tier: "developer", created_utc: "2026-01-01T00:00:00Z" };
    await writeFile(path, `{"keys": ${JSON.stringify([key])}, "port": 1, "keys": []}`);
    await expect(loadConfigFile(path, false)).rejects.toMatchObject({
      code: "INVALID_SERVICE_CONFIG",
      message: `config ${path} is invalid: it has the key at /keys more than once (only the last would count); keep one`,
    });
    // `keys create` reads the file this way before writing it back.
    await expect(readConfigObject(path, true)).rejects.toThrow("/keys more than once");
    await writeFile(path, '{"rate_limit": {"per_ip": {"burst": 5, "per_second": 1, "burst": 6}}}');
    await expect(loadConfigFile(path, false)).rejects.toThrow("the key at /rate_limit/per_ip/burst more than once");
  });
});
