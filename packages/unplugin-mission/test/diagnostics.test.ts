import { writeFile } from "node:fs/promises";
import type { RollupLog } from "rollup";
import { afterAll, describe, expect, it } from "vitest";
import esbuildPlugin from "../src/esbuild.js";
import rollupPlugin from "../src/rollup.js";
import { WINDOW_MISSION, writeApp, type App } from "./app.js";
import { buildWithEsbuild, buildWithRollup } from "./bundlers.js";

const apps: App[] = [];
afterAll(() => Promise.all(apps.map((app) => app.remove())));

/** The window mission without its version directive: warning M202 at 1:1. */
async function appWithWarning(name: string) {
  const app = await writeApp(name);
  apps.push(app);
  await writeFile(app.window, WINDOW_MISSION.replace("@temporal v4.6.2\n", ""));
  return app;
}

describe("warnings", () => {
  it("go through Rollup's warning channel, located at the mission line", async () => {
    const app = await appWithWarning("rollup-warn");
    const { rollup } = await import("rollup");
    const warnings: RollupLog[] = [];
    await rollup({ input: app.entry, external: ["@temporal/agent-sdk"], plugins: [rollupPlugin()], onwarn: (w) => void warnings.push(w) });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ pluginCode: "M202", loc: { file: app.window, line: 1, column: 0 } });
    expect(warnings[0]!.message).toContain(`${app.window}:1:1: warning[M202]`);
  });

  it("go through esbuild's warnings", async () => {
    const app = await appWithWarning("esbuild-warn");
    const esbuild = await import("esbuild");
    const result = await esbuild.build({
      entryPoints: [app.entry],
      bundle: true,
      platform: "node",
      format: "esm",
      write: false,
      external: ["@temporal/agent-sdk"],
      plugins: [esbuildPlugin()],
      logLevel: "silent",
    });
    expect(result.warnings.map((w) => w.text)).toEqual([expect.stringContaining(`${app.window}:1:1: warning[M202]`)]);
  });

  it("fail the build with strict: true", async () => {
    const app = await appWithWarning("strict");
    await expect(buildWithRollup(app, { strict: true })).rejects.toThrow(`${app.window}:1:1: warning[M202]`);
    await expect(buildWithEsbuild(app, { strict: true })).rejects.toThrow(`${app.window}:1:1: warning[M202]`);
  });
});

describe("errors", () => {
  it("carry loc and a code frame for Vite's overlay", async () => {
    const app = await writeApp("frame", { broken: true });
    apps.push(app);
    const error = await buildWithRollup(app).catch((e: unknown) => e);
    expect(error).toMatchObject({ pluginCode: "M300", loc: { file: app.window, line: 4, column: 17 } });
    expect((error as { frame: string }).frame).toContain("4 |   require phase [400, 30]");
  });
});

describe("options", () => {
  it("are checked when the config is read", () => {
    expect(() => rollupPlugin({ format: "umd" as "esm" })).toThrow('unplugin-mission: options.format must be "esm" or "cjs", got "umd"');
    expect(() => rollupPlugin({ sdkModule: "" })).toThrow("options.sdkModule must be a non-empty string");
  });
});
