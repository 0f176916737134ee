import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { EXPECTED_RUN, runBundle, writeApp, type App } from "./app.js";
import { BUILDS } from "./bundlers.js";

const apps: App[] = [];
afterAll(() => Promise.all(apps.map((app) => app.remove())));

async function app(name: string, options?: { broken?: boolean }) {
  const written = await writeApp(name, options);
  apps.push(written);
  return written;
}

describe.each(Object.entries(BUILDS))("%s", (name, build) => {
  it("bundles an app importing two missions; the bundle decides and runs them", async () => {
    const bundle = await build(await app(name));
    expect(await runBundle(bundle)).toEqual(EXPECTED_RUN);
  });

  it("fails the build on a mission error, with its code and file:line:column", async () => {
    const broken = await app(`${name}-broken`, { broken: true });
    await expect(build(broken)).rejects.toThrow(`${broken.window}:4:18: error[M300]`);
  });
});

describe("options", () => {
  it("format: cjs gives webpack CommonJS modules that still run", async () => {
    const bundle = await BUILDS.webpack(await app("webpack-cjs"), { format: "cjs" });
    expect(await readFile(bundle, "utf8")).toContain('require("@temporal/agent-sdk")');
    expect(await runBundle(bundle)).toEqual(EXPECTED_RUN);
  });

  it("sdkModule points the generated imports at another runtime module, here bundled in", async () => {
    const sdk = fileURLToPath(new URL("../../sdk/dist/index.js", import.meta.url));
    const bundle = await BUILDS.esbuild(await app("esbuild-sdk"), { sdkModule: sdk });
    expect(await readFile(bundle, "utf8")).not.toMatch(/from "@temporal\/agent-sdk"/);
    expect(await runBundle(bundle)).toEqual(EXPECTED_RUN);
  });
});
