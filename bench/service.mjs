#!/usr/bin/env node
// Benchmark of the Temporal Permission Service (@temporal/server): `npm run bench -- service` (or
// `node bench/service.mjs`), on the build that `npm ci` makes (`npm run build` after editing the sources).
//
// Requests/s of the real `temporal-service` process for GET /api/v1/core/state and POST /api/v1/allow,
// against a bare node:http process in the same run that answers the same bytes (status, headers and
// body captured from one real reply of each). Then durable security/tsae + clockchain/anchor pairs per
// second over HTTP (64 connections, each: issue, then anchor the receipt it got), against the SDK's own
// issue + anchor with 64 callers in one process, in the same run.
//
// Fairness on a small machine: every server under test (service, bare, SDK baseline) is a child process
// with one event loop, and autocannon runs in another process (this one by default), so the server and
// the load generator never share an event loop, and the service and its baseline get the same setup.
// The service's request log goes to a file in the bench's temporary directory rather than to a pipe that this process
// drains: draining it cost the load generator about 0.45 µs of CPU per line of about 220 bytes (0.6 µs per 300 bytes
// from a child writing 64 KiB chunks, on the 2-core VM), work it did only while loading the service, never the bare
// server. The service still formats and writes every line, as into a deployment's log file (docs/service.md).
// Runs are interleaved (service, bare, bare, service, ...); figures are medians over the rounds, and each ratio is
// the median of the per-round ratios, so a slow spell of the machine (a shared VM) hits both sides of a ratio.
// 11 rounds, because one round's ratio swung by up to +-0.15 on the 2-core VM: the median of 5 still moved by
// about 0.1 between runs of the same build.
// Measured on 2 cores: autocannon in this process gave the steadiest figures, and the server under test at ~100%
// of a core; in a fresh child process per run it starts cold (no JIT) and the servers idled ~12% more; in the same
// process as the servers the two share one event loop and the figures swung by up to 2x.
//
// Environment: BENCH_SECONDS (per run, default 3), BENCH_ROUNDS (default 11), BENCH_WARMUP_SECONDS (default 3), BENCH_CONNECTIONS (default 64),
// BENCH_LOADGEN = parent (default: autocannon in this process) | child (autocannon in its own process) |
// shared (server and autocannon in this one process; for comparison only, not a fair setup).
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import autocannon from "autocannon";
import { concurrentlyFor, cpuSecondsOfStat, printTable, startChild } from "./harness.mjs";

const SELF = fileURLToPath(import.meta.url);
const SDK = pathToFileURL(fileURLToPath(new URL("../packages/sdk/dist/index.js", import.meta.url))).href;
const SDK_NODE = pathToFileURL(fileURLToPath(new URL("../packages/sdk/dist/node/index.js", import.meta.url))).href;
const SERVER = pathToFileURL(fileURLToPath(new URL("../packages/server/dist/index.js", import.meta.url))).href;
const BIN = fileURLToPath(new URL("../packages/server/bin/temporal-service.js", import.meta.url));

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 11);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const PAIR_CONNECTIONS = 64;
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const LOADGEN = process.env.BENCH_LOADGEN ?? "parent";
const ALLOW_BODY = JSON.stringify({ window: [200, 280], zone: "Z1" });
const UNLIMITED = { burst: 1e9, per_second: 1e9 };

// ------------------------------------------------------------------ load generation (autocannon)

/**
 * One autocannon run described by plain data, so it can run here or in a child process.
 * kind: "state" (GET core/state), "allow" (POST allow), "pairs" (POST security/tsae then POST clockchain/anchor).
 */
async function runLoad({ url, kind, connections, seconds, key }) {
  const { contextAt, createTsaeRequest, sha256Hex } = await import(SDK);
  let anchored = 0;
  let counter = 0;
  const auth = key === undefined ? {} : { authorization: `Bearer ${key}` };
  const json = { "content-type": "application/json", ...auth };
  const requests =
    kind === "state"
      ? [{ method: "GET", path: "/api/v1/core/state", headers: auth }]
      : kind === "allow"
        ? [{ method: "POST", path: "/api/v1/allow", headers: json, body: ALLOW_BODY }]
        : [
            {
              method: "POST",
              path: "/api/v1/security/tsae",
              headers: json,
              // A new action each time, so every anchor is a new leaf (anchoring the same receipt again is idempotent and cheap).
              setupRequest: (request) => ({
                ...request,
                body: JSON.stringify(createTsaeRequest(contextAt(Date.now(), { zone: 1 }), { scope: "bench.service.v1", action_hash_hex: sha256Hex(`${process.pid}:${counter++}`) })),
              }),
              onResponse: (status, body, context) => {
                context.receipt = status === 201 ? body : undefined;
              },
            },
            {
              method: "POST",
              path: "/api/v1/clockchain/anchor",
              headers: json,
              // No receipt (the issue failed): start the pair again.
              setupRequest: (request, context) => (context.receipt === undefined ? undefined : { ...request, body: `{"receipt":${context.receipt}}` }),
              onResponse: (status) => {
                if (status === 200) anchored++;
              },
            },
          ];
  const cpuBefore = process.cpuUsage();
  const result = await autocannon({ url, connections, pipelining: 1, duration: seconds, requests });
  const cpu = process.cpuUsage(cpuBefore);
  const bad = result.errors + result.timeouts + result.non2xx;
  if (bad > 0) throw new Error(`${kind} at ${url}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx ${JSON.stringify(result.statusCodeStats)}`);
  const perSecond = kind === "pairs" ? anchored / result.duration : result.requests.total / result.duration;
  return { perSecond, latencyP50: result.latency.p50, latencyP99: result.latency.p99, loadgenCpu: (cpu.user + cpu.system) / 1e6 / result.duration };
}

async function load(spec) {
  return LOADGEN === "child" ? runRole("loadgen", spec) : runLoad(spec);
}

/** Runs this script as `role` (see the end of the file) with `spec`, and resolves with the JSON it prints. */
async function runRole(role, spec) {
  const child = spawn(process.execPath, [SELF, role, JSON.stringify(spec)], { stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  child.stdout.on("data", (chunk) => (out += chunk));
  const code = await new Promise((resolve) => child.on("exit", resolve));
  if (code !== 0) throw new Error(`${role} exited ${code}`);
  return JSON.parse(out);
}

// ------------------------------------------------------------------ servers under test

/** CPU seconds (user + system) a process has used so far, from /proc (Linux); undefined elsewhere. */
async function cpuSeconds(pid) {
  try {
    return cpuSecondsOfStat(await readFile(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return undefined;
  }
}

/** A bare node:http server that answers each known request with the captured reply, after reading the request body. */
function bareServer(replies) {
  const byRoute = new Map(replies.map(({ method, path, status, headers, body }) => [`${method} ${path}`, { status, headers, body: Buffer.from(body, "base64") }]));
  return createServer((request, response) => {
    const reply = byRoute.get(`${request.method} ${request.url}`);
    request.resume();
    request.on("end", () => {
      if (reply === undefined) {
        response.writeHead(404).end();
        return;
      }
      response.writeHead(reply.status, reply.headers);
      response.end(reply.body);
    });
  });
}

/** The SDK's own issue + anchor, `callers` at once, for `seconds`, in one process: the pairs baseline. */
async function sdkPairs({ home, callers, seconds }) {
  const { contextAt, createTsaeRequest, sha256Hex } = await import(SDK);
  const { createLocalAuthority } = await import(SDK_NODE);
  const authority = createLocalAuthority({ home });
  let counter = 0;
  const request = () => createTsaeRequest(contextAt(Date.now(), { zone: 1 }), { scope: "bench.service.v1", action_hash_hex: sha256Hex(`sdk:${counter++}`) });
  await authority.anchor(await authority.issueReceipt(request())); // opens the home and creates the key outside the timing
  // Anchor a copy, as the service does with the receipt a client sends back: the authority then verifies its
  // signature (it skips that for the very object it issued), so the baseline does the same work minus HTTP.
  const { count, seconds: elapsed } = await concurrentlyFor(callers, seconds, async () => {
    const receipt = await authority.issueReceipt(request());
    await authority.anchor(JSON.parse(JSON.stringify(receipt)));
  });
  const perSecond = count / elapsed;
  await authority.close();
  return { perSecond };
}

async function runSdkBaseline(spec) {
  return LOADGEN === "shared" ? sdkPairs(spec) : runRole("sdk", spec);
}

// ------------------------------------------------------------------ the benchmark

async function captureReply(url, method, path, body) {
  const response = await fetch(url + path, { method, ...(body === undefined ? {} : { headers: { "content-type": "application/json" }, body }) });
  const bytes = Buffer.from(await response.arrayBuffer());
  const headers = {};
  // Date, Connection and Keep-Alive are written by node:http for both servers alike.
  for (const [name, value] of response.headers) if (!["date", "connection", "keep-alive", "transfer-encoding"].includes(name)) headers[name] = value;
  if (response.status !== 200) throw new Error(`${method} ${path}: ${response.status} ${bytes}`);
  return { method, path, status: response.status, headers, body: bytes.toString("base64") };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const fmt = (n) => `${Math.round(n).toLocaleString("en-US")} /s`;
const pct = (n) => (n === undefined ? "" : `${Math.round(n * 100)}%`);

async function main() {
  const dir = await mkdtemp(join(tmpdir(), "temporal-service-bench-"));
  const stops = [];
  try {
    // The real service: a home, a config with the rate limits lifted, one enterprise key made by the CLI.
    const home = join(dir, "home");
    const config = join(dir, "service.json");
    await writeFile(config, JSON.stringify({ rate_limit: { per_ip: UNLIMITED, per_key: UNLIMITED } }));
    const created = spawn(process.execPath, [BIN, "keys", "create", "--tier", "enterprise", "--home", home, "--config", config], { stdio: ["ignore", "pipe", "ignore"] });
    let key = "";
    created.stdout.on("data", (chunk) => (key += chunk));
    if ((await new Promise((resolve) => created.on("exit", resolve))) !== 0) throw new Error("keys create failed");
    key = key.trim();

    let service;
    let bare;
    if (LOADGEN === "shared") {
      const { createService, loadConfig } = await import(SERVER);
      const running = createService({ home, config: await loadConfig(config, false) });
      await running.authority.ready();
      service = { url: await running.listen({ host: "127.0.0.1", port: 0 }), pid: process.pid, stop: () => running.close() };
    } else {
      // The request log (one JSON line per request, on by default) goes to a file, as in a deployment: the service
      // formats and writes every line, and the load generator (this process) does not read them (see the header).
      service = await startChild([BIN, "--port", "0", "--home", home, "--config", config], { stdoutFile: join(dir, "service.log") });
    }
    stops.push(() => service.stop());

    const replies = [await captureReply(service.url, "GET", "/api/v1/core/state"), await captureReply(service.url, "POST", "/api/v1/allow", ALLOW_BODY)];
    const repliesFile = join(dir, "replies.json");
    await writeFile(repliesFile, JSON.stringify(replies));
    if (LOADGEN === "shared") {
      const server = bareServer(replies);
      await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
      bare = { url: `http://127.0.0.1:${server.address().port}`, pid: process.pid, stop: () => new Promise((resolve) => server.close(resolve)) };
    } else {
      bare = await startChild([SELF, "bare", repliesFile]);
    }
    stops.push(() => bare.stop());

    /** One measured run, with the CPU the server process used per second of it (1.0 = one core busy). */
    const measure = async (target, kind, connections, seconds) => {
      const cpuBefore = await cpuSeconds(target.pid);
      const started = performance.now();
      const result = await load({ url: target.url, kind, connections, seconds, key });
      const cpuAfter = await cpuSeconds(target.pid);
      const serverCpu = cpuBefore === undefined || LOADGEN === "shared" ? undefined : (cpuAfter - cpuBefore) / ((performance.now() - started) / 1000);
      return { ...result, serverCpu };
    };

    // Warm up each target (JIT, and the service's first anchors) before anything is measured: with 1 s the
    // service's first measured round still ran about 25% slower than its later ones.
    for (const kind of ["state", "allow"]) for (const target of [service, bare]) await measure(target, kind, CONNECTIONS, WARMUP_SECONDS);
    await measure(service, "pairs", PAIR_CONNECTIONS, WARMUP_SECONDS);

    const samples = { state: { service: [], bare: [] }, allow: { service: [], bare: [] }, pairs: { service: [], sdk: [] } };
    for (let round = 0; round < ROUNDS; round++) {
      for (const kind of ["state", "allow"]) {
        // Alternate which target goes first, so neither always runs on the warmer (or noisier) side of the pair.
        const order = round % 2 === 0 ? ["service", "bare"] : ["bare", "service"];
        for (const name of order) samples[kind][name].push(await measure(name === "service" ? service : bare, kind, CONNECTIONS, SECONDS));
      }
      const pairOrder = round % 2 === 0 ? ["service", "sdk"] : ["sdk", "service"];
      for (const name of pairOrder) {
        if (name === "service") samples.pairs.service.push(await measure(service, "pairs", PAIR_CONNECTIONS, SECONDS));
        else samples.pairs.sdk.push(await runSdkBaseline({ home: join(dir, `sdk-${round}`), callers: PAIR_CONNECTIONS, seconds: SECONDS }));
      }
    }

    const summary = (list) => ({
      perSecond: median(list.map((s) => s.perSecond)),
      spread: (Math.max(...list.map((s) => s.perSecond)) - Math.min(...list.map((s) => s.perSecond))) / median(list.map((s) => s.perSecond)),
      serverCpu: list[0].serverCpu === undefined ? undefined : median(list.map((s) => s.serverCpu)),
      loadgenCpu: list[0].loadgenCpu === undefined ? undefined : median(list.map((s) => s.loadgenCpu)),
      p99: list[0].latencyP99 === undefined ? undefined : median(list.map((s) => s.latencyP99)),
    });
    const pairedRatio = (a, b) => median(a.map((sample, i) => sample.perSecond / b[i].perSecond));
    const rows = [];
    for (const [kind, label] of [
      ["state", "GET /api/v1/core/state"],
      ["allow", "POST /api/v1/allow"],
    ]) {
      const s = summary(samples[kind].service);
      const b = summary(samples[kind].bare);
      const ratio = pairedRatio(samples[kind].service, samples[kind].bare);
      rows.push([
        `${label}, ${CONNECTIONS} conns`,
        fmt(s.perSecond),
        `${fmt(b.perSecond)} bare node:http, same bytes`,
        ratio.toFixed(2),
        ">= 0.7",
        ratio >= 0.7 ? "yes" : "NO",
        `${pct(s.serverCpu)} / ${pct(b.serverCpu)}`,
        `${pct(s.loadgenCpu)} / ${pct(b.loadgenCpu)}`,
        `${s.p99} / ${b.p99} ms`,
        `${pct(s.spread)} / ${pct(b.spread)}`,
      ]);
    }
    const sp = summary(samples.pairs.service);
    const sdk = summary(samples.pairs.sdk);
    rows.push([
      `tsae+anchor pairs, ${PAIR_CONNECTIONS} conns (durable)`,
      fmt(sp.perSecond),
      `${fmt(sdk.perSecond)} SDK issue+anchor(copy), ${PAIR_CONNECTIONS} callers, 1 process`,
      pairedRatio(samples.pairs.service, samples.pairs.sdk).toFixed(2),
      "",
      "",
      `${pct(sp.serverCpu)} / -`,
      `${pct(sp.loadgenCpu)} / -`,
      `${sp.p99} ms / -`,
      `${pct(sp.spread)} / ${pct(sdk.spread)}`,
    ]);
    const header = ["measure", "service", "baseline (same run)", "ratio", "target", "met", "server CPU s/b", "loadgen CPU s/b", "p99 latency s/b", "spread s/b"];
    printTable(
      `@temporal/server (median of ${ROUNDS} interleaved ${SECONDS} s runs; autocannon: ${LOADGEN === "parent" ? "in the bench process" : LOADGEN === "child" ? "in a child process" : "in the same process as the servers"})`,
      [header, ...rows],
    );
    const k = (list) => list.map((sample) => `${(sample.perSecond / 1000).toFixed(1)}k`).join(" ");
    console.log("  samples in run order (service | baseline):");
    for (const [kind, label] of [
      ["state", "core/state"],
      ["allow", "allow"],
    ])
      console.log(`    ${label.padEnd(10)} ${k(samples[kind].service)} | ${k(samples[kind].bare)}`);
    console.log(`    ${"pairs".padEnd(10)} ${k(samples.pairs.service)} | ${k(samples.pairs.sdk)}`);
    // On a machine shared with other work the servers often get far less than a core, and then requests/s measure the
    // machine's load more than the server. CPU time per request does not depend on how much CPU a server got: the
    // ratio of the bare server's to the service's is the throughput ratio both would reach with a whole core each.
    const cpuPerRequest = (sample) => (sample.serverCpu * 1e6) / sample.perSecond;
    if (samples.state.service[0].serverCpu !== undefined) {
      console.log("  server CPU per request, service / bare (median), and bare/service (median of the per-round ratios):");
      for (const [kind, label] of [
        ["state", "core/state"],
        ["allow", "allow"],
      ]) {
        const service = samples[kind].service.map(cpuPerRequest);
        const bare = samples[kind].bare.map(cpuPerRequest);
        const ratio = median(service.map((us, i) => bare[i] / us));
        console.log(`    ${label.padEnd(10)} ${median(service).toFixed(1)} / ${median(bare).toFixed(1)} µs  ${ratio.toFixed(2)} ${ratio >= 0.7 ? "(>= 0.7)" : "(BELOW 0.7)"}`);
      }
    }
    console.log("  ratio: median of the per-round ratios; server CPU: CPU time of the server process per second of run (100% = one core);");
    console.log("  loadgen CPU: the same for autocannon; spread: (max - min) / median over the rounds");
    console.log(`  pairs/s counts anchors answered 200; each pair is two HTTP requests (node ${process.version}, ${tmpdir()})`);
  } finally {
    for (const stop of stops.reverse()) await stop();
    await rm(dir, { recursive: true, force: true });
  }
}

// ------------------------------------------------------------------ roles of the child processes

const role = process.argv[2];
if (role === "loadgen") {
  process.stdout.write(JSON.stringify(await runLoad(JSON.parse(process.argv[3]))));
  process.exit(0);
}
if (role === "sdk") {
  process.stdout.write(JSON.stringify(await sdkPairs(JSON.parse(process.argv[3]))));
  process.exit(0);
}
if (role === "bare") {
  const replies = JSON.parse(await readFile(process.argv[3], "utf8"));
  const server = bareServer(replies).listen(0, "127.0.0.1", () => process.stdout.write(`listening on http://127.0.0.1:${server.address().port}\n`));
  process.on("SIGTERM", () => server.close(() => process.exit(0)));
} else {
  await main();
}
