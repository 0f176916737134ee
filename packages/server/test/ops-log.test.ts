import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG, createApiKey, createService, type TemporalService } from "../src/index.js";
import type { LogLevel } from "../src/request-log.js";
import { tempDir } from "./helpers.js";
import { runCommand, startServiceProcess } from "./service-process.js";

const PROCESS_TEST = { timeout: 60_000 };

interface Logged {
  readonly lines: string[];
  readonly url: string;
  readonly key: string;
  readonly service: TemporalService;
}

/** A real service whose request log is collected line by line. */
async function loggedService(level: LogLevel): Promise<Logged> {
  const lines: string[] = [];
  const { key, record } = createApiKey("enterprise", "log test", new Date(0));
  const service = createService({ home: await tempDir(), config: { ...DEFAULT_CONFIG, keys: [record] }, requestLog: { level, destination: { write: (line: string) => lines.push(line) } } });
  const url = await service.listen({ host: "127.0.0.1", port: 0 });
  return { lines, url, key, service };
}

describe("the request log", () => {
  it("writes one JSON line per request with id, method, route template, status, duration and tier, and never the API key", async () => {
    const { lines, url, key, service } = await loggedService("info");
    try {
      const given = await fetch(`${url}/api/v1/context?zone=Z3`, { headers: { authorization: `Bearer ${key}`, "x-request-id": "trace-42.a:b" } });
      expect(given.headers.get("x-request-id")).toBe("trace-42.a:b");
      const bad = await fetch(`${url}/v1/challenge`, { headers: { authorization: `Bearer ${key}x`, "x-request-id": "has space" } });
      expect(bad.status).toBe(401);
      const generated = bad.headers.get("x-request-id");
      expect(generated).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      const tooLong = await fetch(`${url}/healthz?secret=${key}`, { headers: { "x-request-id": "x".repeat(129) } });
      expect(tooLong.headers.get("x-request-id")).not.toBe("x".repeat(129));
      await service.close();

      expect(lines).toHaveLength(3);
      const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(entries[0]).toMatchObject({ level: 30, msg: "request", req_id: "trace-42.a:b", method: "GET", route: "/context", status: 200, tier: "enterprise" });
      expect(typeof entries[0]?.duration_ms).toBe("number");
      expect(typeof entries[0]?.key_id).toBe("string");
      expect(typeof entries[0]?.time).toBe("number");
      expect(entries[1]).toMatchObject({ req_id: generated, route: "/challenge", status: 401, tier: "public", code: "UNAUTHORIZED" });
      expect(entries[2]).toMatchObject({ route: "/healthz", status: 200 });
      const all = lines.join("\n");
      // Neither the key (in the header, nor in the query the raw path carried) nor any header is logged.
      expect(all).not.toContain(key);
      expect(all.toLowerCase()).not.toContain("authorization");
      expect(all).not.toContain("Bearer");
      expect(all).not.toContain("secret=");
    } finally {
      await service.close();
    }
  });

  it("logs nothing at levels above info, and still echoes the request id", async () => {
    for (const level of ["warn", "silent"] as const) {
      const { lines, url, service } = await loggedService(level);
      const reply = await fetch(`${url}/v1/context`, { headers: { "x-request-id": "quiet" } });
      expect(reply.headers.get("x-request-id")).toBe("quiet");
      await service.close();
      expect(lines).toEqual([]);
    }
  });

  it("temporal-service logs JSON lines on stdout after its listening line, at the config's log_level unless --log-level says otherwise", PROCESS_TEST, async () => {
    const home = await tempDir();
    const config = join(home, "service.json");
    await writeFile(config, JSON.stringify({ log_level: "silent" }));
    const quiet = await startServiceProcess(["--home", home, "--config", config, "--port", "0"]);
    expect((await fetch(`${quiet.url}/v1/context`)).status).toBe(200);
    expect(await quiet.stop()).toEqual({ code: 0, signal: null });
    expect(quiet.stdout()).not.toContain("{");

    const loud = await startServiceProcess(["--home", home, "--config", config, "--port", "0", "--log-level", "info"]);
    expect((await fetch(`${loud.url}/v1/context`, { headers: { "x-request-id": "from-cli" } })).status).toBe(200);
    expect(JSON.parse(await loud.waitFor("stdout", /"req_id":"from-cli"/))).toMatchObject({ level: 30, route: "/context", status: 200 });
    expect(await loud.stop()).toEqual({ code: 0, signal: null });
    expect(loud.stderr()).toBe("");
  });

  it("temporal-service keeps serving when the reader of its log goes away (EPIPE on stdout): the log stops, saying so once on stderr", PROCESS_TEST, async () => {
    const home = await tempDir();
    const service = await startServiceProcess(["--home", home, "--port", "0", "--log-level", "info"]);
    service.child.stdout?.destroy();
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) {
      statuses.push((await fetch(`${service.url}/v1/context`)).status);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(statuses).toEqual(Array(20).fill(200));
    await service.waitFor("stderr", /the request log stopped: stdout failed \(EPIPE\); requests are still served/);
    expect(service.child.exitCode).toBeNull();
    expect(await service.stop()).toEqual({ code: 0, signal: null });
    expect(service.stderr().match(/the request log stopped/g)).toHaveLength(1);
  });

  it("temporal-service refuses an unknown log level, on the command line and in the config, with exit status 2", PROCESS_TEST, async () => {
    const home = await tempDir();
    const flag = runCommand(["--home", home, "--port", "0", "--log-level", "loud"]);
    expect(flag.status).toBe(2);
    expect(flag.stderr).toMatch(/Allowed choices are fatal, error, warn, info, debug, trace, silent/);
    const config = join(home, "service.json");
    await writeFile(config, JSON.stringify({ log_level: "loud" }));
    const file = runCommand(["--home", home, "--config", config, "--port", "0"]);
    expect(file.status).toBe(2);
    expect(file.stderr).toContain("log_level");
  });
});
