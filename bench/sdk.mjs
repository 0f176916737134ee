#!/usr/bin/env node
// Benchmark of @temporal/agent-sdk. Run `npx tsc -b packages/sdk` first, then `node bench/sdk.mjs`.
// Every durable figure is compared with a baseline measured in the same run: the same number of
// bare appends of the same byte size, each followed by fdatasync, with the same number of writers.
import { mkdtemp, open, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { concurrentlyFor, printTable } from "./harness.mjs";

const dist = (entry) => fileURLToPath(new URL(`../packages/sdk/dist/${entry}`, import.meta.url));
const { allow, contextAt, createTsaeRequest, now, sha256Hex } = await import(dist("index.js"));
const { createLocalAuthority } = await import(dist("node/index.js"));

const ALLOW_SECONDS = 2;
const NOW_SECONDS = 1;
const DURABLE_SECONDS = 3;

function measureAllow() {
  const contexts = Array.from({ length: 1024 }, (_, i) => contextAt(1_700_000_000_000 + i * 84_375, { zone: i % 12 }));
  const windows = [
    [200, 280],
    [300, 40],
    [0, 360],
    [90.125, 90.25],
  ];
  let calls = 0;
  let allowed = 0;
  const start = performance.now();
  const deadline = start + ALLOW_SECONDS * 1000;
  while (performance.now() < deadline) {
    for (let round = 0; round < 100; round++) {
      for (let i = 0; i < contexts.length; i++) if (allow(contexts[i], windows[i & 3])) allowed++;
    }
    calls += 100 * contexts.length;
  }
  const perSecond = calls / ((performance.now() - start) / 1000);
  return { perSecond, checksum: allowed };
}

async function measureNow() {
  let calls = 0;
  const start = performance.now();
  const deadline = start + NOW_SECONDS * 1000;
  while (performance.now() < deadline) {
    for (let i = 0; i < 1000; i++) await now();
    calls += 1000;
  }
  return calls / ((performance.now() - start) / 1000);
}

async function measureDurable(dir, callers) {
  const home = join(dir, `home-${callers}`);
  const authority = createLocalAuthority({ home });
  const ctx = await authority.now({ zone: 1 });
  const request = (n) => createTsaeRequest(ctx, { scope: "bench.anchor.v1", action_hash_hex: sha256Hex(`${callers}:${n}`) });
  await authority.anchor(await authority.issueReceipt(request(-1))); // opens the home and creates the key outside the timing
  const ledgerPath = (await authority.status()).path;
  const bytesBefore = (await stat(ledgerPath)).size;
  const { count: issued, seconds } = await concurrentlyFor(callers, DURABLE_SECONDS, async (n) => {
    await authority.anchor(await authority.issueReceipt(request(n)));
  });
  const bytesPerAnchor = Math.round(((await stat(ledgerPath)).size - bytesBefore) / issued);
  await authority.close();
  const baseline = await measureBareAppends(join(dir, `bare-${callers}.bin`), issued, bytesPerAnchor, callers);
  return { perSecond: issued / seconds, count: issued, bytesPerAnchor, baselinePerSecond: baseline };
}

async function measureBareAppends(path, count, size, writers) {
  const handle = await open(path, "a");
  const chunk = Buffer.alloc(size, 0x61);
  let remaining = count;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: writers }, async () => {
      while (remaining > 0) {
        remaining--;
        await handle.write(chunk);
        await handle.datasync();
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  await handle.close();
  return count / seconds;
}

const fmt = (n) => (n >= 1e6 ? `${(n / 1e6).toFixed(1)} M/s` : `${Math.round(n).toLocaleString("en-US")} /s`);

const dir = await mkdtemp(join(tmpdir(), "temporal-sdk-bench-"));
try {
  const allowResult = measureAllow();
  const nowPerSecond = await measureNow();
  const one = await measureDurable(dir, 1);
  const many = await measureDurable(dir, 64);
  const rows = [
    ["allow(ctx, window)", fmt(allowResult.perSecond), "", "", ">= 20 M/s", allowResult.perSecond >= 20e6],
    ["now()", fmt(nowPerSecond), "", "", "", undefined],
    ...[
      [1, one],
      [64, many],
    ].map(([callers, r]) => [
      `issue+anchor, ${callers} caller${callers > 1 ? "s" : ""} (${r.count} x ${r.bytesPerAnchor} B)`,
      fmt(r.perSecond),
      `${fmt(r.baselinePerSecond)} bare fdatasync'd appends, ${callers} writer${callers > 1 ? "s" : ""}`,
      (r.perSecond / r.baselinePerSecond).toFixed(2),
      callers === 64 ? ">= 0.5 x baseline" : "",
      callers === 64 ? r.perSecond / r.baselinePerSecond >= 0.5 : undefined,
    ]),
  ];
  const header = ["measure", "figure", "baseline (same run)", "ratio", "target", "met"];
  printTable("@temporal/agent-sdk", [header, ...rows.map((row) => row.map((cell) => (cell === true ? "yes" : cell === false ? "NO" : (cell ?? ""))))]);
  console.log(`  64 callers against the 1-writer bare baseline: ratio ${(many.perSecond / one.baselinePerSecond).toFixed(2)}`);
  console.log(`  (node ${process.version}, ${tmpdir()}, allow checksum ${allowResult.checksum})`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
