// Each package's `prepack` (npm runs it in the package's folder before
// `npm pack` and `npm publish`): the package's dist/ is deleted and rebuilt,
// so a stale or missing build can never end up in a tarball. Deleting the
// .tsbuildinfo too matters: `tsc -b` trusts it and would otherwise skip a
// project whose dist/ is gone. Project references are rebuilt by `tsc -b`
// only when out of date; each package cleans its own dist/ when it is packed.
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { createRequire } from "node:module";

const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");

rmSync("dist", { recursive: true, force: true });
rmSync("tsconfig.tsbuildinfo", { force: true });
execFileSync(process.execPath, [tsc, "-b"], { stdio: "inherit" });
