// `npm run bench -- playground`: what the playground costs a visitor. Builds the site (with hidden source maps, which
// change no byte the browser fetches, so chunks can be attributed to packages), serves it on loopback, and measures in
// headless Chromium:
// - bytes of the first load, gzip level 9, summed over every response of the page's first visit (HTML, JS, CSS, the
//   Web Worker, the service worker and what it precaches), split by package through the source maps;
// - time to interactive: navigation start → the editor accepts input and the first verdict is rendered, median of
//   fresh-context runs after a warm-up, and as a multiple of a baseline measured in the same run (a bare page served
//   by the same server).
// Prints the figures and the verdict against the budget of docs/playground.md ("Budget"); exits 0 either way.
// The functions passed to the page (watchFor, interactive, loaded) run in the browser, serialised: its globals.
/* global window, document, requestAnimationFrame */
import { spawn } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { availableParallelism, loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { TraceMap, eachMapping } from "@jridgewell/trace-mapping";
import { build } from "vite";
import { launchChromium } from "../test/support/chromium.mjs";
import { playgroundUrl } from "../test/support/playground-url.mjs";
import { fixed, printTable } from "./harness.mjs";

/** The budget, justified in docs/playground.md ("Budget"). */
const BUDGET = { firstLoadGzipKB: 300, interactiveMs: 2000 };
const RUNS = 7;

const repo = fileURLToPath(new URL("..", import.meta.url));
const siteRoot = join(repo, "packages/playground");
const outDir = join(repo, "bench/.out/playground");

/** Which package a source file of a chunk belongs to (paths as the source maps write them). */
function partOf(source) {
  const rules = [
    [/node_modules\/(@codemirror|@lezer|@marijn|style-mod|w3c-keyname|crelt)\//, "CodeMirror"],
    [/node_modules\/prettier\/|packages\/prettier-plugin-mission\//, "prettier"],
    [/packages\/compiler\/|node_modules\/(chevrotain|@chevrotain|regexp-to-ast|lodash-es)\//, "compiler"],
    [/packages\/language-service\/|node_modules\/vscode-languageserver-(types|textdocument)\//, "language service"],
    [/packages\/sdk\//, "SDK"],
    [/packages\/playground\//, "playground"],
  ];
  return rules.find(([pattern]) => pattern.test(source))?.[1] ?? "other";
}

/** Generated characters of `code` per part, from its source map: each mapping owns the text up to the next one. */
function charactersPerPart(code, map) {
  const lineStarts = [0];
  for (let i = code.indexOf("\n"); i !== -1; i = code.indexOf("\n", i + 1)) lineStarts.push(i + 1);
  const offsets = [];
  eachMapping(new TraceMap(map), (m) => offsets.push([lineStarts[m.generatedLine - 1] + m.generatedColumn, m.source === null ? "other" : partOf(m.source)]));
  offsets.sort((a, b) => a[0] - b[0]);
  const parts = new Map();
  const add = (part, n) => parts.set(part, (parts.get(part) ?? 0) + n);
  add("other", offsets.length > 0 ? offsets[0][0] : code.length);
  offsets.forEach(([offset, part], i) => add(part, (i + 1 < offsets.length ? offsets[i + 1][0] : code.length) - offset));
  return parts;
}

/**
 * Every response body of one first visit in a fresh context, by URL path: what the page fetched, and what its service
 * worker fetched on top (its precache repeats the page's files, mostly from the HTTP cache; only new paths count).
 */
async function firstLoadResponses(browser, url) {
  const context = await browser.newContext();
  const page = new Map();
  const precache = new Map();
  const pending = [];
  context.on("response", (response) => {
    const path = new URL(response.url()).pathname;
    const into = response.request().serviceWorker() === null ? page : precache;
    // An empty body is the service worker's copy of a file the HTTP cache already held: no bytes on the wire.
    const keep = (body) => void (body.length > 0 && into.set(path, body));
    if (response.status() === 200) pending.push(response.body().then(keep, () => {}));
  });
  await context.addInitScript(`(${watchFor})(${interactive})`);
  const tab = await context.newPage();
  await tab.goto(url);
  await tab.waitForFunction(() => window.readyAt !== undefined, undefined, { timeout: 60_000 });
  await tab.evaluate(() => navigator.serviceWorker?.ready.then(() => undefined));
  await tab.waitForLoadState("networkidle");
  await Promise.all(pending);
  await context.close();
  for (const path of page.keys()) precache.delete(path);
  return { page, precache };
}

/**
 * In the page, from before its first script: checks `ready` every frame and records in `window.readyAt` the
 * milliseconds since navigation start at which it first held, so the figure does not include the test driver's latency.
 */
function watchFor(ready) {
  const tick = () => {
    if (ready()) window.readyAt = performance.now();
    else requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}

/** Interactive: the editor takes input and the first verdict (compiled in the page, decided by the SDK) is on screen. */
const interactive = () =>
  document.querySelector('[data-testid="editor"] .cm-content[contenteditable="true"]') !== null && (document.querySelector('[data-testid="verdict"]')?.textContent ?? "").trim() !== "";
const loaded = () => document.readyState === "complete";

/** Milliseconds from navigation start until `ready` holds, in a fresh context (no cache, no service worker). */
async function timeToReady(browser, url, ready) {
  const context = await browser.newContext();
  await context.addInitScript(`(${watchFor})(${ready})`);
  const page = await context.newPage();
  await page.goto(url, { waitUntil: "commit" });
  await page.waitForFunction(() => window.readyAt !== undefined, undefined, { timeout: 60_000 });
  const ms = await page.evaluate(() => window.readyAt);
  await context.close();
  return ms;
}

/** `temporalc playground --dir <dir> --port 0`, the way visitors get the site; resolves with its URL once it listens. */
async function servePlayground(dir) {
  const child = spawn(process.execPath, [join(repo, "bin/temporalc"), "playground", "--dir", dir, "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
  const exited = new Promise((resolve) => child.on("exit", resolve));
  const url = await playgroundUrl(child);
  return {
    url,
    async close() {
      child.kill("SIGTERM");
      await exited;
    },
  };
}

const median = (values) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)];

async function main() {
  await build({ root: siteRoot, logLevel: "error", build: { outDir, emptyOutDir: true, sourcemap: "hidden" } });
  // The baseline page: what the browser costs before any of the playground's code runs.
  await writeFile(join(outDir, "bare.html"), "<!doctype html><title>bare</title><p>bare</p>");
  const server = await servePlayground(outDir);
  const browser = await launchChromium();
  try {
    const { page, precache } = await firstLoadResponses(browser, server.url);
    const rows = [["file", "raw kB", "gzip kB", "mostly (gzip kB)"]];
    const byPart = new Map();
    let total = 0;
    for (const [path, body] of [...page, ...precache].sort()) {
      const gzip = gzipSync(body, { level: 9 }).length;
      total += gzip;
      const parts = path.endsWith(".js") ? await partsOfChunk(path, body) : new Map([[path.endsWith(".css") ? "CSS" : "HTML", 1]]);
      const characters = [...parts.values()].reduce((a, b) => a + b, 0);
      // A chunk's gzip bytes are shared out in proportion to each part's characters in it: an estimate, since parts compress differently.
      const shares = [...parts].map(([part, n]) => [part, characters === 0 ? 0 : (gzip * n) / characters]).sort((a, b) => b[1] - a[1]);
      for (const [part, bytes] of shares) byPart.set(part, (byPart.get(part) ?? 0) + bytes);
      const mostly = shares.filter(([, bytes]) => bytes >= 1024).slice(0, 4);
      rows.push([
        precache.has(path) ? `${path} (service worker)` : path,
        fixed(body.length / 1024, 1),
        fixed(gzip / 1024, 1),
        mostly.map(([part, bytes]) => `${part} ${fixed(bytes / 1024, 0)}`).join(", "),
      ]);
    }
    rows.push(["total", "", fixed(total / 1024, 1), ""]);
    printTable("first load, every file the browser fetched (gzip -9)", rows);
    printTable("first load by part (gzip kB; a chunk shared out by its source map's characters)", [
      ["part", "gzip kB", "share"],
      ...[...byPart].sort((a, b) => b[1] - a[1]).map(([part, bytes]) => [part, fixed(bytes / 1024, 1), `${fixed((100 * bytes) / total, 0)} %`]),
    ]);

    const bare = `${server.url}bare.html`;
    const ready = [];
    const baseline = [];
    await timeToReady(browser, server.url, interactive); // warm-up: the OS file cache, Chromium's own start-up
    for (let i = 0; i < RUNS; i++) {
      ready.push(await timeToReady(browser, server.url, interactive));
      baseline.push(await timeToReady(browser, bare, loaded));
    }
    const interactiveMs = median(ready);
    const baselineMs = median(baseline);
    printTable(`time to interactive, median of ${RUNS} fresh contexts`, [
      ["page", "ms", "× bare page"],
      ["bare page (baseline)", fixed(baselineMs, 0), "1.00"],
      ["playground", fixed(interactiveMs, 0), fixed(interactiveMs / baselineMs)],
    ]);
    const kB = total / 1024;
    console.log(
      `\n(load average while measuring: ${loadavg()
        .map((n) => fixed(n, 1))
        .join(", ")} on ${availableParallelism()} cores; time is what suffers from a busy machine, bytes are not)`,
    );
    const verdict = (ok) => (ok ? "within budget" : "OVER BUDGET");
    console.log(`\nbudget: first load ${fixed(kB, 1)} kB gzip of ${BUDGET.firstLoadGzipKB} kB: ${verdict(kB <= BUDGET.firstLoadGzipKB)}`);
    console.log(`budget: interactive in ${fixed(interactiveMs, 0)} ms of ${BUDGET.interactiveMs} ms: ${verdict(interactiveMs <= BUDGET.interactiveMs)}`);
  } finally {
    await browser.close();
    await server.close();
  }
}

/** The parts of a JavaScript chunk, from its hidden source map next to it in outDir. */
async function partsOfChunk(path, body) {
  try {
    const map = JSON.parse(await readFile(join(outDir, `${decodeURIComponent(path.replace(/^\//, ""))}.map`), "utf8"));
    return charactersPerPart(body.toString("utf8"), map);
  } catch {
    return new Map([["other", body.length]]);
  }
}

await main();
