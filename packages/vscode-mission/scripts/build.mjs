// Builds what the .vsix ships into dist/: the extension and the language server as one self-contained bundle each
// (the .vsix carries no node_modules), and the TextMate grammar, copied from the repository's grammar/ so there is
// one source. `vsce package` runs this first (the `vscode:prepublish` script). The extension is type-checked by the
// repository's `tsc -b` (npm run build), not here, so packaging does not pay for a second type check.
import { copyFileSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { writeThirdPartyNotices } from "../../cli/scripts/third-party-notices.mjs";

const packageDir = fileURLToPath(new URL("../", import.meta.url));
const dist = fileURLToPath(new URL("../dist/", import.meta.url));
const require = createRequire(import.meta.url);
// VS Code 1.82, the oldest `engines.vscode` allows, runs extensions and their servers on Node 18.
const target = "node18";

mkdirSync(dist, { recursive: true });

// Both bundles' inputs, for the licence notices; paths are relative to the package folder.
const common = { bundle: true, platform: "node", target, logLevel: "warning", metafile: true, absWorkingDir: packageDir, legalComments: "none" };

const extension = await build({
  ...common,
  entryPoints: [fileURLToPath(new URL("../src/extension.ts", import.meta.url))],
  outfile: `${dist}extension.cjs`,
  format: "cjs",
  // Provided by VS Code at run time.
  external: ["vscode"],
});

// The server's own bin is the entry point, so the bundle starts exactly as `temporal-language-server --stdio` does.
const server = await build({
  ...common,
  entryPoints: [join(dirname(require.resolve("@temporal/language-server/package.json")), "bin/temporal-language-server.js")],
  outfile: `${dist}server.mjs`,
  format: "esm",
  // vscode-languageserver is CommonJS: give the bundle a real `require` for its node: built-ins.
  banner: { js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);' },
});

copyFileSync(fileURLToPath(new URL("../../../grammar/mission.tmLanguage.json", import.meta.url)), `${dist}mission.tmLanguage.json`);
// The bundles' licences ship in full in THIRD_PARTY_NOTICES instead of as comments in the code.
const inputs = { ...extension.metafile.inputs, ...server.metafile.inputs };
writeThirdPartyNotices({ inputs }, packageDir, `${dist}THIRD_PARTY_NOTICES`, "vscode-mission");
