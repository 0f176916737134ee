import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Options } from "../src/index.js";
import esbuildPlugin from "../src/esbuild.js";
import rollupPlugin from "../src/rollup.js";
import rspackPlugin from "../src/rspack.js";
import vitePlugin from "../src/vite.js";
import webpackPlugin from "../src/webpack.js";
import { SDK, type App } from "./app.js";

/**
 * One small production build per bundler, each keeping the SDK external.
 * Each resolves to the bundle's path; a failed build rejects with an error
 * whose message holds every reported error.
 */
export type Build = (app: App, options?: Options) => Promise<string>;

export const buildWithRollup: Build = async (app, options) => {
  const { rollup } = await import("rollup");
  const bundle = await rollup({ input: app.entry, external: [SDK], plugins: [rollupPlugin(options)], onwarn: () => {} });
  const file = join(app.out, "bundle.mjs");
  await bundle.write({ file, format: "es", sourcemap: true });
  await bundle.close();
  return file;
};

export const buildWithVite: Build = async (app, options) => {
  const { build } = await import("vite");
  await build({
    root: app.dir,
    configFile: false,
    logLevel: "silent",
    plugins: [vitePlugin(options)],
    ssr: { external: [SDK] },
    build: { ssr: app.entry, outDir: app.out, sourcemap: true, minify: false, rollupOptions: { output: { entryFileNames: "bundle.mjs" } } },
  });
  return join(app.out, "bundle.mjs");
};

export const buildWithEsbuild: Build = async (app, options) => {
  const esbuild = await import("esbuild");
  const file = join(app.out, "bundle.mjs");
  await esbuild.build({
    entryPoints: [app.entry],
    absWorkingDir: app.dir,
    bundle: true,
    platform: "node",
    format: "esm",
    outfile: file,
    sourcemap: true,
    external: [SDK],
    plugins: [esbuildPlugin(options)],
    logLevel: "silent",
  });
  return file;
};

interface WebpackLikeStats {
  hasErrors(): boolean;
  toJson(options: { all: false; errors: true }): { errors?: { message: string }[] };
}

/** webpack and Rspack share a config shape; the SDK is required at run time (Node ≥ 20.19 can require ESM). */
function webpackConfig(app: App) {
  return {
    mode: "none" as const,
    target: "node" as const,
    context: app.dir,
    entry: app.entry,
    output: { path: app.out, filename: "bundle.cjs" },
    externals: { [SDK]: `commonjs ${SDK}` },
    devtool: "source-map" as const,
  };
}

function runCompiler(compiler: { run(cb: (err: Error | null, stats?: WebpackLikeStats) => void): void; close(cb: () => void): void }, app: App) {
  return new Promise<string>((resolve, reject) => {
    compiler.run((err, stats) => {
      compiler.close(() => {
        if (err) return reject(err);
        if (stats?.hasErrors()) {
          const errors = stats.toJson({ all: false, errors: true }).errors ?? [];
          return reject(new Error(errors.map((e) => e.message).join("\n")));
        }
        resolve(join(app.out, "bundle.cjs"));
      });
    });
  });
}

export const buildWithWebpack: Build = async (app, options) => {
  const { default: webpack } = await import("webpack");
  return runCompiler(webpack({ ...webpackConfig(app), plugins: [webpackPlugin(options)] }), app);
};

export const buildWithRspack: Build = async (app, options) => {
  const { rspack } = await import("@rspack/core");
  return runCompiler(rspack({ ...webpackConfig(app), plugins: [rspackPlugin(options)] }), app);
};

export const BUILDS = {
  vite: buildWithVite,
  rollup: buildWithRollup,
  esbuild: buildWithEsbuild,
  webpack: buildWithWebpack,
  rspack: buildWithRspack,
} satisfies Record<string, Build>;

export async function readMap(bundle: string) {
  return JSON.parse(await readFile(`${bundle}.map`, "utf8"));
}
