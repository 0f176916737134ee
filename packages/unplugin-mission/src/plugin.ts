import { readFile } from "node:fs/promises";
import { isAbsolute, relative, sep } from "node:path";
import { compile } from "@temporal/compiler";
import type { UnpluginFactory } from "unplugin";
import { declarationPath, writeDeclarations } from "./declarations.js";
import { resolveOptions, type Options } from "./options.js";
import { failure, warning } from "./report.js";

export const PLUGIN_NAME = "unplugin-mission";

/**
 * Compiles `.mission` files in the `load` hook rather than `transform`: the
 * file is read here, so there is no earlier code to chain maps with, and
 * unplugin's webpack/rspack load loader passes the returned map on (its
 * transform loader dropped maps before unplugin 3.7).
 */
export const unpluginFactory: UnpluginFactory<Options | undefined> = (rawOptions) => {
  const options = resolveOptions(rawOptions);
  // Declarations are written only inside the project: the bundler's root where it has one, else the working directory.
  let root = process.cwd();
  return {
    name: PLUGIN_NAME,
    // Before other plugins, so nothing treats the mission text as JavaScript or an asset.
    enforce: "pre",
    vite: {
      configResolved(config) {
        root = config.root;
      },
    },
    esbuild: {
      config(buildOptions) {
        root = buildOptions.absWorkingDir ?? root;
      },
    },
    webpack(compiler) {
      root = compiler.context;
    },
    rspack(compiler) {
      root = compiler.context;
    },
    load: {
      filter: { id: { include: options.include, exclude: options.exclude } },
      async handler(id) {
        if (!isMissionFile(id)) return null;
        // Bundlers watch the files they read themselves; this one is read by the
        // plugin, so Rollup (and esbuild) would not notice an edit without this.
        this.addWatchFile(id);
        const source = await readFile(id, "utf8");
        const result = compile(source, {
          filename: id,
          format: options.format,
          sourceMap: options.sourceMap,
          declarations: options.dts,
          ...(options.sdkModule === undefined ? {} : { sdkModule: options.sdkModule }),
        });
        const warnings = result.diagnostics.filter((d) => d.severity === "warning");
        if (result.code === undefined || (options.strict && warnings.length > 0)) {
          const error = failure(result.diagnostics, id, source);
          // Rollup and Vite throw here; esbuild and webpack collect the error and
          // carry on, so they still get a module, one that cannot be run by mistake.
          this.error(error);
          return { code: `throw new Error(${JSON.stringify(error.message)});\n` };
        }
        for (const d of warnings) this.warn(warning(d, id, source));
        if (result.dts !== undefined && isProjectFile(root, id)) {
          // The declarations only help the type checker: failing to write them must not fail the build.
          await writeDeclarations(id, result.dts).catch((error: unknown) => {
            this.warn({ id, message: `could not write ${declarationPath(id)}: ${error instanceof Error ? error.message : String(error)}` });
          });
        }
        return { code: result.code, map: result.map ?? null };
      },
    },
  };
};

/**
 * Whether an id that `include` matched names a file the plugin reads. Virtual
 * modules (`\0virtual:x.mission`, or `virtual:x.mission` from a plugin that
 * skips the `\0`) are not paths, and the plugin owns no query (`?raw`): both
 * are left to the plugin that made them. A path to a missing file is read,
 * and the bundler reports the error.
 */
function isMissionFile(id: string): boolean {
  return isAbsolute(id) && !id.includes("?");
}

/** Inside `root` and not a dependency's: the files whose declarations belong to the project. */
function isProjectFile(root: string, file: string): boolean {
  const path = relative(root, file);
  const parts = path.split(sep);
  return !isAbsolute(path) && parts[0] !== ".." && !parts.includes("node_modules");
}
