import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Plugin } from "rollup";
import { afterAll, describe, expect, it } from "vitest";
import type { Options } from "../src/index.js";
import rollupPlugin from "../src/rollup.js";
import vitePlugin from "../src/vite.js";
import { runBundle, SDK, WINDOW_MISSION, writeApp, type App } from "./app.js";

const apps: App[] = [];
afterAll(() => Promise.all(apps.map((app) => app.remove())));

/**
 * Modules that end in `.mission` but are no file: `\0virtual:gen.mission`
 * (the Rollup convention for virtual ids) and `virtual:plain.mission` (a
 * plugin that skips the `\0`), both loaded by this plugin.
 */
const virtualMissions: Plugin = {
  name: "virtual-missions",
  resolveId: (id) => (id === "virtual:gen.mission" ? "\0virtual:gen.mission" : id === "virtual:plain.mission" ? id : null),
  load: (id) => (id === "\0virtual:gen.mission" ? 'export default "gen";' : id === "virtual:plain.mission" ? 'export default "plain";' : null),
};

const VIRTUAL_APP = `import { late_shift } from "./window.mission";
import gen from "virtual:gen.mission";
import plain from "virtual:plain.mission";
import text from "./window.mission?raw";
console.log(JSON.stringify({ mission: late_shift.name, gen, plain, text }));
`;

const EXPECTED = { mission: "late_shift", gen: "gen", plain: "plain", text: WINDOW_MISSION };

async function virtualApp(name: string): Promise<App> {
  const app = await writeApp(name);
  apps.push(app);
  await writeFile(app.entry, VIRTUAL_APP);
  return app;
}

/** Rollup has no `?raw`: this stands in for the plugin that owns the query. */
const raw: Plugin = {
  name: "raw",
  resolveId: (id, importer) => (id.endsWith("?raw") && importer !== undefined ? join(importer, "..", id) : null),
  load: async (id) => (id.endsWith("?raw") ? `export default ${JSON.stringify(await readFile(id.slice(0, -"?raw".length), "utf8"))};` : null),
};

// `/\.mission/` also matches `.mission?raw` and the virtual ids: the plugin must still leave them alone.
const LOOSE: Options = { include: /\.mission/ };

describe("ids that are not mission files", () => {
  it("are left to the plugins that own them, in a Rollup build", async () => {
    const app = await virtualApp("rollup-virtual");
    const { rollup } = await import("rollup");
    const bundle = await rollup({ input: app.entry, external: [SDK], plugins: [rollupPlugin(LOOSE), virtualMissions, raw], onwarn: () => {} });
    const file = join(app.out, "bundle.mjs");
    await bundle.write({ file, format: "es" });
    await bundle.close();
    expect(await runBundle(file)).toEqual(EXPECTED);
  });

  it("are left to the plugins that own them, in a Vite build (its own ?raw included)", async () => {
    const app = await virtualApp("vite-virtual");
    const { build } = await import("vite");
    await build({
      root: app.dir,
      configFile: false,
      logLevel: "silent",
      plugins: [vitePlugin(LOOSE), virtualMissions],
      ssr: { external: [SDK] },
      build: { ssr: app.entry, outDir: app.out, minify: false, rollupOptions: { output: { entryFileNames: "bundle.mjs" } } },
    });
    expect(await runBundle(join(app.out, "bundle.mjs"))).toEqual(EXPECTED);
  });

  it("a mission file that does not exist still fails the build, naming it and the OS error", async () => {
    const app = await writeApp("missing");
    apps.push(app);
    const missing = join(app.dir, "missing.mission");
    await writeFile(app.entry, `import { missions } from "./missing.mission";\nconsole.log(missions);\n`);
    // Resolves to the path whether or not the file is there, as an alias plugin would.
    const alias: Plugin = { name: "alias", resolveId: (id) => (id === "./missing.mission" ? missing : null) };
    const { rollup } = await import("rollup");
    const build = rollup({ input: app.entry, external: [SDK], plugins: [rollupPlugin(), alias], onwarn: () => {} });
    await expect(build).rejects.toThrow(`Could not load ${missing} (imported by`);
    await expect(build).rejects.toThrow(`ENOENT: no such file or directory, open '${missing}'`);
    await expect(build).rejects.toMatchObject({ plugin: "unplugin-mission" });
  });
});
