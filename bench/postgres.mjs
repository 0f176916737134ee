#!/usr/bin/env node
// Benchmark of several temporal-service nodes on one PostgreSQL (issue 16): `npm run bench -- postgres`, on the
// build that `npm ci` makes (`npm run build` after editing the sources). Needs Debian's `postgresql` package
// (/usr/lib/postgresql/<version>/bin), which the test harness of @temporal/store-postgres runs on loopback with a
// throw-away data directory and fsync on.
//
// Durable security/tsae + clockchain/anchor pairs per second with 64 clients spread over 2 nodes (each client: issue,
// then anchor the receipt it got, over keep-alive HTTP), against the same PostgreSQL's bare single-row INSERT
// transactions per second (autocommit: INSERT + COMMIT) from 64 clients (a pg Pool of 64), in the same run. The
// target is a ratio >= 0.5: each anchor is a durable commit, so only group commit (many anchors per transaction)
// gets near the database's own commit rate. Rounds are interleaved (each starting with another measure) and the
// ratio is the median of the per-round ratios, so a slow spell of the shared machine hits both sides.
//
// A second row, for diagnosis, runs the same pairs through NODES PostgresStores inside this process (no HTTP, no
// request logs): when it is far above the first, the nodes' CPU (HTTP, signatures) is the limit, not the store.
// A last line gives the CPU milliseconds per operation of the nodes, PostgreSQL and this process (Linux /proc),
// which the shared machine's load moves much less than the rates.
//
// Environment: BENCH_SECONDS (per run, default 5), BENCH_ROUNDS (default 3), BENCH_WARMUP_SECONDS (default 3), BENCH_NODES (default 2).
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { connect } from "node:net";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import pg from "pg";
import { concurrentlyFor, cpuSecondsOfStat, printTable, startChild } from "./harness.mjs";

const dist = (path) => pathToFileURL(fileURLToPath(new URL(`../packages/${path}`, import.meta.url))).href;
const { contextAt, createAuthority, createTsaeRequest, MemorySigner, sha256Hex } = await import(dist("sdk/dist/index.js"));
const { createSigningKeyFile } = await import(dist("sdk/dist/node/index.js"));
const { createApiKey } = await import(dist("sdk/dist/service/index.js"));
const { openPostgresStore } = await import(dist("store-postgres/dist/index.js"));
const { startPostgres } = await import(dist("store-postgres/dist/testing.js"));
const BIN = fileURLToPath(new URL("../packages/server/bin/temporal-service.js", import.meta.url));

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const CLIENTS = 64;
const NODES = Number(process.env.BENCH_NODES ?? 2);
const TARGET = 0.5;
const UNLIMITED = { burst: 1e9, per_second: 1e9 };

/**
 * One kept-alive HTTP/1.1 connection, one request at a time, as a pg Client is one connection and one query at a
 * time: the request is written in one piece, the reply's status line and Content-Length read and its JSON body
 * parsed. Node's http client does the same with several times the CPU (agent, header objects, events), which on
 * this machine the nodes under test would pay for, not the baseline's pg Pool.
 */
class Connection {
  #socket;
  #chunks = [];
  #length = 0;
  /** The request waiting for its reply: { resolve, reject, expected, what }. */
  #waiting;
  #failure;

  constructor(url) {
    this.#socket = connect({ host: url.hostname, port: Number(url.port), noDelay: true });
    this.#socket.on("data", (chunk) => this.#received(chunk));
    const fail = (error) => {
      this.#failure ??= error ?? new Error(`${url.host} closed the connection`);
      this.#waiting?.reject(this.#failure);
      this.#waiting = undefined;
    };
    this.#socket.on("error", fail);
    this.#socket.on("close", () => fail());
  }

  /** POSTs JSON; resolves with the parsed reply, rejects unless the status is `expected`. */
  post(path, body, key, expected) {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    const payload = JSON.stringify(body);
    return new Promise((resolve, reject) => {
      this.#waiting = { resolve, reject, expected, what: `POST ${path}` };
      this.#socket.write(
        `POST ${path} HTTP/1.1\r\nhost: bench\r\nauthorization: Bearer ${key}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(payload)}\r\n\r\n${payload}`,
      );
    });
  }

  close() {
    this.#socket.destroy();
  }

  #received(chunk) {
    this.#chunks.push(chunk);
    this.#length += chunk.length;
    const data = this.#chunks.length === 1 ? chunk : Buffer.concat(this.#chunks, this.#length);
    const headEnd = data.indexOf("\r\n\r\n");
    if (headEnd < 0) return;
    const head = data.toString("latin1", 0, headEnd);
    const length = /\r\ncontent-length: *(\d+)/i.exec(head);
    if (length === null) return this.#socket.destroy(new Error(`a reply without Content-Length: ${head}`));
    const bodyEnd = headEnd + 4 + Number(length[1]);
    if (data.length < bodyEnd) {
      this.#chunks = [data];
      return;
    }
    // One request at a time, so nothing follows the reply.
    this.#chunks = [];
    this.#length = 0;
    const waiting = this.#waiting;
    if (waiting === undefined) return this.#socket.destroy(new Error(`a reply to no request: ${head}`));
    this.#waiting = undefined;
    const status = Number(head.slice(9, 12));
    const text = data.toString("utf8", headEnd + 4, bodyEnd);
    if (status === waiting.expected) waiting.resolve(JSON.parse(text));
    else waiting.reject(new Error(`${waiting.what}: ${status} ${text}`));
  }
}

/** The idle connections to one node: a request takes one (or opens one) and gives it back once answered. */
class Connections {
  #url;
  #idle = [];
  #all = new Set();

  constructor(url) {
    this.#url = new URL(url);
  }

  async post(path, body, key, expected) {
    const connection = this.#idle.pop() ?? this.#open();
    const reply = await connection.post(path, body, key, expected);
    this.#idle.push(connection);
    return reply;
  }

  close() {
    for (const connection of this.#all) connection.close();
  }

  #open() {
    const connection = new Connection(this.#url);
    this.#all.add(connection);
    return connection;
  }
}

/** A fresh TSAE request (a new action hash each time, so every anchor adds a leaf). */
const tsaeRequest = (n) => createTsaeRequest(contextAt(Date.now(), { zone: 1 }), { scope: "bench.postgres.v1", action_hash_hex: sha256Hex(`${process.pid}:${n}:${Math.random()}`) });

/** Anchors per second: CLIENTS loops, client i on node i mod NODES, each issuing a receipt and anchoring it. */
async function servicePairs(connections, key, seconds) {
  const { count, seconds: elapsed } = await concurrentlyFor(CLIENTS, seconds, async (n) => {
    const node = connections[n % connections.length];
    const receipt = await node.post("/api/v1/security/tsae", tsaeRequest(n), key, 201);
    await node.post("/api/v1/clockchain/anchor", { receipt }, key, 200);
  });
  return { count, elapsed };
}

/** NODES authorities in this process, each over its own PostgresStore on `url`, all signing with one key. */
async function openStores(url) {
  const pair = await crypto.subtle.generateKey({ name: "Ed25519" }, true, ["sign", "verify"]);
  const privateKey = await crypto.subtle.exportKey("jwk", pair.privateKey);
  return Promise.all(
    Array.from({ length: NODES }, async (_, i) => {
      const store = openPostgresStore({ url, nodeId: `bench-store-${i}` });
      const authority = createAuthority({ signer: new MemorySigner({ privateKey }), log: store.log, challenges: store.challenges });
      await authority.ready();
      return { authority, close: () => authority.close().then(() => store.close()) };
    }),
  );
}

/** The same pairs as `servicePairs`, through the stores directly. */
async function storePairs(stores, seconds) {
  const { count, seconds: elapsed } = await concurrentlyFor(CLIENTS, seconds, async (n) => {
    const { authority } = stores[n % stores.length];
    await authority.anchor(await authority.issueReceipt(tsaeRequest(n)));
  });
  return { count, elapsed };
}

/** Single-row INSERT transactions per second from CLIENTS clients: the database's own rate of durable commits. */
async function bareInserts(pool, seconds) {
  const { count, seconds: elapsed } = await concurrentlyFor(CLIENTS, seconds, (n) => pool.query("INSERT INTO bench_rows (payload) VALUES ($1)", [sha256Hex(`row ${n}`)]));
  return { count, elapsed };
}

/** Process id -> CPU seconds (user + system) used so far, for those of `pids` still running (Linux: /proc). */
async function cpuSecondsOf(pids) {
  const seconds = new Map();
  await Promise.all(
    pids.map(async (pid) => {
      const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => undefined);
      if (stat === undefined) return;
      seconds.set(pid, cpuSecondsOfStat(stat));
    }),
  );
  return seconds;
}

/** The CPU seconds the processes used between two readings: a process started meanwhile counts whole, one that ended meanwhile not at all. */
function cpuBetween(before, after) {
  let total = 0;
  for (const [pid, seconds] of after) total += seconds - (before.get(pid) ?? 0);
  return total;
}

/** PostgreSQL's processes: its backends (every connection) and background processes, such as the WAL writer. */
async function postgresPids(pool) {
  return (await pool.query("SELECT pid FROM pg_stat_activity")).rows.map((row) => row.pid);
}

/**
 * Runs `measure` and returns its rate with the CPU milliseconds per operation that the nodes, PostgreSQL (its
 * backends and background processes) and this process spent: on a shared machine the rates move with the load,
 * the CPU per operation much less, so it shows where a pair's cost goes.
 */
async function withCpu(measure, seconds, pool, nodePids) {
  const before = { nodes: await cpuSecondsOf(nodePids), postgres: await cpuSecondsOf(await postgresPids(pool)), client: process.cpuUsage() };
  const { count, elapsed } = await measure(seconds);
  const client = process.cpuUsage(before.client);
  const perOp = (cpuSeconds) => (cpuSeconds * 1000) / count;
  return {
    rate: count / elapsed,
    cpu: {
      nodes: perOp(cpuBetween(before.nodes, await cpuSecondsOf(nodePids))),
      postgres: perOp(cpuBetween(before.postgres, await cpuSecondsOf(await postgresPids(pool)))),
      client: perOp((client.user + client.system) / 1e6),
    },
  };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const fmt = (n) => `${Math.round(n).toLocaleString("en-US")} /s`;

async function main() {
  const dir = await mkdtemp(join(tmpdir(), "temporal-postgres-bench-"));
  const postgres = await startPostgres();
  const stops = [() => postgres.stop(), () => rm(dir, { recursive: true, force: true })];
  try {
    const pool = new pg.Pool({ connectionString: await postgres.createDatabase(), max: CLIENTS });
    stops.push(() => pool.end());
    await pool.query("CREATE TABLE bench_rows (id bigserial PRIMARY KEY, payload text NOT NULL)");
    // Both sides commit durably: each commit waits for its WAL flush (the server's default, which the store relies on).
    const durability = (await pool.query("SELECT current_setting('synchronous_commit') AS sync, current_setting('fsync') AS fsync")).rows[0];
    if (durability.sync !== "on" || durability.fsync !== "on") throw new Error(`the bench needs synchronous_commit and fsync on, not ${JSON.stringify(durability)}`);

    const keyFile = join(dir, "signing-key.pem");
    await createSigningKeyFile(keyFile);
    const { key, record } = createApiKey("enterprise", "bench", new Date());
    const config = join(dir, "service.json");
    // Kept-alive connections outlive the bare rounds between service rounds: with the default 5 s the nodes close them
    // while idle, and a request racing that close fails with ECONNRESET on a loaded machine.
    const limits = { keep_alive_timeout_ms: 300_000 };
    await writeFile(config, JSON.stringify({ keys: [record], rate_limit: { per_ip: UNLIMITED, per_key: UNLIMITED }, limits }));
    const storeUrl = await postgres.createDatabase();
    const nodes = [];
    for (let i = 0; i < NODES; i++) {
      nodes.push(await startChild([BIN, "--store", storeUrl, "--signing-key", keyFile, "--node-id", `bench-${i}`, "--home", join(dir, `home-${i}`), "--config", config, "--port", "0"]));
      stops.push(() => nodes[i].stop());
    }
    const connections = nodes.map((node) => new Connections(node.url));
    stops.push(() => connections.forEach((node) => node.close()));
    const stores = await openStores(await postgres.createDatabase());
    stops.push(() => Promise.all(stores.map((store) => store.close())));

    const measures = { service: (seconds) => servicePairs(connections, key, seconds), bare: (seconds) => bareInserts(pool, seconds), store: (seconds) => storePairs(stores, seconds) };
    for (const measure of Object.values(measures)) await measure(WARMUP_SECONDS);
    const samples = { service: [], bare: [], store: [] };
    const cpu = { service: [], bare: [], store: [] };
    const names = Object.keys(measures);
    const nodePids = nodes.map((node) => node.pid);
    for (let round = 0; round < ROUNDS; round++) {
      // Each round starts with another measure, so none always follows the same one.
      for (const name of [...names.slice(round % names.length), ...names.slice(0, round % names.length)]) {
        const sample = await withCpu(measures[name], SECONDS, pool, nodePids);
        samples[name].push(sample.rate);
        cpu[name].push(sample.cpu);
      }
    }
    const ratioOf = (name) => median(samples[name].map((value, i) => value / samples.bare[i]));
    const ratio = ratioOf("service");
    const service = median(samples.service);
    printTable(`temporal-service on PostgreSQL (median of ${ROUNDS} interleaved ${SECONDS} s runs, ${CLIENTS} clients)`, [
      ["measure", "per second", "baseline (same run)", "ratio", "target", "met"],
      [
        `durable tsae+anchor pairs, ${NODES} nodes`,
        fmt(service),
        `${fmt(median(samples.bare))} bare INSERT+COMMIT, pg Pool of ${CLIENTS}`,
        ratio.toFixed(2),
        `>= ${TARGET}`,
        ratio >= TARGET ? "yes" : "NO",
      ],
      [`the same pairs through ${NODES} stores in-process (no HTTP)`, fmt(median(samples.store)), "the same", ratioOf("store").toFixed(2), "-", "-"],
    ]);
    const k = (list) => list.map((value) => Math.round(value)).join(" ");
    console.log(`  samples by round: service ${k(samples.service)} | bare ${k(samples.bare)} | store ${k(samples.store)}`);
    const ms = (name, part) => median(cpu[name].map((sample) => sample[part])).toFixed(2);
    console.log(
      `  CPU ms per operation (median): pair over HTTP: nodes ${ms("service", "nodes")}, PostgreSQL ${ms("service", "postgres")}, client ${ms("service", "client")}` +
        ` | bare insert: PostgreSQL ${ms("bare", "postgres")}, client ${ms("bare", "client")} | pair in-process: PostgreSQL ${ms("store", "postgres")}, this process ${ms("store", "client")}`,
    );
    console.log(`  for scale: Trillian's published figure is 400-500 appends/s on MySQL; here ${fmt(service)} durable anchors (node ${process.version})`);
    console.log(
      `  synchronous_commit ${durability.sync}, fsync ${durability.fsync}; load average ${loadavg()
        .map((n) => n.toFixed(1))
        .join(" ")} on ${availableParallelism()} cores`,
    );
  } finally {
    for (const stop of stops.reverse()) await stop();
  }
}

await main();
