import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import type { Plugin } from "vite";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { thirdPartyNotices } from "../build/third-party-notices.js";

/**
 * The build plugins behind dist/THIRD_PARTY_NOTICES, driven hook by hook as
 * Vite drives them, with small bundles whose module ids are files of real
 * packages in the repository's node_modules (so the CLI's notices script
 * reads their real package.json and licence). No Vite build: each test takes
 * milliseconds.
 */

const require = createRequire(import.meta.url);
const ownFile = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));
const modules = {
  main: ownFile("src/main.ts"),
  panel: ownFile("src/time/panel.ts"),
  worker: ownFile("src/worker/worker.ts"),
  view: require.resolve("@codemirror/view"),
  state: require.resolve("@codemirror/state"),
  lezer: require.resolve("@lezer/common"),
  crelt: require.resolve("crelt"),
  chevrotain: require.resolve("chevrotain"),
  prettier: require.resolve("prettier/standalone"),
};

type HookName = "configResolved" | "buildStart" | "generateBundle" | "writeBundle";

/** Calls a plugin's hook if it has one (a function or `{ handler }`); the plugins use no context, so `this` is empty. */
async function runHook(plugin: Plugin, name: HookName, ...args: unknown[]) {
  const hook = plugin[name];
  const handler = (typeof hook === "object" ? hook.handler : hook) as ((...args: unknown[]) => unknown) | undefined;
  await handler?.call({}, ...args);
}

/** The fields of rolldown's OutputChunk the plugins read. */
function chunk(facadeModuleId: string | null, moduleIds: string[], isEntry = true) {
  return { type: "chunk", isEntry, facadeModuleId, moduleIds };
}

/** A build's output bundle: its chunks and, as in the page's, a stylesheet asset (no modules). */
function bundleOf(chunks: ReturnType<typeof chunk>[]) {
  return { ...Object.fromEntries(chunks.map((item, index) => [`assets/chunk-${index}.js`, item])), "assets/index.css": { type: "asset", source: "" } };
}

let root = "";
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "playground-notices-"));
  // Vite has written the page's files into outDir before writeBundle runs.
  mkdirSync(join(root, "dist"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** The site's plugins as vite.config.ts wires them, and its builds in Vite's order. */
async function site() {
  const notices = thirdPartyNotices();
  const page = [notices.collect(), notices.writeNotices()];
  for (const plugin of page) await runHook(plugin, "configResolved", { root, build: { outDir: "dist" } });
  return {
    /** The page's build: it starts, the workers are built while it transforms their imports, then its bundle is generated and written. */
    async build(pageChunks: ReturnType<typeof chunk>[], workers: ReturnType<typeof chunk>[][] = []) {
      // No plugin has a buildStart hook now; called as Vite calls it, so a design that clears its record there (the old single set) fails the rebuild test.
      for (const plugin of page) await runHook(plugin, "buildStart");
      for (const workerChunks of workers) {
        // `worker.plugins` is a function: each worker build gets plugins of its own.
        const collect = notices.collect();
        await runHook(collect, "buildStart");
        await runHook(collect, "generateBundle", {}, bundleOf(workerChunks));
      }
      for (const plugin of page) await runHook(plugin, "generateBundle", {}, bundleOf(pageChunks));
      for (const plugin of page) await runHook(plugin, "writeBundle", {}, bundleOf(pageChunks));
    },
  };
}

function noticesText() {
  return readFileSync(join(root, "dist", "THIRD_PARTY_NOTICES"), "utf8");
}

/** The packages THIRD_PARTY_NOTICES has a section for, in its order. */
function packagesNamed() {
  return [...noticesText().matchAll(/^={72}\n(\S+)@\d\S* \(/gm)].map((match) => match[1]);
}

const pageChunks = [chunk(modules.main, [modules.main, modules.view, modules.state]), chunk(modules.panel, [modules.panel, modules.crelt], false)];
const workerChunks = [chunk(modules.worker, [modules.worker, modules.chevrotain, modules.prettier])];

describe("the playground's THIRD_PARTY_NOTICES plugins", () => {
  it("write the packages of the page's chunks and of the worker's, which is a build of its own, once the page's files are written", async () => {
    const { build } = await site();
    await build(pageChunks, [workerChunks]);
    expect(noticesText()).toMatch(/^@temporal\/playground bundles the following third-party packages into dist\/\.\n/);
    // The page's lazily loaded chunk (not an entry) counts too; our own modules name no package.
    expect(packagesNamed()).toEqual(["@codemirror/state", "@codemirror/view", "chevrotain", "crelt", "prettier"]);
  });

  it("replace the page's modules when the page is rebuilt without its workers (`vite build --watch`), keeping the worker's", async () => {
    const { build } = await site();
    await build(pageChunks, [workerChunks]);
    await build([chunk(modules.main, [modules.main, modules.state, modules.lezer])]);
    // @codemirror/view and crelt were the page's before: no longer bundled, not named. The worker's build did not run again: its packages stay.
    expect(packagesNamed()).toEqual(["@codemirror/state", "@lezer/common", "chevrotain", "prettier"]);
  });

  it("take a virtual-module id's or a query's file, and no id that is not an absolute path", async () => {
    const { build } = await site();
    const ids = [
      modules.main,
      `\0${modules.view}?commonjs-proxy`,
      `${modules.state}?commonjs-es-import`,
      // The query is no part of the file, even when it holds a path into another package.
      `${modules.main}?importer=${modules.crelt}`,
      "\0vite/preload-helper.js",
      // A real package's file relative to the working directory, which the notices script would read were it taken.
      relative(process.cwd(), modules.chevrotain),
    ];
    await build([chunk(modules.main, ids)]);
    expect(packagesNamed()).toEqual(["@codemirror/state", "@codemirror/view"]);
  });
});
