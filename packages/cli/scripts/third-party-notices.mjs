// THIRD_PARTY_NOTICES for the CLI bundle: the bundle contains code of
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

function licenceText(folder, name) {
  const file = readdirSync(folder)
    .filter((entry) => licenceFileName.test(entry))
    .sort()[0];
  if (file === undefined) {
    throw new Error(`${name} is bundled into the CLI but ships no licence file: its notice cannot be reproduced`);
  }
  return readFileSync(join(folder, file), "utf8").replace(/\r\n/g, "\n").trimEnd();
}

/** The bundled third-party packages (name, version, licence, text), sorted by name and version. */
export function bundledPackages(metafile, workingDir) {
  const folders = new Set();
  for (const input of Object.keys(metafile.inputs)) {
    const folder = packageFolder(input.split(sep).join("/"));
    if (folder !== undefined) folders.add(join(workingDir, folder));
  }
  return [...folders]
    .map((folder) => {
      const { name, version, license } = JSON.parse(readFileSync(join(folder, "package.json"), "utf8"));
      return { name, version, license, text: licenceText(folder, name) };
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
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, renderNotices(bundledPackages(metafile, workingDir), product));
  renameSync(temp, file);
}
