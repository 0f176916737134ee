import { createHash } from "node:crypto";
import { isAbsolute, join, resolve } from "node:path";
import { defineConfig, type Plugin } from "vite";
import { packagesOfModules, writeNotices } from "../cli/scripts/third-party-notices.mjs";

const notices = thirdPartyNotices();

// A static site: relative asset URLs (`base: "./"`) so dist/ can be deployed under any path.
export default defineConfig({
  base: "./",
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    // The worker is bundled inside a transform hook, which rolldown's timing check would report as a slow plugin on every build.
    rolldownOptions: { checks: { pluginTimings: false } },
  },
  worker: { format: "es", plugins: () => [notices.collect()] },
  plugins: [serviceWorker(), notices.collect(), notices.writeNotices()],
});

/**
 * THIRD_PARTY_NOTICES for the published site: the page's and the workers'
 * chunks bundle third-party code (CodeMirror, chevrotain, prettier, ...)
 * whose licences must travel with it. The workers are separate builds, run
 * while the page's build transforms their imports, so each build records its
 * chunks' module ids under its entries, replacing what it recorded before
 * (`vite build --watch` may rebuild the page without its workers, whose
 * modules then still count), and the page's build writes the union to
 * dist/THIRD_PARTY_NOTICES once its own files are written (by the CLI's
 * script, so all our bundles' notices read the same).
 */
function thirdPartyNotices() {
  /** Each build's module files, keyed by its entry modules. */
  const byBuild = new Map<string, Set<string>>();
  // Rollup ids may carry a virtual-module prefix or a query; the file path is what names the package.
  const filePath = (id: string) => id.replace(/^\0/, "").replace(/\?.*$/, "");
  return {
    collect: (): Plugin => ({
      name: "playground:bundled-modules",
      apply: "build",
      generateBundle(_options, bundle) {
        const files = new Set<string>();
        const entries: string[] = [];
        for (const item of Object.values(bundle)) {
          if (item.type !== "chunk") continue;
          if (item.isEntry && item.facadeModuleId !== null) entries.push(item.facadeModuleId);
          for (const id of item.moduleIds) if (isAbsolute(filePath(id))) files.add(filePath(id));
        }
        byBuild.set(entries.sort().join("\n"), files);
      },
    }),
    writeNotices: (): Plugin => {
      let outDir = "";
      return {
        name: "playground:third-party-notices",
        apply: "build",
        configResolved(config) {
          outDir = resolve(config.root, config.build.outDir);
        },
        writeBundle() {
          const files = new Set([...byBuild.values()].flatMap((ids) => [...ids]));
          writeNotices(packagesOfModules(files, "@temporal/playground"), join(outDir, "THIRD_PARTY_NOTICES"), "@temporal/playground");
        },
      };
    },
  };
}

/**
 * Builds src/sw.ts as dist/sw.js (a fixed name: the registration's URL must
 * not change between builds) with the list of every other file of the build
 * and a version hashed from their contents inlined, so each build's sw.js
 * differs exactly when the site does.
 */
function serviceWorker(): Plugin {
  return {
    name: "playground:service-worker",
    apply: "build",
    buildStart() {
      this.emitFile({ type: "chunk", id: "src/sw.ts", fileName: "sw.js" });
    },
    generateBundle: {
      order: "post",
      handler(_options, bundle) {
        const sw = bundle["sw.js"];
        if (sw === undefined || sw.type !== "chunk") throw new Error("the service worker chunk sw.js is missing from the bundle");
        const files = Object.keys(bundle)
          .filter((name) => name !== "sw.js" && !name.endsWith(".map"))
          .sort();
        const hash = createHash("sha256");
        for (const name of files) {
          const item = bundle[name]!;
          hash.update(name).update(item.type === "chunk" ? item.code : item.source);
        }
        // index.html once: the service worker answers every offline navigation (./ included) with it, so ./ is not a second entry.
        const manifest = JSON.stringify({ version: hash.digest("hex").slice(0, 16), files });
        if (!sw.code.includes("PRECACHE_MANIFEST")) throw new Error("sw.js no longer names PRECACHE_MANIFEST: the manifest cannot be inlined");
        sw.code = sw.code.replaceAll("PRECACHE_MANIFEST", manifest);
      },
    },
  };
}
