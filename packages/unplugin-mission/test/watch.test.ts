import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { RollupWatcherEvent } from "rollup";
import { afterAll, expect, it } from "vitest";
import rollupPlugin from "../src/rollup.js";
import vitePlugin from "../src/vite.js";
import { SDK, WINDOW_MISSION, writeApp, type App } from "./app.js";

const apps: App[] = [];
afterAll(() => Promise.all(apps.map((app) => app.remove())));

const EDITED_MISSION = WINDOW_MISSION.replace("[300, 30]", "[0, 90]");

it("vite dev recompiles an edited mission without a restart", async () => {
  const app = await writeApp("dev");
  apps.push(app);
  const { createServer } = await import("vite");
  const server = await createServer({
    root: app.dir,
    configFile: false,
    logLevel: "silent",
    plugins: [vitePlugin()],
    optimizeDeps: { noDiscovery: true, include: [] },
    server: { host: "127.0.0.1", port: 0, strictPort: false, hmr: false },
  });
  try {
    await server.listen();
    const address = server.httpServer?.address();
    if (address === null || typeof address !== "object" || address === undefined) throw new Error("dev server has no address");
    // `?import` is how Vite's import analysis marks imports of non-JavaScript files; it serves them transformed.
    const fetchModule = async () => (await fetch(`http://127.0.0.1:${address.port}/window.mission?import`)).text();

    expect(await fetchModule()).toContain("phase: [[300, 30]]");
    await writeFile(app.window, EDITED_MISSION);
    // The file watcher reports the edit asynchronously; poll until it has.
    await expect.poll(fetchModule, { timeout: 10_000, interval: 100 }).toContain("phase: [[0, 90]]");
  } finally {
    await server.close();
  }
});

it("a rollup watch build rebuilds when a mission is edited", async () => {
  const app = await writeApp("watch");
  apps.push(app);
  const file = join(app.out, "bundle.mjs");
  const { watch } = await import("rollup");
  const watcher = watch({
    input: app.entry,
    external: [SDK],
    plugins: [rollupPlugin()],
    output: { file, format: "es" },
    onwarn: () => {},
  });
  try {
    let builds = 0;
    watcher.on("event", (event: RollupWatcherEvent) => {
      if (event.code === "BUNDLE_END") void event.result.close();
      if (event.code === "END") builds++;
    });
    await expect.poll(() => builds, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(await readFile(file, "utf8")).toContain("phase: [[300, 30]]");
    // Rollup's file watcher may still be starting; save again until a rebuild has picked the edit up.
    const saveAndRead = async () => {
      await writeFile(app.window, EDITED_MISSION);
      return readFile(file, "utf8");
    };
    await expect.poll(saveAndRead, { timeout: 10_000, interval: 200 }).toContain("phase: [[0, 90]]");
  } finally {
    await watcher.close();
  }
});
