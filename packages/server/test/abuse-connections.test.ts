import { spawnSync } from "node:child_process";
import { once } from "node:events";
import { Agent, request } from "node:http";
import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_CONFIG, type ServiceConfig } from "../src/index.js";
import { startService, tempDir } from "./helpers.js";
import { startServiceProcess } from "./service-process.js";

/** The address slow clients connect from; Linux loopback answers all of 127/8, so the normal client (127.0.0.1) is another address. */
const ATTACKER = "127.0.0.2";
const SLOW_HEADERS = "GET /api/v1/core/state HTTP/1.1\r\nHost: x\r\nX-Slow: ";
const SLOW_BODY = "POST /api/v1/allow HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{";

const opened: Socket[] = [];
afterEach(() => {
  for (const socket of opened.splice(0)) socket.destroy();
});

interface SlowClient {
  readonly socket: Socket;
  /** Resolves when the server closes the connection, with what it sent. */
  readonly closed: Promise<string>;
}

/** A connection from `localAddress` that sends `start` and then nothing more. */
async function slowClient(port: number, localAddress: string, start: string): Promise<SlowClient> {
  const socket = connect({ port, host: "127.0.0.1", localAddress });
  opened.push(socket);
  let received = "";
  socket.on("data", (chunk: Buffer) => (received += chunk.toString("latin1")));
  const closed = new Promise<string>((resolve) => socket.on("close", () => resolve(received)));
  // A refused socket may be reset before or after it connects: either way it is closed, not an error of the test.
  socket.on("error", () => {});
  await Promise.race([once(socket, "connect"), closed]);
  if (!socket.destroyed) socket.write(start);
  return { socket, closed };
}

/** `count` slow clients, opened `batch` at a time so the test does not overflow the listen backlog. */
async function slowClients(port: number, count: number, start: string, batch = 250): Promise<SlowClient[]> {
  const clients: SlowClient[] = [];
  for (let i = 0; i < count; i += batch) clients.push(...(await Promise.all(Array.from({ length: Math.min(batch, count - i) }, () => slowClient(port, ATTACKER, start)))));
  return clients;
}

/** How many of `clients` the server still holds, once the count has stopped changing (the refusals may take a while to arrive on a loaded machine). */
async function held(clients: readonly SlowClient[]): Promise<number> {
  const count = () => clients.filter(({ socket }) => !socket.destroyed && !socket.readableEnded).length;
  let last = -1;
  let steady = 0;
  for (let waitedMs = 0; steady < 3 && waitedMs < 10_000; waitedMs += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = count();
    steady = now === last ? steady + 1 : 0;
    last = now;
  }
  return last;
}

/** `total` GETs from 127.0.0.1, `parallel` at a time over kept-alive connections; the number answered 200. */
async function normalClientAnswers(url: string, total: number, parallel: number): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: parallel, localAddress: "127.0.0.1" });
  let answered = 0;
  const one = () =>
    new Promise<void>((resolve) => {
      const req = request(`${url}/api/v1/core/state`, { agent, timeout: 5000 }, (response) => {
        response.resume();
        response.on("end", () => {
          if (response.statusCode === 200) answered++;
          resolve();
        });
      });
      req.on("timeout", () => req.destroy());
      req.on("error", () => resolve());
      req.end();
    });
  const worker = async (share: number) => {
    for (let i = 0; i < share; i++) await one();
  };
  await Promise.all(Array.from({ length: parallel }, (_, i) => worker(Math.floor(total / parallel) + (i < total % parallel ? 1 : 0))));
  agent.destroy();
  return answered;
}

const HAS_PRLIMIT = spawnSync("prlimit", ["--version"]).status === 0;

const portOf = (url: string) => Number(new URL(url).port);
const limits = (overrides: Partial<ServiceConfig["limits"]>): Pick<ServiceConfig, "limits"> => ({ limits: { ...DEFAULT_CONFIG.limits, ...overrides } });

describe("temporal-service holds under slow and numerous connections", () => {
  for (const [variant, start] of [
    ["slow headers", SLOW_HEADERS],
    ["slow bodies", SLOW_BODY],
  ] as const) {
    it(`with 2,000 connections of ${variant} from one address, another address gets >= 99% of 200 requests answered (default limits)`, { timeout: 60_000 }, async () => {
      const { url } = await startService();
      const attackers = await slowClients(portOf(url), 2000, start);
      // The default cap per address holds 256 of them; the rest are closed as they arrive, without an answer.
      expect(await held(attackers)).toBe(DEFAULT_CONFIG.limits.max_connections_per_address);
      const answered = await normalClientAnswers(url, 200, 8);
      expect(answered).toBeGreaterThanOrEqual(198);
      // The held ones are still held: the timeouts (10 s, 30 s) did not do this.
      expect(await held(attackers)).toBe(DEFAULT_CONFIG.limits.max_connections_per_address);
    });
  }

  it("closes slow headers after headers_timeout_ms and slow bodies after request_timeout_ms with 408 REQUEST_TIMEOUT", { timeout: 20_000 }, async () => {
    const { url } = await startService(limits({ headers_timeout_ms: 300, request_timeout_ms: 800 }));
    const startedMs = Date.now();
    const [headers, body] = await Promise.all([slowClient(portOf(url), ATTACKER, SLOW_HEADERS), slowClient(portOf(url), ATTACKER, SLOW_BODY)]);
    const headersReply = await headers.closed;
    const headersMs = Date.now() - startedMs;
    const bodyReply = await body.closed;
    const bodyMs = Date.now() - startedMs;
    for (const reply of [headersReply, bodyReply]) {
      expect(reply).toMatch(/^HTTP\/1\.1 408 /);
      expect(reply).toContain('"code":"REQUEST_TIMEOUT"');
    }
    // Node checks the timeouts every tenth of the shortest, so a connection outlives its timeout by little.
    expect(headersMs).toBeGreaterThanOrEqual(250);
    expect(headersMs).toBeLessThan(2000);
    expect(bodyMs).toBeGreaterThanOrEqual(700);
    expect(bodyMs).toBeLessThan(3000);
  });

  it("caps connections overall; a trusted proxy is not capped per address", { timeout: 20_000 }, async () => {
    const overall = await startService(limits({ max_connections: 40, max_connections_per_address: 1000 }));
    const many = await slowClients(portOf(overall.url), 60, SLOW_HEADERS);
    expect(await held(many)).toBe(40);
    for (const { socket } of many) socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await normalClientAnswers(overall.url, 5, 1)).toBe(5);

    const proxied = await startService({ ...limits({ max_connections_per_address: 5 }), trust_proxy: ["127.0.0.3"] });
    const fromProxy = await Promise.all(Array.from({ length: 12 }, () => slowClient(portOf(proxied.url), "127.0.0.3", SLOW_HEADERS)));
    const fromClient = await slowClients(portOf(proxied.url), 12, SLOW_HEADERS);
    expect([await held(fromProxy), await held(fromClient)]).toEqual([12, 5]);
  });

  it("a reconfigure changes the caps for the next connections", { timeout: 20_000 }, async () => {
    const { url, service, config } = await startService(limits({ max_connections_per_address: 3 }));
    expect(await held(await slowClients(portOf(url), 6, SLOW_HEADERS))).toBe(3);
    service.reconfigure({ ...config, ...limits({ max_connections_per_address: 6 }) });
    expect(await held(await slowClients(portOf(url), 6, SLOW_HEADERS))).toBe(3);
  });

  it.skipIf(!HAS_PRLIMIT)("at the file descriptor limit, connections it cannot accept are closed and the service keeps serving (no crash on EMFILE)", { timeout: 30_000 }, async () => {
    const service = await startServiceProcess(["--port", "0", "--home", await tempDir()]);
    // Far below limits.max_connections, as on a machine whose `ulimit -n` was left at a low default.
    expect(spawnSync("prlimit", ["--pid", String(service.child.pid), "--nofile=100:100"]).status).toBe(0);
    const flood = await slowClients(portOf(service.url), 200, SLOW_HEADERS, 50);
    const refused = flood.length - (await held(flood));
    expect(refused).toBeGreaterThan(100);
    for (const { socket } of flood) socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await normalClientAnswers(service.url, 5, 1)).toBe(5);
    expect(service.child.exitCode).toBeNull();
    expect((await service.stop()).code).toBe(0);
  });
});
