// Runs `temporalc run --json` on a shared home again and again until a
// deadline, one run at a time, and prints one JSON line per run:
// { code, receipts, anchors }, then "done". A run that exits non-zero is
// reported with its stderr and ends the loop.
// Usage: node cli-loop.mjs <home> <deadline unix ms>
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const [home, deadlineArg] = process.argv.slice(2);
const deadline = Number(deadlineArg);
const root = fileURLToPath(new URL("../../../../", import.meta.url));
const args = [
  `${root}bin/temporalc`,
  "run",
  `${root}examples/nightly-backup.mission`,
  "--tasks",
  `${root}examples/tasks.mjs`,
  "--carbon",
  "180",
  "--at",
  "2026-11-22T23:30:00Z",
  "--home",
  home,
  "--json",
];

function run() {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, TEMPORAL_URL: "" } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    // "close", not "exit": at exit the child's last output may still be unread.
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

while (Date.now() < deadline) {
  const { code, stdout, stderr } = await run();
  if (code !== 0) {
    process.stdout.write(`${JSON.stringify({ code, stderr })}\n`);
    process.exit(1);
  }
  // The JSON result follows the tasks' own output lines.
  const result = JSON.parse(stdout.slice(stdout.indexOf("{")));
  process.stdout.write(`${JSON.stringify({ code, receipts: result.receipts, anchors: result.anchors })}\n`);
}
process.stdout.write("done\n");
