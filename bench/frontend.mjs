// Front-end throughput (lex + parse + check) against JSON.parse on a JSON
// document of the same size, with a breakdown by phase; and `temporalc check`
// start-up against bare `node -e 0`.
import { fileURLToPath } from "node:url";
import { check, parse } from "../packages/compiler/dist/index.js";
import { tokenize } from "../packages/compiler/dist/tokenize.js";
import { fixed, flat, medianMsEach, medianProcessMs, missionSource, printTable } from "./harness.mjs";

function jsonOfSameSize(bytes) {
  const missions = [];
  let size = 2;
  for (let i = 0; size < bytes; i++) {
    const mission = {
      name: `job_${i}`,
      phase: [(i * 7) % 360, (i * 7 + 45) % 360],
      carbon: 100 + (i % 500),
      hsBloch: i / 10,
      allow: [`task_${i}_prepare`, `task_${i}_run`],
      anchor: true,
      comment: "nightly work",
    };
    size += JSON.stringify(mission).length + 1;
    missions.push(mission);
  }
  return JSON.stringify(missions);
}

// Flatten both strings so neither side pays for a rope.
const source = missionSource(2_000_000);
const json = flat(jsonOfSameSize(source.length));
const mb = (text) => text.length / 1e6;

const [jsonMs, scanMs, parseMs, frontMs] = medianMsEach([() => JSON.parse(json), () => tokenize(source), () => parse(source), () => check(parse(source).ast)]);
const throughput = (text, ms) => mb(text) / (ms / 1000);
const frontRatio = throughput(source, frontMs) / throughput(json, jsonMs);

printTable(`Front-end throughput (${fixed(mb(source))} MB mission file, ${fixed(mb(json))} MB JSON)`, [
  ["what", "median ms", "MB/s", "share of front-end"],
  ["JSON.parse (baseline)", fixed(jsonMs, 1), fixed(throughput(json, jsonMs), 1), ""],
  ["scan", fixed(scanMs, 1), fixed(throughput(source, scanMs), 1), `${fixed((scanMs / frontMs) * 100, 0)}%`],
  ["scan + parse", fixed(parseMs, 1), fixed(throughput(source, parseMs), 1), `${fixed((parseMs / frontMs) * 100, 0)}%`],
  ["scan + parse + check", fixed(frontMs, 1), fixed(throughput(source, frontMs), 1), "100%"],
]);
console.log(`  ratio to JSON.parse: ${fixed(frontRatio, 3)} (target >= 0.25)`);

const bin = fileURLToPath(new URL("../bin/temporalc", import.meta.url));
const small = fileURLToPath(new URL("../fixtures/valid/minimal.mission", import.meta.url));
const [nodeMs, checkMs] = medianProcessMs([
  [process.execPath, ["-e", "0"]],
  [process.execPath, [bin, "check", small]],
]);
printTable("CLI start-up (median of 15 runs)", [
  ["what", "median ms"],
  ["node -e 0 (baseline)", fixed(nodeMs, 1)],
  ["temporalc check minimal.mission", fixed(checkMs, 1)],
]);
console.log(`  ratio to node -e 0: ${fixed(checkMs / nodeMs)}x (target <= 2x)`);
