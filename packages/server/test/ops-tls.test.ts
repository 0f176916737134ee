import { execFileSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import { request } from "node:https";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "./helpers.js";
import { runCommand, startServiceProcess } from "./service-process.js";

const PROCESS_TEST = { timeout: 60_000 };

/** A self-signed certificate for 127.0.0.1 and its key, made by openssl in `dir`. */
function selfSigned(dir: string, name: string): { cert: string; key: string } {
  const cert = join(dir, `${name}.crt`);
  const key = join(dir, `${name}.key`);
  execFileSync(
    "/usr/bin/openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-days",
      "1",
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      "subjectAltName=IP:127.0.0.1",
      "-keyout",
      key,
      "-out",
      cert,
    ],
    {
      stdio: "ignore",
    },
  );
  return { cert, key };
}

/** GET over HTTPS trusting only `ca`. */
function httpsGet(url: string, ca: Buffer): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request(url, { ca }, (reply) => {
      let body = "";
      reply.on("data", (chunk: Buffer) => (body += chunk.toString()));
      reply.on("end", () => resolve({ status: reply.statusCode ?? 0, body }));
    })
      .on("error", reject)
      .end();
  });
}

describe("temporal-service over TLS", () => {
  it("serves HTTPS with --tls-cert and --tls-key to a client that trusts the certificate", PROCESS_TEST, async () => {
    const dir = await tempDir();
    const { cert, key } = selfSigned(dir, "service");
    const service = await startServiceProcess(["--home", join(dir, "home"), "--port", "0", "--log-level", "silent", "--tls-cert", cert, "--tls-key", key]);
    try {
      expect(service.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const ca = await readFile(cert);
      expect(await httpsGet(`${service.url}/healthz`, ca)).toEqual({ status: 200, body: '{"status":"ok"}' });
      const context = await httpsGet(`${service.url}/api/v1/context`, ca);
      expect(context.status).toBe(200);
      expect(JSON.parse(context.body)).toHaveProperty("phase_deg");
      // A client that does not trust the certificate does not get through, and plain HTTP is not served.
      await expect(httpsGet(`${service.url}/healthz`, Buffer.from(""))).rejects.toThrow(/self.signed|certificate/i);
      await expect(fetch(`${service.url.replace("https:", "http:")}/healthz`)).rejects.toThrow();
    } finally {
      expect(await service.stop()).toEqual({ code: 0, signal: null });
    }
  });

  it("refuses one flag without the other (exit 2), and unreadable or mismatched files (exit 1, one line)", PROCESS_TEST, async () => {
    const dir = await tempDir();
    const first = selfSigned(dir, "first");
    const second = selfSigned(dir, "second");
    const home = join(dir, "home");

    const alone = runCommand(["--home", home, "--port", "0", "--tls-cert", first.cert]);
    expect(alone.status).toBe(2);
    expect(alone.stderr).toContain("--tls-cert and --tls-key go together: give --tls-key too");

    const missing = runCommand(["--home", home, "--port", "0", "--tls-cert", join(dir, "none.crt"), "--tls-key", first.key]);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toBe(`temporal-service: cannot read --tls-cert ${join(dir, "none.crt")}: no such file or folder\n`);

    const mismatched = runCommand(["--home", home, "--port", "0", "--tls-cert", first.cert, "--tls-key", second.key]);
    expect(mismatched.status).toBe(1);
    expect(mismatched.stderr).toMatch(new RegExp(`^temporal-service: cannot use --tls-cert ${first.cert} with --tls-key ${second.key}: .*key values mismatch\\n$`));

    const notPem = runCommand(["--home", home, "--port", "0", "--tls-cert", first.key, "--tls-key", first.key]);
    expect(notPem.status).toBe(1);
    expect(notPem.stderr.trimEnd().split("\n")).toHaveLength(1);
  });
});
