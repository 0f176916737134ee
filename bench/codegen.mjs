// Code generation: end-to-end compile throughput against the front-end alone
// (lex + parse + check) on the same file; a compiled mission's run() per
// second without anchoring, against evaluate() alone; and `temporalc compile`
// of one file against bare `node -e 0`.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { check, compile, parse } from "../packages/compiler/dist/index.js";
import { fixed, medianMsEach, medianProcessMs, missionSource, printTable } from "./harness.mjs";

const source = missionSource(2_000_000);
const mb = source.length / 1e6;
const [frontMs, compileMs] = medianMsEach([() => check(parse(source).ast), () => compile(source)], { runs: 7 });
printTable(`Compile throughput (${fixed(mb)} MB mission file)`, [
  ["what", "median ms", "MB/s"],
  ["front-end: scan + parse + check (baseline)", fixed(frontMs, 1), fixed(mb / (frontMs / 1000), 1)],
  ["compile: front-end + code generation", fixed(compileMs, 1), fixed(mb / (compileMs / 1000), 1)],
]);
console.log(`  code generation costs ${fixed(((compileMs - frontMs) / frontMs) * 100, 0)}% on top of the front-end (target <= 30%)`);

const scratch = mkdtempSync(join(tmpdir(), "temporalc-bench-"));
try {
  const mission = `@temporal v4.6.2
mission hot_path {
  require phase [0, 360]
  require carbon < 300
  require hs_bloch >= 0.5
  on ALLOW { execute work }
  on DENY { execute fallback }
}
`;
  const sdk = pathToFileURL(fileURLToPath(new URL("../packages/sdk/dist/index.js", import.meta.url))).href;
  const file = join(scratch, "hot-path.mjs");
  writeFileSync(file, compile(mission, { sdkModule: sdk }).code);
  const { hot_path } = await import(pathToFileURL(file).href);
  const options = { clock: () => 1_800_000_000_000, carbon: 120, hsBloch: 0.9, tasks: { work: () => {}, fallback: () => {} } };
  const calls = 20_000;
  const timeCalls = async (fn) => {
    for (let i = 0; i < 2_000; i++) await fn();
    const start = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) await fn();
    return calls / (Number(process.hrtime.bigint() - start) / 1e9);
  };
  const evaluatePerSecond = await timeCalls(() => hot_path.evaluate(options));
  const runPerSecond = await timeCalls(() => hot_path.run(options));
  printTable(`A compiled mission without anchoring (${calls} calls each)`, [
    ["what", "calls/s"],
    ["evaluate(): decide only (baseline)", fixed(evaluatePerSecond, 0)],
    ["run(): decide and run one task", fixed(runPerSecond, 0)],
  ]);

  const bin = fileURLToPath(new URL("../bin/temporalc", import.meta.url));
  const example = fileURLToPath(new URL("../examples/nightly-backup.mission", import.meta.url));
  const [nodeMs, compileCliMs] = medianProcessMs([
    [process.execPath, ["-e", "0"]],
    [process.execPath, [bin, "compile", example, "--out-dir", scratch]],
  ]);
  printTable("temporalc compile start-up (median of 15 runs)", [
    ["what", "median ms"],
    ["node -e 0 (baseline)", fixed(nodeMs, 1)],
    ["temporalc compile nightly-backup.mission", fixed(compileCliMs, 1)],
  ]);
  console.log(`  ratio to node -e 0: ${fixed(compileCliMs / nodeMs)}x (target <= 2x)`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
