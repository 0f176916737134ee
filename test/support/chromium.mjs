// Headless Chromium for the real-browser tests (the SDK's bundled mission, the playground) and the playground
// benchmark: Debian's `chromium`, driven by playwright-core, which ships no browser of its own. Plain JavaScript
// (typed by chromium.d.mts) so that bench/*.mjs, which Node runs untranspiled, shares it with the TypeScript tests.
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";
import { chromium } from "playwright-core";

/** Debian's chromium (.ci/run installs it), found on PATH. */
export function findChromium() {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    for (const name of ["chromium", "chromium-browser"]) {
      const file = join(dir, name);
      try {
        accessSync(file, constants.X_OK);
        return file;
      } catch {
        // not here
      }
    }
  }
  throw new Error("no chromium on PATH: install it (as root: apt-get update && apt-get install -y chromium; .ci/run does)");
}

/**
 * Launches headless Chromium. Chromium cannot start its sandbox as root (CI runs as root), so the sandbox is off
 * (`--no-sandbox`) only then; any other user keeps it. /dev/shm is small in containers: Chromium uses /tmp instead.
 */
export function launchChromium() {
  const root = process.getuid?.() === 0;
  return chromium.launch({ executablePath: findChromium(), headless: true, timeout: 90_000, chromiumSandbox: !root, args: ["--disable-dev-shm-usage"] });
}
