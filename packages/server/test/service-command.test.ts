/**
 * `temporal-service` as a command (issue 15): the real built binary as a
 * child process, on loopback, with temp homes. Version, usage errors,
 * HOST/PORT, failed listens, SIGHUP, SIGINT and SIGTERM.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { access, chmod, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { homePaths } from "@temporal/agent-sdk/node";
import { describe, expect, it } from "vitest";
import { tempDir } from "./helpers.js";
import { BIN, runCommand, startServiceProcess, type ServiceProcess } from "./service-process.js";

const VERSION = (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }).version;
const PROCESS_TEST = { timeout: 120_000 };

async function lockExists(home: string): Promise<boolean> {
  return access(homePaths(home).lock).then(
    () => true,
    () => false,
  );
}

/** A TCP server holding a free loopback port until it is closed. */
async function occupyPort(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen({ host: "127.0.0.1", port: 0 }, resolve));
  return { port: (server.address() as { port: number }).port, server };
}

/** A loopback port that was free a moment ago. */
async function freePort(): Promise<number> {
  const { port, server } = await occupyPort();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function get(url: string, key?: string): Promise<number> {
  return (await fetch(url, key === undefined ? {} : { headers: { authorization: `Bearer ${key}` } })).status;
}

describe("temporal-service --version", () => {
  it.each([["--version"], ["-V"], ["-v"]])("%s prints the package version and exits 0", (flag) => {
    expect(runCommand([flag])).toEqual({ status: 0, stdout: `${VERSION}\n`, stderr: "" });
  });
});

describe("temporal-service usage errors", () => {
  const cases: [string, string[], NodeJS.ProcessEnv, RegExp, string][] = [
    ["an unknown option", ["--bogus"], {}, /unknown option '--bogus'/, "temporal-service"],
    ["a port out of range", ["--port", "65536"], {}, /'65536' is invalid\. a port is an integer 0\.\.65535/, "temporal-service"],
    ["a URL for --host", ["serve", "--host", "http://localhost"], {}, /a host is an IP address or a host name/, "temporal-service serve"],
    ["an unknown command", ["start"], {}, /unknown command 'start'/, "temporal-service"],
    ["an argument to serve", ["serve", "now"], {}, /serve takes no arguments, got 'now'/, "temporal-service serve"],
    ["an unknown tier", ["keys", "create", "--tier", "gold"], {}, /Allowed choices are public, developer/, "temporal-service keys create"],
    ["an unknown option of a subcommand", ["keys", "list", "--port", "1"], {}, /unknown option '--port'/, "temporal-service keys list"],
    ["a root option before a command", ["--home", "/tmp", "keys", "list"], {}, /give the options after the command: temporal-service keys list --home/, "temporal-service"],
    ["a bad PORT", [], { PORT: "http" }, /the environment variable PORT is "http": a port is an integer/, "temporal-service"],
    ["a negative PORT", [], { PORT: "-1" }, /PORT is "-1"/, "temporal-service"],
    ["a bad HOST", [], { HOST: "127.0.0.1:8787" }, /the environment variable HOST is "127\.0\.0\.1:8787": a host is/, "temporal-service"],
    // Not echoed (it may be a password pasted in the wrong place), but said to be no URL.
    [
      "a --store that is no URL",
      ["--store", "hunter2"],
      {},
      /--store is not a URL \(its text is not shown, in case it is a password pasted in the wrong place\): a store is/,
      "temporal-service",
    ],
    ["a --store URL of another scheme", ["--store", "mysql://app:hunter2@db/app"], {}, /--store is "mysql:\/\/app:\*\*\*@db\/app": a store is a PostgreSQL URL/, "temporal-service"],
  ];
  it.each(cases)("%s: exits 2 with one line and a hint to --help, no stack", (_name, args, env, message, command) => {
    const result = runCommand(args, env);
    expect(result.status, result.stderr).toBe(2);
    const lines = result.stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^temporal-service: INVALID_ARGUMENT: /);
    expect(lines[0]).toMatch(message);
    expect(lines[1]).toBe(`Try '${command} --help' for more information.`);
    expect(result.stdout).toBe("");
  });

  it("a node id that is empty or over 200 characters, from --node-id or TEMPORAL_NODE_ID, is refused as the config's node_id is", PROCESS_TEST, async () => {
    // A throw-away home and a free port: before the fix these started a service (until the spawn's timeout).
    const serving = ["--home", await tempDir(), "--port", "0"];
    const refusals: [string[], NodeJS.ProcessEnv, RegExp][] = [
      [["--node-id", "", ...serving], {}, /^temporal-service: INVALID_ARGUMENT: option '--node-id <id>' argument '' is invalid\. a node id is 1 to 200 characters/],
      [["serve", "--node-id", "n".repeat(201), ...serving], {}, /argument 'n{201}' is invalid\. a node id is 1 to 200 characters/],
      [
        serving,
        { TEMPORAL_NODE_ID: "n".repeat(201) },
        /^temporal-service: INVALID_ARGUMENT: the environment variable TEMPORAL_NODE_ID is 201 characters long: a node id is 1 to 200 characters/,
      ],
    ];
    for (const [args, env, message] of refusals) {
      const result = runCommand(args, env);
      expect(result.status, result.stderr).toBe(2);
      expect(result.stderr.trimEnd().split("\n")).toEqual([expect.stringMatching(message), expect.stringMatching(/^Try 'temporal-service( serve)? --help'/)]);
    }
  });

  it("a store URL whose timeout parameter is not whole milliseconds is a usage error, as a bad --store is", PROCESS_TEST, async () => {
    // Port 1 on loopback: before the fix this reached the store's start (exit 1), not the command line's check.
    const result = runCommand(["--store", "postgres://x@127.0.0.1:1/db?statement_timeout=1e3", "--home", await tempDir(), "--port", "0"]);
    expect(result.status, result.stderr).toBe(2);
    expect(result.stderr.trimEnd().split("\n")).toEqual([
      expect.stringMatching(/^temporal-service: INVALID_ARGUMENT: the store URL .* has statement_timeout=1e3: give a whole number of milliseconds/),
      "Try 'temporal-service --help' for more information.",
    ]);
  });

  it("a config file that is not JSON, or names a bad host or port, is a usage error naming the file", async () => {
    const home = await tempDir();
    const config = join(home, "service.json");
    for (const [text, problem] of [
      // Where the text stops being JSON, as editors count lines and columns, on the one line.
      ['{\n  "keys": [],\n  "cors": { "origins": [] ,}\n}', /^temporal-service: INVALID_SERVICE_CONFIG: config .*service\.json:3:28 is not valid JSON: \S/],
      [JSON.stringify({ port: "8787" }), /^temporal-service: INVALID_SERVICE_CONFIG: config .*service\.json is invalid: port /],
      [JSON.stringify({ port: 70_000 }), /^temporal-service: INVALID_SERVICE_CONFIG: config .*service\.json is invalid: port /],
      [JSON.stringify({ host: "http://example.com" }), /^temporal-service: INVALID_ARGUMENT: host in config .*service\.json is "http:\/\/example\.com": a host is/],
    ] as const) {
      await writeFile(config, text);
      const result = runCommand(["--home", home]);
      expect(result.status, result.stderr).toBe(2);
      expect(result.stderr).toMatch(problem);
      expect(result.stderr.trimEnd().split("\n")).toHaveLength(2);
      expect(result.stderr).toContain("Try 'temporal-service --help' for more information.");
    }
  });

  it("--help teaches every option, the environment, the signals, the exit statuses and an example", () => {
    const help = runCommand(["--help"]);
    expect(help.status).toBe(0);
    for (const text of [
      "--host <host>",
      "--port <port>",
      "--config <file>",
      "--home <dir>",
      "--version",
      "HOST",
      "PORT",
      "TEMPORAL_HOME",
      "SIGHUP",
      "SIGTERM",
      "Exit status:",
      "Examples:",
      "$ temporal-service --port 8787",
    ]) {
      expect(help.stdout).toContain(text);
    }
    expect(help.stdout).toMatch(/else HOST\/PORT, else "host"\/"port"\s+in the config file, else 127\.0\.0\.1:8787/);
    expect(runCommand(["serve", "--help"]).stdout).toContain("Exit status:");
    expect(runCommand(["keys", "create", "--help"]).stdout).toContain("Exit status:");
  });
});

describe("temporal-service listening", () => {
  it("takes host and port from the flags, else HOST/PORT, else the config file", PROCESS_TEST, async () => {
    const home = await tempDir();
    const [fromFile, fromEnv, fromFlag] = [await freePort(), await freePort(), await freePort()];
    // Linux answers on all of 127.0.0.0/8, so each source can name its own loopback address.
    await writeFile(join(home, "service.json"), JSON.stringify({ host: "127.0.0.2", port: fromFile }));
    const env = { HOST: "127.0.0.3", PORT: String(fromEnv) };
    for (const [args, environment, url] of [
      [["--home", home], {}, `http://127.0.0.2:${fromFile}`],
      [["--home", home], env, `http://127.0.0.3:${fromEnv}`],
      [["--home", home, "--host", "127.0.0.1", "--port", String(fromFlag)], env, `http://127.0.0.1:${fromFlag}`],
      [["serve", "--home", home, "--port", "0"], { PORT: "not used, so not checked" }, undefined],
    ] as const) {
      const service = await startServiceProcess(args, environment);
      try {
        if (url !== undefined) expect(service.url).toBe(url);
        else expect(service.url).toMatch(/^http:\/\/127\.0\.0\.2:\d+$/);
        expect(await get(`${service.url}/v1/context`)).toBe(200);
      } finally {
        expect((await service.stop()).code).toBe(0);
      }
    }
  });

  it("a port in use: exit 1 with one line suggesting --port 0, no lock left, and a start right after succeeds", PROCESS_TEST, async () => {
    const home = await tempDir();
    const { port, server } = await occupyPort();
    try {
      const failed = runCommand(["--home", home, "--port", String(port)]);
      expect(failed.status).toBe(1);
      expect(failed.stderr).toBe(
        `temporal-service: cannot listen on 127.0.0.1:${port}: the address is in use (another temporal-service?); stop that process, choose another --port, or --port 0 to pick a free one\n`,
      );
      expect(failed.stdout).toBe("");
      // The home was opened (its key made, its ledger verified) before the listen failed, and closed after.
      expect(await lockExists(home)).toBe(false);
      await access(homePaths(home).signingKey);
      const started = Date.now();
      const service = await startServiceProcess(["--home", home, "--port", "0"]);
      // Well under the 10 s a start would wait for a lock left by a live holder.
      expect(Date.now() - started).toBeLessThan(10_000);
      expect((await service.stop()).code).toBe(0);
    } finally {
      server.close();
    }
  });

  it("an address that is not this machine's: exit 1 with one line naming --host", () => {
    const failed = runCommand(["--host", "192.0.2.1", "--port", "0"], { TEMPORAL_HOME: "" });
    expect(failed.status).toBe(1);
    expect(failed.stderr).toMatch(
      /^temporal-service: cannot listen on 192\.0\.2\.1:0: the address is not one of this machine's; choose another --host, such as 127\.0\.0\.1 or 0\.0\.0\.0\n$/,
    );
  });
});

/** The lowest port anyone may open (Linux); 1024 where the kernel does not say. */
function unprivilegedPortStart(): number {
  try {
    return Number(readFileSync("/proc/sys/net/ipv4/ip_unprivileged_port_start", "utf8").trim());
  } catch {
    return 1024;
  }
}

// Root may open any port, so as root the service runs as nobody; only a kernel that lets everyone open port 80 leaves nothing to test.
describe.runIf(unprivilegedPortStart() > 80)("temporal-service on a privileged port", () => {
  it("permission denied: exit 1 with one line suggesting a port above 1023 or --port 0, no lock left", PROCESS_TEST, async () => {
    const home = await tempDir();
    await chmod(home, 0o777);
    const asRoot = process.getuid?.() === 0;
    const result = spawnSync(process.execPath, [BIN, "--home", home, "--port", "80"], {
      encoding: "utf8",
      timeout: 60_000,
      env: { ...process.env, HOST: "", PORT: "" },
      ...(asRoot ? { uid: 65_534, gid: 65_534 } : {}),
    });
    expect(result.status, result.stderr).toBe(1);
    expect(result.stderr).toBe(
      "temporal-service: cannot listen on 127.0.0.1:80: permission denied (ports below 1024 need privileges); choose a --port of 1024 or above, or --port 0 to pick a free one\n",
    );
    expect(await lockExists(home)).toBe(false);
  });
});

describe("temporal-service signals", () => {
  async function startWithKeyless(home: string): Promise<{ service: ServiceProcess; config: string }> {
    const config = join(home, "service.json");
    // The port comes from the file, so that a change of it there is one a reload reports.
    await writeFile(config, JSON.stringify({ cors: { origins: [] }, port: await freePort() }));
    return { service: await startServiceProcess(["--home", home]), config };
  }

  it("SIGHUP after keys create made the config file of a service started without one: once read, a missing file keeps the running config", PROCESS_TEST, async () => {
    const home = await tempDir();
    const service = await startServiceProcess(["--home", home, "--port", "0"]);
    try {
      const created = runCommand(["keys", "create", "--tier", "developer", "--home", home]);
      expect(created.status, created.stderr).toBe(0);
      const key = created.stdout.trim();
      const config = join(home, "service.json");
      service.child.kill("SIGHUP");
      expect(await service.waitFor("stdout", /^SIGHUP: /)).toBe(`SIGHUP: reloaded ${config}: 1 API keys, 0 CORS origins`);
      await rm(config);
      service.child.kill("SIGHUP");
      expect(await service.waitFor("stderr", /SIGHUP/)).toMatch(
        /^temporal-service: SIGHUP: kept the running config: INVALID_SERVICE_CONFIG: cannot read config .*service\.json: no such file or folder/,
      );
      expect(await get(`${service.url}/v1/challenge`, key)).toBe(200);
    } finally {
      await service.stop();
    }
  });

  it("SIGHUP reloads the config: a key made by keys create is served, a bad file is reported and the running config kept", PROCESS_TEST, async () => {
    const home = await tempDir();
    const { service, config } = await startWithKeyless(home);
    try {
      const created = runCommand(["keys", "create", "--tier", "developer", "--home", home]);
      expect(created.status, created.stderr).toBe(0);
      const key = created.stdout.trim();
      expect(await get(`${service.url}/v1/challenge`, key)).toBe(401);

      service.child.kill("SIGHUP");
      expect(await service.waitFor("stdout", /^SIGHUP: /)).toBe(`SIGHUP: reloaded ${config}: 1 API keys, 0 CORS origins`);
      expect(await get(`${service.url}/v1/challenge`, key)).toBe(200);

      const valid = readFileSync(config, "utf8");
      await writeFile(config, "{ half written");
      service.child.kill("SIGHUP");
      expect(await service.waitFor("stderr", /SIGHUP/)).toMatch(/^temporal-service: SIGHUP: kept the running config: INVALID_SERVICE_CONFIG: config .*service\.json:1:3 is not valid JSON/);
      expect(await get(`${service.url}/v1/challenge`, key)).toBe(200);

      // A default config that was there at the start and is gone now (moved away, mid-deploy) would mean no keys at all: kept, as a bad file is.
      await rm(config);
      service.child.kill("SIGHUP");
      expect(await service.waitFor("stderr", /SIGHUP: kept the running config: INVALID_SERVICE_CONFIG: cannot read/)).toMatch(
        /^temporal-service: SIGHUP: kept the running config: INVALID_SERVICE_CONFIG: cannot read config .*service\.json: no such file or folder/,
      );
      expect(await get(`${service.url}/v1/challenge`, key)).toBe(200);

      // What only a start can change is named, and the rest applied (port ^ 1 is another port, still in 0..65535).
      await writeFile(config, JSON.stringify({ ...JSON.parse(valid), keys: [], authority_name: "clock.example.com", port: Number(new URL(service.url).port) ^ 1 }));
      service.child.kill("SIGHUP");
      expect(await service.waitFor("stdout", /^SIGHUP: reloaded .*0 API keys/)).toBe(
        `SIGHUP: reloaded ${config}: 0 API keys, 0 CORS origins; authority_name, port changed, which takes effect at the next start`,
      );
      expect(await get(`${service.url}/v1/challenge`, key)).toBe(401);
      expect(service.child.exitCode).toBeNull();
    } finally {
      expect(await service.stop("SIGTERM")).toEqual({ code: 0, signal: null });
    }
    expect(await lockExists(home)).toBe(false);
  });

  it.each([["SIGTERM"], ["SIGINT"]] as const)("%s closes the server and the ledger, releases the lock and exits 0", PROCESS_TEST, async (signal) => {
    const home = await tempDir();
    const service = await startServiceProcess(["--home", home, "--port", "0"]);
    expect(await get(`${service.url}/v1/context`)).toBe(200);
    expect(await service.stop(signal)).toEqual({ code: 0, signal: null });
    expect(service.stdout()).toContain(`${signal}: finishing requests in flight and closing the ledger`);
    expect(service.stderr()).toBe("");
    expect(await lockExists(home)).toBe(false);
    await expect(fetch(`${service.url}/v1/context`)).rejects.toThrow();
  });
});
