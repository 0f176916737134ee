import { createHash } from "node:crypto";
import { defineConfig, type Plugin } from "vite";
import { thirdPartyNotices } from "./build/third-party-notices.js";

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
