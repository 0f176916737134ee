#!/usr/bin/env node
// Benchmark of witnessing (docs/witness.md): `npm run bench -- witness`, on the build `npm ci` makes.
//
// - Issue+anchor per second of a memory authority with 4 `temporal-witness` processes and quorum 3, against the same
//   authority without witnesses, in the same run (turns alternate, so both share the machine's noise). Anchors return
//   PROVISIONAL at once; the submissions run beside the appends. Target: ratio >= 0.8.
// - p50/p99 time from anchor to FINAL (anchor(receipt, { quorum: 3 })) at the default interval (1 s), anchors spread
//   over the interval at random.
// Environment: BENCH_SECONDS (each throughput turn, default 2), BENCH_TURNS (default 3), BENCH_FINAL_ANCHORS (default 60).
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { concurrentlyFor, fixed, printTable } from "./harness.mjs";

const dist = (pkg, entry) => fileURLToPath(new URL(`../packages/${pkg}/dist/${entry}`, import.meta.url));
const { MemorySigner, authorityVerifierKey, contextAt, createMemoryAuthority, createTsaeRequest, sha256Hex, tileVerifierKey } = await import(dist("sdk", "index.js"));
const { createWitnessKey } = await import(dist("witness", "index.js"));
const WITNESS_BIN = fileURLToPath(new URL("../packages/witness/bin/temporal-witness.js", import.meta.url));

const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const TURNS = Number(process.env.BENCH_TURNS ?? 3);
const FINAL_ANCHORS = Number(process.env.BENCH_FINAL_ANCHORS ?? 60);
const CALLERS = 16;
const AUTHORITY_NAME = "bench.witness";
/** One tile for the throughput turns, another for the time to FINAL: a second log under the same key in one tile would be a fork. */
const CONTEXTS = [contextAt(Date.UTC(2026, 0, 5, 3), { zone: 1 }), contextAt(Date.UTC(2026, 0, 5, 3), { zone: 2 })];
const request = (tag, n, context = CONTEXTS[0]) => createTsaeRequest(context, { scope: "bench.witness.v1", action_hash_hex: sha256Hex(`${tag}:${n}`) });

/** Starts `temporal-witness` on a free loopback port; resolves with its URL and a stop function. */
async function startWitness(config) {
  const child = spawn(process.execPath, [WITNESS_BIN, "--config", config, "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise((resolve, reject) => {
    lines.on("line", (line) => line.startsWith("listening on ") && resolve(line.slice("listening on ".length)));
    child.once("exit", (code) => reject(new Error(`temporal-witness exited ${code}`)));
  });
  return { url, stop: () => new Promise((resolve) => (child.once("exit", resolve), child.kill("SIGTERM"))) };
}

const directory = await mkdtemp(join(tmpdir(), "temporal-witness-bench-"));
const signer = new MemorySigner();
const { verifying } = await signer.load();
const logs = CONTEXTS.map(({ tile_id }) => {
  const key = tileVerifierKey(authorityVerifierKey(verifying.jwk, AUTHORITY_NAME), tile_id);
  return { origin: key.split("+")[0], keys: [key] };
});
const witnesses = [];
try {
  for (let n = 1; n <= 4; n++) {
    const folder = join(directory, `w${n}`);
    await mkdir(folder);
    const { vkey } = await createWitnessKey(join(folder, "witness.key"), `bench.witness/w${n}`);
    const config = join(folder, "witness.json");
    await writeFile(config, JSON.stringify({ name: `bench.witness/w${n}`, key_file: "witness.key", state_dir: "state", logs }));
    witnesses.push({ vkey, ...(await startWitness(config)) });
  }
  const endpoints = witnesses.map(({ url, vkey }) => ({ url, vkey }));

  // Throughput: the same authority shape with and without witnesses, turns alternating.
  const plain = createMemoryAuthority({ signer, authorityName: AUTHORITY_NAME });
  const witnessed = createMemoryAuthority({ signer, authorityName: AUTHORITY_NAME, witnessing: { witnesses: endpoints, quorum: 3 } });
  const totals = { plain: { count: 0, seconds: 0 }, witnessed: { count: 0, seconds: 0 } };
  for (let turn = 0; turn < TURNS; turn++) {
    for (const [name, authority] of [
      ["plain", plain],
      ["witnessed", witnessed],
    ]) {
      const { count, seconds } = await concurrentlyFor(CALLERS, SECONDS, async (n) => authority.anchor(await authority.issueReceipt(request(`${name}-${turn}`, n))));
      totals[name].count += count;
      totals[name].seconds += seconds;
    }
  }
  const rate = (name) => totals[name].count / totals[name].seconds;
  const status = await witnessed.clockchainStatus();
  await Promise.all([plain.close(), witnessed.close()]);

  // Time to FINAL at the default interval: a fresh authority and tile, anchors at random moments, each waiting for quorum 3.
  const final = createMemoryAuthority({ signer, authorityName: AUTHORITY_NAME, witnessing: { witnesses: endpoints, quorum: 3 } });
  const latencies = await Promise.all(
    Array.from({ length: FINAL_ANCHORS }, async (_, n) => {
      await new Promise((resolve) => setTimeout(resolve, Math.random() * FINAL_ANCHORS * 100));
      const receipt = await final.issueReceipt(request("final", n, CONTEXTS[1]));
      const start = performance.now();
      await final.anchor(receipt, { quorum: 3, timeoutMs: 30_000 });
      return performance.now() - start;
    }),
  );
  await final.close();
  latencies.sort((a, b) => a - b);
  const percentile = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];

  printTable(`issue+anchor per second, ${CALLERS} callers, ${TURNS} turns of ${SECONDS} s each`, [
    ["authority", "anchors/s", "ratio"],
    ["no witnesses", fixed(rate("plain"), 0), "1.00"],
    ["4 witnesses, quorum 3", fixed(rate("witnessed"), 0), fixed(rate("witnessed") / rate("plain"))],
  ]);
  const tile = status.witnessing.tiles[0];
  console.log(`  witnessed log: ${tile.tree_size} anchors, the last FINAL checkpoint at size ${tile.final_size}; health ${status.witnessing.health}`);
  printTable(`anchor to FINAL, quorum 3 of 4, default interval, ${FINAL_ANCHORS} anchors`, [
    ["p50 ms", "p99 ms", "max ms"],
    [fixed(percentile(50), 0), fixed(percentile(99), 0), fixed(latencies.at(-1), 0)],
  ]);
  const ratio = rate("witnessed") / rate("plain");
  console.log(`\n  target: ratio >= 0.8: ${ratio >= 0.8 ? "met" : "NOT met"} (${fixed(ratio)})`);
} finally {
  await Promise.all(witnesses.map((witness) => witness.stop()));
  await rm(directory, { recursive: true, force: true });
}
