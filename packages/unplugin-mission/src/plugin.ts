import { readFile } from "node:fs/promises";
import { compile } from "@temporal/compiler";
import type { UnpluginFactory } from "unplugin";
import { writeDeclarations } from "./declarations.js";
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
  return {
    name: PLUGIN_NAME,
    // Before other plugins, so nothing treats the mission text as JavaScript or an asset.
    enforce: "pre",
    load: {
      filter: { id: { include: options.include, exclude: options.exclude } },
      async handler(id) {
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
        if (result.dts !== undefined) await writeDeclarations(id, result.dts);
        return { code: result.code, map: result.map ?? null };
      },
    },
  };
};
