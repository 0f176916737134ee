import { isAbsolute, join, resolve } from "node:path";
import type { Plugin } from "vite";
import { packagesOfModules, writeNotices } from "../../cli/scripts/third-party-notices.mjs";

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
 *
 * `collect()` goes into the page's plugins and the workers' (one instance
 * per build), `writeNotices()` into the page's only.
 */
export function thirdPartyNotices() {
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
