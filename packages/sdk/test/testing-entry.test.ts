/**
 * `@temporal/agent-sdk/testing` as a user gets it: the built package through its `exports`, in a project of
 * its own, with the example docs/sdk.md shows. (That the stand-in answers as a real service does is checked
 * against one in packages/server/test: testing.test.ts and client.test.ts.)
 */
import { execFile } from "node:child_process";
import { copyFile, mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { createClient } from "../src/index.js";
import { HttpError } from "../src/service/index.js";
import { createTestService } from "../src/testing/index.js";
import { SDK_VERSION } from "../src/testing/sdk-version.js";
import { tempDir } from "./helpers.js";

const repo = fileURLToPath(new URL("../../../", import.meta.url));
const sdkDir = join(repo, "packages", "sdk");
const example = join(repo, "examples", "testing-stand-in.mjs");

/** A project with the SDK installed as a package (a link to this one, as a workspace or `npm link` makes it). */
async function userProject(): Promise<string> {
  const project = await tempDir();
  await mkdir(join(project, "node_modules", "@temporal"), { recursive: true });
  await symlink(sdkDir, join(project, "node_modules", "@temporal", "agent-sdk"), "dir");
  await writeFile(join(project, "package.json"), JSON.stringify({ name: "user-project", private: true, type: "module" }));
  return project;
}

describe("examples/testing-stand-in.mjs", () => {
  it("is the example shown in docs/sdk.md", async () => {
    const docs = await readFile(join(repo, "docs", "sdk.md"), "utf8");
    expect(docs).toContain(`\`\`\`js\n${await readFile(example, "utf8")}\`\`\``);
  });

  // npm test builds first (pretest), so dist is the package a user gets.
  it("runs with node in a user project, importing @temporal/agent-sdk/testing from the built package", async () => {
    const project = await userProject();
    await copyFile(example, join(project, "stand-in.test.mjs"));
    await writeFile(join(project, "resolve.mjs"), 'console.log(import.meta.resolve("@temporal/agent-sdk/testing"));\n');
    const run = (script: string) => promisify(execFile)(process.execPath, [script], { cwd: project, timeout: 60_000 });

    const { stdout: resolved } = await run("resolve.mjs");
    expect(fileURLToPath(resolved.trim())).toBe(join(sdkDir, "dist", "testing", "index.js"));
    const { stdout } = await run("stand-in.test.mjs");
    expect(stdout).toMatch(/^nightly backup anchored in tps\.example\.com\/tile\/\d+; refusals as the service's\n$/);
  }, 90_000);
});

describe("createTestService sources", () => {
  it("a function is read on every request, and what it rejects with is answered", async () => {
    let score = 0.4;
    let failing = false;
    const quality = () =>
      failing ? Promise.reject(new HttpError(503, "SOURCE_UNAVAILABLE", "the score feed is down")) : Promise.resolve({ score, updated_unix_ms: 1_000, source: "file" as const });
    const service = createTestService({ now: 5_000, quality });
    const client = service.client("managed");
    expect(await client.getQuantumDecision({ threshold: 0.5 })).toEqual({ score: 0.4, threshold: 0.5, verdict: "DENY", updated_unix_ms: 1_000, source: "file" });
    score = 0.9;
    expect((await client.getQuantumDecision({ threshold: 0.5 })).verdict).toBe("ALLOW");
    failing = true;
    await expect(client.getQuantumDecision()).rejects.toMatchObject({ status: 503, code: "SOURCE_UNAVAILABLE", message: expect.stringContaining("the score feed is down") });
    await service.close();
  });

  it("a file source is refused with INVALID_ARGUMENT, naming @temporal/server/testing, which reads files", () => {
    const file = { file: "/tmp/quality.json" } as unknown as { score: number };
    expect(() => createTestService({ quality: file })).toThrow(
      expect.objectContaining({ name: "TemporalTypeError", code: "INVALID_ARGUMENT", message: expect.stringContaining("@temporal/server/testing") }),
    );
    expect(() => createTestService({ carbon: { intensity: -3 } })).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
  });

  it("static sources answer as the service config's do", async () => {
    const service = createTestService({ now: 5_000, quality: { score: 0.7 }, carbon: { intensity: 120, location: "westeurope" } });
    const client = service.client("quantum");
    expect(await client.getQuantumDecision()).toMatchObject({ score: 0.7, updated_unix_ms: 5_000, source: "static" });
    expect(await client.getQuantumCarbon()).toMatchObject({ current: 120, location: "westeurope", source: "static" });
    await service.close();
  });
});

describe("the stand-in's version", () => {
  it("is this package's, as temporal-service reports its own in openapi.json", async () => {
    const { version } = JSON.parse(await readFile(join(sdkDir, "package.json"), "utf8")) as { version: string };
    expect(SDK_VERSION).toBe(version);
    const service = createTestService();
    const client = createClient({ baseUrl: service.baseUrl, fetch: service.fetch });
    expect(((await client.getOpenApi()).info as { version: string }).version).toBe(version);
    await service.close();
  });
});
