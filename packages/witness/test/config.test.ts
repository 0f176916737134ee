import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authorityVerifierKey, parseVerifierKey, tileVerifierKey } from "@temporal/agent-sdk";
import { DEFAULT_MAX_BODY_BYTES, loadWitnessConfig } from "../src/config.js";
import { TestLog } from "./test-log.js";

describe("loadWitnessConfig", () => {
  let directory: string;
  const log = new TestLog("example.com/log");
  const valid = () => ({ name: "witness.example/w1", key_file: "witness.key", state_dir: "state", logs: [{ origin: log.origin, keys: [log.vkey] }] });

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), "witness-config-"));
  });
  afterAll(() => rm(directory, { recursive: true, force: true }));

  const load = async (content: unknown) => {
    const path = join(directory, "witness.json");
    await writeFile(path, typeof content === "string" ? content : JSON.stringify(content));
    return loadWitnessConfig(path);
  };

  it("resolves paths against the file's folder and builds a verifier per log key", async () => {
    const config = await load(valid());
    expect(config).toMatchObject({ name: "witness.example/w1", keyFile: join(directory, "witness.key"), stateDir: join(directory, "state"), maxBodyBytes: DEFAULT_MAX_BODY_BYTES });
    expect((await config.logs.get(log.origin))?.map((verifier) => verifier.name)).toEqual([log.origin]);
  });

  it("knows every tile of a clockchain authority, with the tile key derived from the authority's vkey", async () => {
    const authorityKey = authorityVerifierKey(new Uint8Array(32).fill(3), "clock.example.com");
    const config = await load({ ...valid(), logs: [{ authority: "clock.example.com", keys: [authorityKey] }] });
    const verifiers = await config.logs.get("clock.example.com/tile/249349");
    expect(verifiers?.map(({ name, keyId }) => ({ name, keyId }))).toEqual([{ name: "clock.example.com/tile/249349", keyId: parseVerifierKey(tileVerifierKey(authorityKey, 249349)).keyId }]);
    expect(await config.logs.get("clock.example.com/tile/x")).toBeUndefined();
    expect(await config.logs.get("other.example.com/tile/1")).toBeUndefined();
    await expect(load({ ...valid(), logs: [{ authority: "clock.example.org", keys: [authorityKey] }] })).rejects.toThrow(/logs\[0\]\.keys\[0\] is a key of "clock\.example\.com"/);
    await expect(load({ ...valid(), logs: [{ authority: "clock.example.com", origin: "x", keys: [authorityKey] }] })).rejects.toThrow(/both "origin" and "authority"/);
  });

  it.each([
    ["not JSON", "{", "is not JSON"],
    ["an unknown field", { ...valid(), witness_name: "x" }, 'unknown field "witness_name"'],
    ["a name with a space", { ...valid(), name: "my witness" }, '"name"'],
    ["no key file", { ...valid(), key_file: "" }, '"key_file"'],
    ["no logs", { ...valid(), logs: [] }, '"logs"'],
    ["an origin with a space", { ...valid(), logs: [{ origin: "a b", keys: [log.vkey] }] }, "logs[0].origin"],
    ["a log twice", { ...valid(), logs: [valid().logs[0], valid().logs[0]] }, "logs[1].origin"],
    ["a key twice", { ...valid(), logs: [{ origin: log.origin, keys: [log.vkey, log.vkey] }] }, "logs[0].keys[1] repeats"],
    ["a key that is not a vkey", { ...valid(), logs: [{ origin: log.origin, keys: ["example.com/log+00"] }] }, "logs[0].keys[0]"],
    ["a tiny body limit", { ...valid(), max_body_bytes: 10 }, '"max_body_bytes"'],
  ])("refuses %s, naming what to fix", async (_, content, fragment) => {
    await expect(load(content)).rejects.toMatchObject({ code: "INVALID_WITNESS_CONFIG", message: expect.stringContaining(fragment) });
  });
});
