import { readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { contextAt, createTsaeRequest, sha256Hex } from "@temporal/agent-sdk";
import { hashApiKey } from "../src/index.js";
import { tempDir } from "./helpers.js";
import { runCommand as cli, startServiceProcess as serve } from "./service-process.js";

describe("temporal-service", () => {
  it("keys create prints a key once and stores only its hash and tier, atomically and owner-only", async () => {
    const home = join(await tempDir(), "new-home"); // keys create may be the first command to use a home
    const first = cli(["keys", "create", "--tier", "managed", "--label", "ci", "--home", home]);
    expect(first.status).toBe(0);
    const key = first.stdout.trim();
    expect(key).toMatch(/^tps_[A-Za-z0-9_-]{43}$/);
    expect(first.stderr).toContain("shown only now");
    const second = cli(["keys", "create", "--tier", "enterprise", "--home", home]);
    const configPath = join(home, "service.json");
    const text = await readFile(configPath, "utf8");
    expect(text).not.toContain(key);
    const config = JSON.parse(text) as { keys: { sha256: string; tier: string; label?: string }[] };
    expect(config.keys.map((k) => [k.sha256, k.tier, k.label])).toEqual([
      [hashApiKey(key), "managed", "ci"],
      [hashApiKey(second.stdout.trim()), "enterprise", undefined],
    ]);
    expect((await stat(configPath)).mode & 0o777).toBe(0o600);
    const listed = cli(["keys", "list", "--home", home]);
    expect(
      listed.stdout
        .split("\n")
        .filter(Boolean)
        .map((line) => line.split("\t")[1]),
    ).toEqual(["managed", "enterprise"]);
  });

  it("keys list refuses a --config that does not exist, where a home without one has no keys yet", async () => {
    const missing = cli(["keys", "list", "--config", "/nonexistent/service.json"]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/^temporal-service: INVALID_SERVICE_CONFIG: cannot read config \/nonexistent\/service\.json: no such file or folder\n/);
    const fresh = cli(["keys", "list", "--home", join(await tempDir(), "new-home")]);
    expect(fresh.status).toBe(0);
    expect(fresh.stderr).toMatch(/^no keys in .*service\.json\n$/);
  });

  it("never echoes a --store that is no URL: it may be a password pasted in the wrong place", () => {
    // "Summer:2024!" is a URL to the WHATWG parser (scheme "summer"), but has no "//".
    for (const password of ["hunter2", "Summer:2024!"]) {
      const result = cli(["--store", password]);
      expect(result.status).toBe(2);
      expect(result.stderr.toLowerCase()).not.toContain(password.toLowerCase());
      expect(result.stderr).toContain("--store is not a URL (its text is not shown");
    }
  });

  it("signing-key create into a folder that does not exist names the key file, not a temporary one", () => {
    const result = cli(["signing-key", "create", "/nonexistent/k.pem"]);
    expect(result.status).toBe(1);
    expect(result.stderr).toBe("temporal-service: cannot create /nonexistent/k.pem: no such file or folder\n");
  });

  it("refuses a label with a control character (keys list prints one tab-separated line per key), from the flag and from the config", async () => {
    const home = await tempDir();
    for (const label of ["a\tb", "two\nlines"]) {
      const refused = cli(["keys", "create", "--tier", "developer", "--label", label, "--home", home]);
      expect(refused.status).toBe(2);
      expect(refused.stderr).toContain("text without control characters");
    }
    expect(cli(["keys", "create", "--tier", "developer", "--label", "ci é 🚀", "--home", home]).status).toBe(0);
    const configPath = join(home, "service.json");
    const config = JSON.parse(await readFile(configPath, "utf8")) as { keys: { label?: string }[] };
    expect(config.keys.map((k) => k.label)).toEqual(["ci é 🚀"]);
    (config.keys[0] as { label?: string }).label = "edited\nby hand";
    await writeFile(configPath, JSON.stringify(config));
    const listed = cli(["keys", "list", "--home", home]);
    expect(listed.status).toBe(2);
    expect(listed.stderr).toContain("keys[0].label must be text without control characters");
  });

  it("refuses an unknown tier, listing the choices", () => {
    const result = cli(["keys", "create", "--tier", "gold", "--home", "/nonexistent"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/Allowed choices are public, developer, managed, quantum, enterprise/);
  });

  it.runIf(process.platform === "linux")("names the folder a config cannot be written in, at once (a recursive mkdir loops forever under /proc)", async () => {
    const result = cli(["keys", "create", "--tier", "developer", "--home", await tempDir(), "--config", "/proc/temporal-test/service.json"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("cannot create the folder /proc/temporal-test");
  });

  it("exits 2 naming every bad field of an invalid config, and refuses a missing --config", async () => {
    const home = await tempDir();
    const config = join(home, "bad.json");
    await writeFile(config, JSON.stringify({ cors: { origins: ["https://ok.example", "not a url"] }, rate_limit: { per_ip: { burst: 0 } }, colour: "red" }));
    const bad = cli(["--port", "0", "--home", home, "--config", config]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("cors.origins[1]");
    expect(bad.stderr).toContain("rate_limit.per_ip.burst");
    expect(bad.stderr).toContain("rate_limit.per_ip.per_second is required");
    expect(bad.stderr).toContain("colour is not allowed");
    expect(bad.stderr).not.toMatch(/\n\s+at /);
    const missing = cli(["--port", "0", "--home", home, "--config", join(home, "absent.json")]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain("cannot read config");
  });

  it.runIf(process.platform === "linux")("stops reading a device given as the config or the signing key at a limit, rather than reading it without end", () => {
    const config = cli(["--port", "0", "--home", "/nonexistent", "--config", "/dev/zero"]);
    expect(config.status).toBe(2);
    expect(config.stderr).toContain("cannot read config /dev/zero: it holds more than 8 MiB: no file of its kind is that large");
    const key = cli(["--port", "0", "--store", "postgres://nobody@127.0.0.1:1/none", "--signing-key", "/dev/zero"]);
    expect(key.status).toBe(1);
    expect(key.stderr).toContain("KEY_INVALID: key file /dev/zero is not a key: it holds more than 64 KiB: no file of its kind is that large");
  });

  it("refuses a bad port with a usage error", () => {
    const result = cli(["--port", "http"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("a port is an integer 0..65535");
  });

  it("serves with its keys from the config, and a second service shares the same home: key, challenges and clockchain", { timeout: 90_000 }, async () => {
    const home = await tempDir();
    const key = cli(["keys", "create", "--tier", "enterprise", "--home", home]).stdout.trim();
    const [first, second] = [await serve(["--port", "0", "--home", home]), await serve(["--port", "0", "--home", home])];
    const call = async (url: string, method: string, path: string, body?: unknown) => {
      const reply = await fetch(`${url}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: reply.status, body: (await reply.json()) as Record<string, unknown> };
    };
    try {
      expect((await fetch(`${first.url}/v1/challenge`)).status).toBe(401);
      expect((await call(second.url, "GET", "/v1/keys")).body).toEqual((await call(first.url, "GET", "/v1/keys")).body);
      // A challenge issued by one service is used, once, at the other.
      const challenge = (await call(first.url, "GET", "/v1/challenge")).body;
      const request = createTsaeRequest(contextAt(Date.now()), { scope: "test.shared.v1", action_hash_hex: sha256Hex("shared") });
      const issued = await call(second.url, "POST", "/api/v1/security/tsae", { ...request, challenge });
      expect(issued).toMatchObject({ status: 201, body: { challenge_nonce: challenge.nonce } });
      expect((await call(first.url, "POST", "/api/v1/security/tsae", { ...request, challenge })).body).toMatchObject({ error: { code: "CHALLENGE_UNKNOWN" } });
      // A receipt anchored through one is proven through the other.
      const anchored = await call(first.url, "POST", "/v1/clockchain/anchor", { receipt: issued.body });
      expect(anchored.status).toBe(200);
      expect((await call(second.url, "GET", `/v1/clockchain/proof?receipt_hash=${String(anchored.body.receipt_hash)}`)).body).toEqual(anchored.body);
    } finally {
      for (const running of [first, second]) {
        const { code } = await running.stop();
        expect(code).toBe(0);
        expect(running.stdout()).toContain("SIGTERM");
      }
    }
  });

  it("--help explains the commands and shows examples", () => {
    const help = cli(["--help"]);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain("keys");
    expect(help.stdout).toContain("Examples:");
    expect(cli(["serve", "--help"]).stdout).toContain("--port <port>");
  });
});
