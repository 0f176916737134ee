import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMemoryAuthority } from "@temporal/agent-sdk";
import { orchestrate, quantumResultHash } from "../src/index.js";

// The package is platform-free: bundled for browsers it reaches no Node module, and in Debian's Chromium
// (.ci/run installs it) a seeded run gives the very result a Node run gives, anchored and verified with WebCrypto.

const INSIDE = Date.UTC(2026, 0, 1, 14, 0); // phase 210 deg at Z0: inside [200, 280]
const RUN = { nTasks: 3, nHS: 2, seed: 11 } as const;
const testDir = fileURLToPath(new URL(".", import.meta.url));

const PAGE_ENTRY = `
import { createMemoryAuthority } from "@temporal/agent-sdk";
import { orchestrate, quantumResultHash, verifyQuantumResult } from "@temporal/quantum";
window.runQuantum = async (run, at) => {
  const authority = createMemoryAuthority();
  const verdict = await orchestrate({ ...run, authority, clock: () => at });
  if (verdict.verdict !== "ALLOW") return { verdict: verdict.verdict };
  const key = Object.values(await authority.publicKeys())[0];
  const verification = await verifyQuantumResult(verdict.result, verdict.receipt, verdict.proof, key);
  const tampered = await verifyQuantumResult({ ...verdict.result, n_tasks: verdict.result.n_tasks + 1 }, verdict.receipt, verdict.proof, key);
  return { verdict: verdict.verdict, hash: quantumResultHash(verdict.result), valid: verification.valid, tamperedValid: tampered.valid };
};
`;

function chromiumPath(): string {
  const found = spawnSync("sh", ["-c", "command -v chromium || command -v chromium-browser"], { encoding: "utf8" }).stdout.trim();
  if (found === "") throw new Error("no chromium on PATH: install it (as root: apt-get update && apt-get install -y chromium; .ci/run does)");
  return found;
}

let bundle: { text: string; inputs: string[] };
let browser: Browser | undefined;

beforeAll(async () => {
  const result = await build({
    stdin: { contents: PAGE_ENTRY, resolveDir: testDir, loader: "js" },
    bundle: true,
    platform: "browser",
    format: "iife",
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  bundle = { text: result.outputFiles[0]!.text, inputs: Object.keys(result.metafile.inputs) };
  browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, timeout: 90_000, args: ["--disable-dev-shm-usage"] });
}, 180_000);

afterAll(async () => {
  await browser?.close();
}, 60_000);

describe("@temporal/quantum in a browser", () => {
  it("bundles for the browser platform without any Node module", () => {
    expect(bundle.inputs.some((input) => input.includes("quantum/dist/"))).toBe(true);
    expect(bundle.inputs.filter((input) => input.includes("/dist/node/") || input.startsWith("node:"))).toEqual([]);
    expect(bundle.text).not.toMatch(/\brequire\("node:|\bprocess\.env\b/);
  });

  it("orchestrates in headless Chromium: the same seeded result as in Node, anchored, verified with the public key only", async () => {
    const page = await browser!.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => void errors.push(error.message));
    // A localhost origin is a secure context, which WebCrypto needs; the route answers it without any server.
    await page.route("http://localhost/quantum.html", (route) => route.fulfill({ contentType: "text/html", body: "<!doctype html><title>quantum</title>" }));
    await page.goto("http://localhost/quantum.html");
    await page.addScriptTag({ content: bundle.text });
    const inBrowser = await page.evaluate(`window.runQuantum(${JSON.stringify(RUN)}, ${INSIDE})`);

    const inNode = await orchestrate({ ...RUN, authority: createMemoryAuthority(), clock: () => INSIDE });
    if (inNode.verdict !== "ALLOW") throw new Error(`expected ALLOW in Node, got ${inNode.verdict}`);
    expect(inBrowser).toEqual({ verdict: "ALLOW", hash: quantumResultHash(inNode.result), valid: true, tamperedValid: false });
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);
});
