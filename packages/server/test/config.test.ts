import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { TemporalError } from "@temporal/agent-sdk";
import { describe, expect, it } from "vitest";
import { ConfigError, DEFAULT_CONFIG, loadConfig, loadConfigFile } from "../src/index.js";
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
});
