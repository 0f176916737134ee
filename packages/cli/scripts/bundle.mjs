// Bundles the CLI into dist/ so start-up reads a few files instead of
// resolving hundreds of modules; each command stays a separate chunk that is
// loaded only when that command runs.
import { build } from "esbuild";
import { readFileSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { writeThirdPartyNotices } from "./third-party-notices.mjs";
import { readDiagnosticExplanations } from "./diagnostic-explanations.mjs";

const cliDir = new URL("../", import.meta.url);
const { version } = JSON.parse(readFileSync(new URL("package.json", cliDir), "utf8"));

// `temporalc explain` prints docs/diagnostics.md's sections, read here at build time.
const explanations = {
  name: "diagnostic-explanations",
  setup(builder) {
    builder.onResolve({ filter: /^virtual:diagnostic-explanations$/ }, (args) => ({ path: args.path, namespace: "diagnostic-explanations" }));
    builder.onLoad({ filter: /.*/, namespace: "diagnostic-explanations" }, () => {
      const docs = new URL("../../../docs/diagnostics.md", import.meta.url);
      return { contents: JSON.stringify(readDiagnosticExplanations(docs)), loader: "json", watchFiles: [docs.pathname] };
    });
  },
};

// Chunk names carry a content hash: clear the last build's, or stale chunks pile up and ship in the package.
rmSync(new URL("dist/chunks/", cliDir), { recursive: true, force: true });

const result = await build({
  entryPoints: { temporalc: new URL("src/main.ts", cliDir).pathname },
  outdir: new URL("dist/", cliDir).pathname,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  define: { TEMPORALC_VERSION: JSON.stringify(version) },
  chunkNames: "chunks/[name]-[hash]",
  logLevel: "warning",
  plugins: [explanations],
  // The bundled packages' licences ship in full in THIRD_PARTY_NOTICES instead.
  legalComments: "none",
  metafile: true,
  absWorkingDir: fileURLToPath(cliDir),
  // The SDK is shared at run time with the modules `temporalc run` generates: one instance, not a bundled copy.
  // Prettier and the plugin load only for `temporalc fmt`, from their own packages.
  external: ["@temporal/agent-sdk", "prettier", "prettier-plugin-mission"],
  // commander is CommonJS: give the bundle a real `require` for its node: built-ins.
  banner: { js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);' },
});

writeThirdPartyNotices(result.metafile, fileURLToPath(cliDir), fileURLToPath(new URL("THIRD_PARTY_NOTICES", cliDir)));
