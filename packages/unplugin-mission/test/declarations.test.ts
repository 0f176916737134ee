import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { RollupLog } from "rollup";
import { afterAll, describe, expect, it } from "vitest";
import { declarationPath, writeDeclarations } from "../src/declarations.js";
import rollupPlugin from "../src/rollup.js";
import { CARBON_MISSION, runBundle, SDK, WINDOW_MISSION, writeApp, type App } from "./app.js";
import { buildWithEsbuild, buildWithRollup, buildWithRspack, buildWithVite, buildWithWebpack, type Build } from "./bundlers.js";

const apps: App[] = [];
afterAll(() => Promise.all(apps.map((app) => app.remove())));

async function folder(name: string): Promise<string> {
  const app = await writeApp(name);
  apps.push(app);
  return app.dir;
}

describe("declarationPath", () => {
  it("follows TypeScript's x.d.<ext>.ts for any extension, so it never names the source", () => {
    expect(declarationPath("/app/x.mission")).toBe("/app/x.d.mission.ts");
    expect(declarationPath("/app/x.msn")).toBe("/app/x.d.msn.ts");
    expect(declarationPath("/app.v2/missions/x")).toBe("/app.v2/missions/x.d.ts");
    expect(declarationPath("/app/.mission")).toBe("/app/.mission.d.ts");
  });
});

describe("dts with a custom include", () => {
  it("writes x.d.msn.ts beside x.msn and leaves the mission untouched", async () => {
    const app = await writeApp("msn");
    apps.push(app);
    await rename(join(app.dir, "carbon.mission"), join(app.dir, "carbon.msn"));
    const entry = await readFile(app.entry, "utf8");
    await writeFile(app.entry, entry.replace("./carbon.mission", "./carbon.msn"));

    const bundle = await buildWithRollup(app, { include: [/\.mission$/, /\.msn$/], dts: true });

    expect(await readFile(join(app.dir, "carbon.msn"), "utf8")).toBe(CARBON_MISSION);
    expect(await readFile(join(app.dir, "carbon.d.msn.ts"), "utf8")).toContain('export declare const green_build: Mission<"build">;');
    expect(await readFile(app.window, "utf8")).toBe(WINDOW_MISSION);
    expect(await runBundle(bundle)).toMatchObject({ executed: ["open_gate", "log_denied", "build"] });
  });
});

describe("writeDeclarations", () => {
  it("lets concurrent writes of one file all succeed, ending with the latest text", async () => {
    const mission = join(await folder("concurrent"), "x.mission");
    const texts = ["// a\n", "// b\n", "// c\n", "// d\n"];
    await Promise.all([...texts.map((text) => writeDeclarations(mission, text)), writeDeclarations(mission, "// d\n")]);
    expect(await readFile(declarationPath(mission), "utf8")).toBe("// d\n");
    expect((await readdir(join(mission, ".."))).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it("takes requests for one file in order: the last one asked for wins", async () => {
    const mission = join(await folder("ordered"), "x.mission");
    await writeDeclarations(mission, "// b\n");
    // Were the two to run side by side, both would read "b": the second would skip its write and leave "a".
    await Promise.all([writeDeclarations(mission, "// a\n"), writeDeclarations(mission, "// b\n")]);
    expect(await readFile(declarationPath(mission), "utf8")).toBe("// b\n");
  });

  it("removes its temporary file when the write fails", async () => {
    const dir = await folder("fails");
    const mission = join(dir, "x.mission");
    // A directory where the declaration goes: the rename over it fails.
    await mkdir(declarationPath(mission));
    await expect(writeDeclarations(mission, "// a\n")).rejects.toThrow(/EISDIR|ENOTEMPTY|EPERM/);
    expect((await readdir(dir)).filter((f) => f.endsWith(".tmp"))).toEqual([]);
    await rm(declarationPath(mission), { recursive: true });
    await writeDeclarations(mission, "// b\n");
    expect(await readFile(declarationPath(mission), "utf8")).toBe("// b\n");
  });
});

describe("dts in a build", () => {
  // Each of these bundlers has the app folder as its root; `elsewhere` is beside it, outside.
  it.each([
    ["vite", buildWithVite],
    ["esbuild", buildWithEsbuild],
    ["webpack", buildWithWebpack],
    ["rspack", buildWithRspack],
  ] as [string, Build][])("%s: writes declarations only for missions inside the root, not under node_modules", async (name, build) => {
    const app = await writeApp(`${name}-scope`);
    const elsewhere = await writeApp(`${name}-scope-elsewhere`);
    apps.push(app, elsewhere);
    const library = join(app.dir, "node_modules", "lib", "lib.mission");
    await mkdir(join(library, ".."), { recursive: true });
    await writeFile(library, CARBON_MISSION);
    const entry = await readFile(app.entry, "utf8");
    await writeFile(app.entry, `import "./node_modules/lib/lib.mission";\nimport ${JSON.stringify(elsewhere.window)};\n${entry}`);

    await build(app, { dts: true });

    expect(await readFile(declarationPath(app.window), "utf8")).toContain("export declare const late_shift");
    await expect(readFile(declarationPath(library))).rejects.toThrow("ENOENT");
    await expect(readFile(declarationPath(elsewhere.window))).rejects.toThrow("ENOENT");
  });

  it("reports a declaration it cannot write as a warning naming the file and the OS error", async () => {
    const app = await writeApp("unwritable");
    apps.push(app);
    await mkdir(declarationPath(app.window));
    const { rollup } = await import("rollup");
    const warnings: RollupLog[] = [];
    const bundle = await rollup({ input: app.entry, external: [SDK], plugins: [rollupPlugin({ dts: true })], onwarn: (w) => void warnings.push(w) });
    await bundle.close();
    expect(warnings.map((w) => w.message)).toEqual([expect.stringMatching(`could not write ${declarationPath(app.window)}: EISDIR`)]);
    expect(warnings[0]).toMatchObject({ plugin: "unplugin-mission", id: app.window });
    expect(await readFile(join(app.dir, "carbon.d.mission.ts"), "utf8")).toContain("green_build");
  });
});
