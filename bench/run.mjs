// `npm run bench [-- name...]`: runs each benchmark script in bench/ in its own
// process (so one's garbage does not slow the next), or only those named.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

const dir = fileURLToPath(new URL(".", import.meta.url));
const available = readdirSync(dir)
  .filter((f) => f.endsWith(".mjs") && f !== "run.mjs" && f !== "harness.mjs")
  .map((f) => f.slice(0, -4))
  .sort();
const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !available.includes(name));
if (unknown.length > 0) {
  console.error(`unknown benchmark: ${unknown.join(", ")} (available: ${available.join(", ")})`);
  process.exit(2);
}
let failed = false;
for (const name of wanted.length > 0 ? wanted : available) {
  console.log(`\n=== ${name}`);
  const result = spawnSync(process.execPath, ["--expose-gc", `${dir}${name}.mjs`], { stdio: "inherit" });
  failed ||= result.status !== 0;
}
process.exit(failed ? 1 : 0);
