#!/usr/bin/env node
// Benchmark of a home's ledger: `npm run bench -- ledger` (or `node --expose-gc bench/ledger.mjs`), on the
// build `npm ci` makes (`npx tsc -b packages/sdk` after editing the sources).
//
// - Opening a home of 10k, 100k and 1M anchors (createLocalAuthority + status()), from its stored state, and the ratio
//   open(1M) / open(10k); against it, in the same run, opening the 10k home by replaying every record (no stored state).
// - Proof lookup by receipt hash in each home: the first lookup after opening, and the median of later ones.
// - Durable issue+anchor per second with 8 processes sharing one home, against one process, in the same run.
// The homes are built once, fast (group commits of 1024 anchors, the most an authority commits at once, of a real receipt's size, straight into the log
// store), and kept under bench/.out/ (gitignored); delete that directory to build them again.
// Environment: BENCH_LEDGER_SIZES (default "10000,100000,1000000"), BENCH_SECONDS (durable runs, default 3).
import { spawn } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { concurrentlyFor, printTable } from "./harness.mjs";

const SELF = fileURLToPath(import.meta.url);
const OUT = fileURLToPath(new URL("./.out/ledger/", import.meta.url));
const dist = (entry) => fileURLToPath(new URL(`../packages/sdk/dist/${entry}`, import.meta.url));
const { contextAt, createTsaeRequest, defaultAuthorityName, receiptHash, sha256Hex } = await import(dist("index.js"));
const { FileLogStore, FileSigner, createLocalAuthority, homePaths } = await import(dist("node/index.js"));

const SIZES = (process.env.BENCH_LEDGER_SIZES ?? "10000,100000,1000000").split(",").map(Number);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
/** The largest group commit an authority makes. */
const BATCH = 1024;
const PROCESSES = 8;
const CALLERS_PER_PROCESS = 8;
const T0 = Date.UTC(2026, 0, 5);
const request = (tag, n) => createTsaeRequest(contextAt(Date.now(), { zone: 1 }), { scope: "bench.ledger.v1", action_hash_hex: sha256Hex(`${tag}:${n}`) });

/** The n-th bench receipt: a real receipt with its action hash replaced (the log store hashes receipts, it does not verify them). */
const variant = (template, n) => ({ ...template, action_hash_hex: n.toString(16).padStart(64, "0") });

/** The real receipt every bench receipt varies, made once and kept under bench/.out with the homes built from it. */
async function templateReceipt() {
  const path = join(OUT, "template-receipt.json");
  try {
    return JSON.parse(await readFile(path, "utf8"));
  } catch {
    const home = await mkdtemp(join(tmpdir(), "temporal-ledger-bench-"));
    const authority = createLocalAuthority({ home });
    const receipt = await authority.issueReceipt(request("template", 0));
    await authority.close();
    await rm(home, { recursive: true, force: true });
    await writeFile(path, JSON.stringify(receipt));
    return receipt;
  }
}

/** A home of `anchors` anchors under bench/.out, built unless already there. */
async function homeOf(anchors, template) {
  const home = join(OUT, `home-${anchors}`);
  const authority = createLocalAuthority({ home });
  const status = await authority.status();
  await authority.close();
  if (status.anchors === anchors) return home;
  if (status.anchors !== 0) throw new Error(`${home} holds ${status.anchors} anchors, not ${anchors}: delete bench/.out/ledger and run again`);
  const started = performance.now();
  const paths = homePaths(home);
  const key = await new FileSigner(paths).load();
  const log = new FileLogStore(paths);
  await log.open(key.verifying);
  const signing = { key: key.verifying, authority_name: defaultAuthorityName(key.verifying.jwk), issuedUnixMs: () => T0, sign: (message) => key.sign(message) };
  for (let from = 0; from < anchors; from += BATCH) {
    const entries = Array.from({ length: Math.min(BATCH, anchors - from) }, (_, i) => {
      const receipt = variant(template, from + i);
      return { receipt, hash: receiptHash(receipt) };
    });
    await log.append(entries, signing);
  }
  await log.close();
  console.log(`  built ${home} (${anchors.toLocaleString("en-US")} anchors) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return home;
}

/** Opens the home as a process does (key, ledger), answering status(); ms, median of `runs`. Closing writes nothing new. */
async function openMs(home, runs) {
  const samples = [];
  for (let i = 0; i < runs; i++) {
    globalThis.gc?.();
    const start = performance.now();
    const authority = createLocalAuthority({ home });
    await authority.status();
    samples.push(performance.now() - start);
    await authority.close();
  }
  return samples.sort((a, b) => a - b)[Math.floor(samples.length / 2)];
}

/** The first proof lookup after opening, and the median of `count` lookups of receipts spread over the home after it; ms. */
async function lookupMs(home, anchors, template, count = 200) {
  const authority = createLocalAuthority({ home });
  await authority.status();
  const hashOf = (n) => receiptHash(variant(template, n));
  let start = performance.now();
  const first = await authority.getAnchorProof(hashOf(anchors - 1));
  const firstMs = performance.now() - start;
  if (first?.leaf_index !== anchors - 1) throw new Error(`receipt ${anchors - 1} not found in ${home}`);
  const samples = [];
  for (let i = 0; i < count; i++) {
    const hash = hashOf(Math.floor((i * anchors) / count));
    start = performance.now();
    await authority.getAnchorProof(hash);
    samples.push(performance.now() - start);
  }
  await authority.close();
  return { firstMs, laterMs: samples.sort((a, b) => a - b)[Math.floor(samples.length / 2)] };
}

/** A copy of the home's key and ledger without its stored state: opening it replays every record. */
async function withoutSnapshot(home) {
  const copy = await mkdtemp(join(tmpdir(), "temporal-ledger-bench-"));
  await copyFile(join(home, "signing-key.pem"), join(copy, "signing-key.pem"));
  await copyFile(join(home, "clockchain.log"), join(copy, "clockchain.log"));
  return copy;
}

/** Issue+anchor loops in `processes` processes on one fresh home, each with CALLERS_PER_PROCESS callers; anchors per second in all. */
async function durablePerSecond(processes) {
  const home = await mkdtemp(join(tmpdir(), "temporal-ledger-bench-"));
  try {
    const workers = Array.from({ length: processes }, (_, i) => {
      const child = spawn(process.execPath, [SELF, "--worker", home, String(i)], { stdio: ["pipe", "pipe", "inherit"] });
      const lines = createInterface({ input: child.stdout });
      const next = () =>
        new Promise((resolve, reject) => {
          lines.once("line", resolve);
          child.once("exit", (code) => reject(new Error(`worker exited ${code}`)));
        });
      return { child, next };
    });
    await Promise.all(workers.map(({ next }) => next())); // each has opened the home and anchored once
    const results = workers.map(({ next }) => next());
    for (const { child } of workers) child.stdin.end("go\n");
    const counts = (await Promise.all(results)).map((line) => JSON.parse(line));
    return counts.reduce((sum, { count }) => sum + count, 0) / Math.max(...counts.map(({ seconds }) => seconds));
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

async function worker(home, id) {
  const authority = createLocalAuthority({ home });
  await authority.anchor(await authority.issueReceipt(request(`w${id}`, -1)));
  console.log("ready");
  await new Promise((resolve) => process.stdin.once("data", resolve));
  const result = await concurrentlyFor(CALLERS_PER_PROCESS, SECONDS, async (n) => {
    await authority.anchor(await authority.issueReceipt(request(`w${id}`, n)));
  });
  await authority.close();
  console.log(JSON.stringify(result));
}

if (process.argv[2] === "--worker") {
  await worker(process.argv[3], process.argv[4]);
} else {
  await mkdir(OUT, { recursive: true });
  const rows = [];
  const opens = [];
  const template = await templateReceipt();
  for (const anchors of SIZES) {
    const home = await homeOf(anchors, template);
    const open = await openMs(home, 5);
    const { firstMs, laterMs } = await lookupMs(home, anchors, template);
    const ledgerMiB = (await stat(join(home, "clockchain.log"))).size / 2 ** 20;
    opens.push(open);
    rows.push([`${anchors.toLocaleString("en-US")} anchors (${ledgerMiB.toFixed(0)} MiB)`, `${open.toFixed(1)} ms`, `${firstMs.toFixed(1)} ms`, `${(laterMs * 1000).toFixed(0)} us`]);
  }
  const small = join(OUT, `home-${SIZES[0]}`);
  const replayHome = await withoutSnapshot(small);
  const replay = await openMs(replayHome, 1);
  await rm(replayHome, { recursive: true, force: true });
  printTable("opening a home, and proof lookup by receipt hash", [["home", "open (stored state)", "first lookup", "later lookups (median)"], ...rows]);
  const ratio = opens.at(-1) / opens[0];
  console.log(`  open(${SIZES.at(-1)}) / open(${SIZES[0]}): ${ratio.toFixed(2)} (target <= 2: ${ratio <= 2 ? "met" : "NOT met"})`);
  console.log(`  baseline, same run: opening the ${SIZES[0]}-anchor home by replaying every record: ${replay.toFixed(0)} ms (${(replay / opens[0]).toFixed(0)}x its open from stored state)`);

  const one = await durablePerSecond(1);
  const many = await durablePerSecond(PROCESSES);
  printTable("durable issue+anchor, one home", [
    ["processes", `anchors/s (${CALLERS_PER_PROCESS} callers each)`, "ratio to 1 process"],
    ["1", one.toFixed(0), "1.00"],
    [String(PROCESSES), many.toFixed(0), (many / one).toFixed(2)],
  ]);
  console.log(`  (node ${process.version}, homes in ${OUT}, durable runs in ${tmpdir()})`);
}
