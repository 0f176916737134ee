// THIRD_PARTY_NOTICES for a bundle (the CLI's, the VS Code extension's, the
// playground's site): it contains code of
// third-party packages (chevrotain is Apache-2.0, commander MIT, ...) whose
// licences require their notices to travel with it. The file holds every
// bundled package's own licence text in full, in a fixed order, so two
// builds of the same dependencies give the same bytes.
import { readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join, sep } from "node:path";

const licenceFileName = /^(licen[cs]e|copying)(\.(md|txt))?$/i;

/** The folder of the package an esbuild input belongs to, or undefined for the repository's own code. */
function packageFolder(input) {
  const parts = input.split("/");
  const at = parts.lastIndexOf("node_modules");
  if (at < 0) return undefined;
  const length = parts[at + 1]?.startsWith("@") ? 2 : 1;
  return parts.slice(0, at + 1 + length).join("/");
}

function licenceText(folder, name, product) {
  const file = readdirSync(folder)
    .filter((entry) => licenceFileName.test(entry))
    .sort()[0];
  if (file === undefined) {
    throw new Error(`${name} is bundled into ${product} but ships no licence file: its notice cannot be reproduced`);
  }
  return readFileSync(join(folder, file), "utf8").replace(/\r\n/g, "\n").trimEnd();
}

/** The bundled third-party packages (name, version, licence, text) of an esbuild metafile, sorted by name and version. */
export function bundledPackages(metafile, workingDir, product = "temporalc") {
  return packagesOfModules(
    Object.keys(metafile.inputs).map((input) => join(workingDir, input)),
    product,
  );
}

/** The third-party packages that bundled modules (absolute file paths, e.g. a Vite build's module ids) belong to, sorted by name and version. */
export function packagesOfModules(modulePaths, product = "temporalc") {
  const folders = new Set();
  for (const path of modulePaths) {
    const folder = packageFolder(path.split(sep).join("/"));
    if (folder !== undefined) folders.add(folder);
  }
  return [...folders]
    .map((folder) => {
      const { name, version, license } = JSON.parse(readFileSync(join(folder, "package.json"), "utf8"));
      return { name, version, license, text: licenceText(folder, name, product) };
    })
    .sort((a, b) => (a.name === b.name ? a.version.localeCompare(b.version) : a.name < b.name ? -1 : 1));
}

/** `product` names what bundles them: the CLI, or the VS Code extension (packages/vscode-mission). */
export function renderNotices(packages, product = "temporalc") {
  const header = `${product} bundles the following third-party packages into dist/.\n` + "Their licences follow, one section per package.\n";
  const sections = packages.map(({ name, version, license, text }) => `${"=".repeat(72)}\n${name}@${version} (${license})\n${"=".repeat(72)}\n\n${text}\n`);
  return [header, ...sections].join("\n");
}

/** Writes the notices for an esbuild metafile (paths relative to `workingDir`) to `file`, atomically. */
export function writeThirdPartyNotices(metafile, workingDir, file, product = "temporalc") {
  writeNotices(bundledPackages(metafile, workingDir, product), file, product);
}

/** Writes the notices for `packages` (from `bundledPackages` or `packagesOfModules`) to `file`, atomically. */
export function writeNotices(packages, file, product = "temporalc") {
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, renderNotices(packages, product));
  renameSync(temp, file);
}
