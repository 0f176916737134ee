/**
 * `temporalc run` with TEMPORAL_URL: a `signed ZTT` mission against the real service (on loopback, a throw-away
 * home), through a recording proxy. The CLI generates the ephemeral key, the service certifies its public half for
 * the mission's window (`POST ztt/certify`), the receipt is signed here and anchored there, and `temporalc verify`
 * checks the bundle offline with the service's `GET keys` output. The window is built around the service's phase
 * now, so the test does not depend on the hour it runs at.
 *
 * Whether the private key left the process: a preload module in the CLI's process wraps WebCrypto's `generateKey`
 * (as test/ztt-home.test.ts does in the SDK) to learn the key's bytes, and every request body the proxy forwarded
 * is searched for them.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { canonicalJson, contextAt, createClient, receiptHash, type RunResult } from "@temporal/agent-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startService, type RunningService } from "../../server/test/helpers.js";
import { runCliAsync } from "./run-cli.js";

const scratch = mkdtempSync(join(tmpdir(), "temporalc-run-ztt-remote-"));
const captureFile = join(scratch, "captured-keys.txt");

/** Loaded with --import into the CLI's process: the ephemeral key is made extractable once, to write its seed and PKCS#8 down. */
const CAPTURE_MODULE = `
import { appendFileSync } from "node:fs";
const subtle = globalThis.crypto.subtle;
const generate = subtle.generateKey.bind(subtle);
subtle.generateKey = async (algorithm, extractable, usages) => {
  if (algorithm?.name !== "Ed25519" && algorithm !== "Ed25519") return generate(algorithm, extractable, usages);
  if (extractable !== false) return generate(algorithm, extractable, usages);
  const pair = await generate(algorithm, true, usages);
  const pkcs8 = Buffer.from(await subtle.exportKey("pkcs8", pair.privateKey));
  const { d } = await subtle.exportKey("jwk", pair.privateKey);
  appendFileSync(${JSON.stringify(captureFile)}, JSON.stringify({ seed: Buffer.from(d, "base64url").toString("hex"), pkcs8: pkcs8.toString("base64") }) + "\\n");
  return { publicKey: pair.publicKey, privateKey: await subtle.importKey("pkcs8", pkcs8, "Ed25519", false, ["sign"]) };
};
`;

interface Forwarded {
  readonly method: string;
  readonly path: string;
  readonly body: string;
  /** Every request header, names and values, one per line: a key could leave in a header too. */
  readonly headers: string;
}

/** A proxy in front of the service that keeps every request it forwards. */
async function recordingProxy(target: string, seen: Forwarded[]): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks);
      const method = request.method ?? "GET";
      seen.push({
        method,
        path: request.url ?? "",
        body: body.toString("utf8"),
        headers: Object.entries(request.headers)
          .map(([name, value]) => `${name}: ${String(value)}`)
          .join("\n"),
      });
      const headers: Record<string, string> = {};
      for (const name of ["authorization", "content-type", "accept"]) if (typeof request.headers[name] === "string") headers[name] = request.headers[name];
      fetch(`${target}${request.url ?? ""}`, { method, headers, ...(method === "POST" ? { body } : {}) })
        .then(async (upstream) => {
          const retryAfter = upstream.headers.get("retry-after");
          response.writeHead(upstream.status, { "content-type": upstream.headers.get("content-type") ?? "application/json", ...(retryAfter === null ? {} : { "retry-after": retryAfter }) });
          response.end(Buffer.from(await upstream.arrayBuffer()));
        })
        .catch(() => response.writeHead(502).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

let service: RunningService;
let proxy: { url: string; server: Server };
const seen: Forwarded[] = [];

beforeAll(async () => {
  service = await startService();
  proxy = await recordingProxy(service.url, seen);
});

afterAll(async () => {
  await new Promise((resolve) => proxy.server.close(resolve));
  rmSync(scratch, { recursive: true, force: true });
});

describe("temporalc run, a signed ZTT mission against the service in TEMPORAL_URL", () => {
  it("runs its task, signs the receipt with a key the service certified, anchors it there; the bundle verifies offline; only the public key was sent", { timeout: 90_000 }, async () => {
    // 60 degrees (4 hours) either side of the phase in Z0 now: open by both clocks while the test runs.
    const phase = Math.floor(contextAt(Date.now(), { zone: 0 }).phase_deg);
    const window: [number, number] = [(phase + 300) % 360, (phase + 60) % 360];
    const mission = join(scratch, "remote.mission");
    writeFileSync(
      mission,
      [
        "@temporal v4.6.2",
        "@anchor Z0",
        "",
        "mission remote_ztt {",
        `  require phase [${window[0]}, ${window[1]}]`,
        "  on ALLOW {",
        "    execute mark",
        "    anchor TSAE -> clockchain signed ZTT",
        "  }",
        "}",
        "",
      ].join("\n"),
    );
    const tasks = join(scratch, "tasks.mjs");
    writeFileSync(tasks, "export const mark = () => {};\n");
    const preload = join(scratch, "capture.mjs");
    writeFileSync(preload, CAPTURE_MODULE);

    const env = { TEMPORAL_URL: proxy.url, TEMPORAL_API_KEY: service.keys.enterprise, TEMPORAL_HOME: undefined, NODE_OPTIONS: `--import=${pathToFileURL(preload).href}` };
    const run = await runCliAsync(["run", mission, "--tasks", tasks, "--json"], { env });
    expect(run.code, run.stderr).toBe(0);
    const outcome = JSON.parse(run.stdout.slice(run.stdout.indexOf("{"))) as RunResult;
    expect([outcome.verdict, outcome.executed]).toEqual(["ALLOW", ["mark"]]);
    const [receipt] = outcome.receipts;
    const [bundle] = outcome.ztt ?? [];
    expect(receipt).toBeDefined();
    expect(bundle).toBeDefined();
    // The bundle signs the receipt; its certificate is the service's, for the mission's window in Z0.
    expect(bundle!.payload_sha256).toBe(receiptHash(receipt!));
    expect(bundle!.certificate).toMatchObject({ window_deg: window, swt_zone: 0 });
    // The receipt is anchored in the service's log.
    expect(outcome.anchors[0]?.receipt_hash).toBe(receiptHash(receipt!));
    expect(await createClient({ baseUrl: service.url, apiKey: service.keys.enterprise }).getAnchorProof(receiptHash(receipt!))).toMatchObject({ tile_id: receipt!.tile_id });

    // Offline, with nothing but GET keys.
    const keys = join(scratch, "keys.json");
    writeFileSync(keys, await (await fetch(`${service.url}/api/v1/keys`)).text());
    const bundleFile = join(scratch, "bundle.json");
    writeFileSync(bundleFile, JSON.stringify(bundle));
    const payload = join(scratch, "receipt.json");
    writeFileSync(payload, canonicalJson(receipt));
    const verified = await runCliAsync(["verify", bundleFile, "--keys", keys, "--payload", payload]);
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    expect(verified.stdout).toContain("valid: ZTT bundle, all 5 checks hold");

    // What left the process: the receipt request, the certificate request with the public key alone, the anchor.
    // One clock sync for the run (three exchanges): the signer signs by the clock the verdict was decided by.
    expect(seen.filter((request) => request.path.startsWith("/api/v1/twatch/now")).length).toBe(3);
    const posts = seen.filter((request) => request.method === "POST");
    expect(posts.map((request) => request.path)).toEqual(["/api/v1/security/tsae", "/api/v1/ztt/certify", "/api/v1/clockchain/anchor"]);
    expect(JSON.parse(posts[1]!.body)).toEqual({ ephemeral_x: bundle!.certificate.ephemeral_x, window, zone: 0 });
    const captured = readFileSync(captureFile, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { seed: string; pkcs8: string });
    expect(captured).toHaveLength(1);
    const seed = Buffer.from(captured[0]!.seed, "hex");
    const pkcs8 = Buffer.from(captured[0]!.pkcs8, "base64");
    const needles = [seed, pkcs8].flatMap((secret) => [secret.toString("hex"), secret.toString("hex").toUpperCase(), secret.toString("base64"), secret.toString("base64url")]);
    const leaks = seen.filter((request) => needles.some((needle) => request.body.includes(needle) || request.path.includes(needle) || request.headers.includes(needle)));
    expect(leaks).toEqual([]);
  });
});
