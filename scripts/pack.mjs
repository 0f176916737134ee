#!/usr/bin/env node
// `npm run pack`: one tarball per workspace package, all in dist-packages/,
// ready for `npm install ./dist-packages/*.tgz` or `npm publish <tarball>`.
// Each package's `prepack` rebuilds it from scratch first (scripts/prepack.mjs).
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));

/**
 * Packs every workspace package into `destination` (replaced as a whole, so
 * it never mixes tarballs of two runs) and returns the tarballs' paths,
 * sorted. `runPrepack: false` packs the current builds as they are: for a
 * caller that has just built and must not rewrite dist/ under other readers.
 */
export function packAll({ destination = join(root, "dist-packages"), runPrepack = true } = {}) {
  const target = resolve(destination);
  const staging = mkdtempSync(join(dirname(target), `.${basename(target)}-`));
  try {
    const args = ["pack", ...publicWorkspaces().flatMap((folder) => ["--workspace", folder]), "--pack-destination", staging, "--loglevel", "warn"];
    if (!runPrepack) args.push("--ignore-scripts");
    // npm's and the builds' output goes to stderr; stdout is left for the list of tarballs.
    execFileSync("npm", args, { cwd: root, stdio: ["ignore", 2, "inherit"] });
    rmSync(target, { recursive: true, force: true });
    renameSync(staging, target);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  return readdirSync(target)
    .filter((name) => name.endsWith(".tgz"))
    .sort()
    .map((name) => join(target, name));
}

/** The workspace folders to pack: all but the private ones (the VS Code extension ships as a .vsix instead). */
function publicWorkspaces() {
  const manifest = (folder) => JSON.parse(readFileSync(join(root, folder, "package.json"), "utf8"));
  return manifest(".").workspaces.filter((folder) => manifest(folder).private !== true);
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const tarball of packAll()) console.log(tarball);
}
