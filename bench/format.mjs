// `temporalc fmt --check` over the mission fixtures against `prettier --check`
// over already-formatted JavaScript files of the same total size, both as
// processes, in the same run.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import * as prettier from "prettier";
import plugin from "prettier-plugin-mission";
import { fixed, medianProcessMs, printTable } from "./harness.mjs";

const root = fileURLToPath(new URL("../", import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), "temporalc-format-bench-"));
try {
  const missionsDir = join(scratch, "missions");
  const jsDir = join(scratch, "js");
  mkdirSync(missionsDir);
  mkdirSync(jsDir);

  // The valid fixtures, formatted, so the check passes and reads every file.
  let missionBytes = 0;
  for (const file of readdirSync(join(root, "fixtures/valid")).filter((f) => f.endsWith(".mission"))) {
    const formatted = await prettier.format(readFileSync(join(root, "fixtures/valid", file), "utf8"), { parser: "mission", plugins: [plugin] });
    writeFileSync(join(missionsDir, file), formatted);
    missionBytes += formatted.length;
  }

  // One already-formatted JavaScript file per mission file, of the same size to within a line.
  let jsBytes = 0;
  for (const file of readdirSync(missionsDir)) {
    const size = readFileSync(join(missionsDir, file), "utf8").length;
    let text = "";
    for (let k = 0; text.length < size; k++) text += `export const value${k} = ${k};\n`;
    writeFileSync(join(jsDir, file.replace(/\.mission$/, ".mjs")), text);
    jsBytes += text.length;
  }

  const prettierBin = createRequire(import.meta.url).resolve("prettier/bin/prettier.cjs");
  const [prettierMs, fmtMs] = medianProcessMs([
    [process.execPath, [prettierBin, "--check", jsDir, "--log-level", "silent"]],
    [process.execPath, [join(root, "bin/temporalc"), "fmt", "--check", missionsDir]],
  ]);
  printTable(`Format check (${readdirSync(missionsDir).length} mission files, ${missionBytes} bytes; ${readdirSync(jsDir).length} JavaScript files, ${jsBytes} bytes)`, [
    ["what", "median ms"],
    ["prettier --check on JavaScript (baseline)", fixed(prettierMs, 1)],
    ["temporalc fmt --check on mission files", fixed(fmtMs, 1)],
  ]);
  console.log(`  ratio: ${fixed(fmtMs / prettierMs)}x`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
