import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { createServer as createNetServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PLAYGROUND_CSP, PLAYGROUND_SCRIPT_CSP } from "../src/commands/playground-server.js";
import { REPO_ROOT, runCli } from "./run-cli.js";
import { playgroundUrl } from "../../../test/support/playground-url.mjs";
import { serveFolder, type ServedFolder } from "../../../test/support/static-site.js";

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw request: the path goes on the wire exactly as written (no client-side normalisation of `..`). */
function get(port: number, path: string, method = "GET"): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, method }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("the playground's static server", () => {
  let parent: string;
  let root: string;
  let server: ServedFolder;
  let port: number;

  beforeAll(async () => {
    parent = mkdtempSync(join(tmpdir(), "temporalc-playground-"));
    root = join(parent, "dist");
    mkdirSync(join(root, "assets"), { recursive: true });
    writeFileSync(join(root, "index.html"), "<!doctype html><title>p</title>");
    writeFileSync(join(root, "sw.js"), "self;");
    writeFileSync(join(root, "assets", "index-BByQx3fN.js"), "export {};");
    writeFileSync(join(root, "assets", "index-BByQx3fN.css"), "body{}");
    writeFileSync(join(root, "big.bin"), Buffer.alloc(16 << 20));
    writeFileSync(join(parent, "secret.txt"), "not for the web");
    // Links that lead out of the root: to a file, and to a folder holding it.
    symlinkSync(join("..", "secret.txt"), join(root, "leak.txt"));
    symlinkSync(parent, join(root, "up"));
    // A link inside the root is served.
    symlinkSync("index.html", join(root, "home.html"));
    server = await serveFolder(root);
    port = server.port;
  });

  afterAll(async () => {
    await server.close();
    rmSync(parent, { recursive: true, force: true });
  });

  it("serves index.html for / and each file with its content type", async () => {
    const page = await get(port, "/");
    expect(page).toMatchObject({ status: 200, body: "<!doctype html><title>p</title>" });
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect((await get(port, "/assets/index-BByQx3fN.js")).headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect((await get(port, "/assets/index-BByQx3fN.css")).headers["content-type"]).toBe("text/css; charset=utf-8");
    expect((await get(port, "/sw.js")).headers["content-type"]).toBe("text/javascript; charset=utf-8");
  });

  it("lets browsers keep hashed assets for a year and revalidate everything else", async () => {
    expect((await get(port, "/assets/index-BByQx3fN.js")).headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect((await get(port, "/index.html")).headers["cache-control"]).toBe("no-cache");
    expect((await get(port, "/sw.js")).headers["cache-control"]).toBe("no-cache");
  });

  it("answers HEAD without a body and refuses other methods", async () => {
    const head = await get(port, "/index.html", "HEAD");
    expect(head).toMatchObject({ status: 200, body: "" });
    expect(head.headers["content-length"]).toBe("31");
    const post = await get(port, "/", "POST");
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe("GET, HEAD");
  });

  it("answers 404 for a missing file and for a directory", async () => {
    expect((await get(port, "/missing.js")).status).toBe(404);
    expect((await get(port, "/assets")).status).toBe(404);
  });

  it("never serves a file outside its root, however the path is spelled", async () => {
    for (const path of ["/../secret.txt", "/assets/../../secret.txt", "/%2e%2e/secret.txt", "/assets/%2E%2E%2F%2E%2E%2Fsecret.txt", "/..%5csecret.txt", "/%00", "/%E0%A4%A"]) {
      const reply = await get(port, path);
      expect(reply.status, path).toBeGreaterThanOrEqual(400);
      expect(reply.body, path).not.toContain("not for the web");
    }
  });

  it("keeps serving when a client goes away in the middle of a file", async () => {
    await new Promise<void>((done, fail) => {
      const req = request({ host: "127.0.0.1", port, path: "/big.bin" }, (res) => {
        res.once("data", () => {
          req.destroy();
          done();
        });
      });
      req.on("error", (error) => (req.destroyed ? undefined : fail(error)));
      req.end();
    });
    expect((await get(port, "/")).status).toBe(200);
  });

  it("follows a symbolic link only when it stays inside the root", async () => {
    for (const path of ["/leak.txt", "/up/secret.txt"]) {
      expect(await get(port, path), path).toMatchObject({ status: 403, body: "outside the playground\n" });
    }
    expect(await get(port, "/home.html")).toMatchObject({ status: 200, body: "<!doctype html><title>p</title>" });
  });

  it("sends the playground's Content-Security-Policy, the same as index.html's meta tag, with 'unsafe-eval' only for scripts (the worker's)", async () => {
    expect((await get(port, "/")).headers["content-security-policy"]).toBe(PLAYGROUND_CSP);
    expect(PLAYGROUND_CSP).not.toContain("'unsafe-eval'");
    expect((await get(port, "/assets/index-BByQx3fN.js")).headers["content-security-policy"]).toBe(PLAYGROUND_SCRIPT_CSP);
    expect(PLAYGROUND_SCRIPT_CSP).toContain("script-src 'self' 'unsafe-eval';");
    const html = readFileSync(join(REPO_ROOT, "packages/playground/index.html"), "utf8");
    expect(/<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"/.exec(html)?.[1]).toBe(PLAYGROUND_CSP);
  });
});

describe("temporalc playground", () => {
  it("fails with PLAYGROUND_NOT_BUILT and exit 2 when the directory holds no built playground", () => {
    const empty = mkdtempSync(join(tmpdir(), "temporalc-playground-empty-"));
    try {
      const result = runCli(["playground", "--dir", empty, "--port", "0"]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain("(PLAYGROUND_NOT_BUILT)");
      expect(result.stderr).not.toMatch(/\n\s+at /);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it("fails with PLAYGROUND_PORT_IN_USE when the port is taken", async () => {
    const taken = createNetServer();
    await new Promise<void>((done) => taken.listen(0, "127.0.0.1", done));
    try {
      const result = runCli(["playground", "--port", String((taken.address() as AddressInfo).port)]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain("(PLAYGROUND_PORT_IN_USE)");
    } finally {
      await new Promise((done) => taken.close(done));
    }
  });

  it("refuses a port that cannot be one as a usage error", () => {
    const result = runCli(["playground", "--port", "70000"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("expected a port from 0 to 65535");
  });

  it("serves the workspace's built playground, prints its URL and stops on SIGINT", async () => {
    const child = spawn(process.execPath, [join(REPO_ROOT, "bin/temporalc"), "playground", "--port", "0"], { cwd: REPO_ROOT, stdio: ["ignore", "pipe", "pipe"] });
    try {
      const url = await playgroundUrl(child);
      const page = await get(Number(new URL(url).port), "/");
      expect(page.status).toBe(200);
      expect(page.body).toContain('id="time-panel"');
      const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
      child.kill("SIGINT");
      expect(await exited).toBe(0);
    } finally {
      child.kill("SIGKILL");
    }
  });
});
