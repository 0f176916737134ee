import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

/**
 * A tiny application that imports two missions, written into a gitignored
 * folder inside the repository so that Node, running the bundle, resolves
 * the external `@temporal/agent-sdk` from the workspace's node_modules.
 */

const OUT_ROOT = join(dirname(fileURLToPath(import.meta.url)), ".out");

export const WINDOW_MISSION = `@temporal v4.6.2

mission late_shift {
  require phase [300, 30]
  on ALLOW {
    execute open_gate
  }
  on DENY {
    execute log_denied
  }
}
`;

/** Line 4 of WINDOW_MISSION: the generated `allow(...)` call must map back here. */
export const REQUIRE_PHASE_LINE = 4;

export const CARBON_MISSION = `@temporal v4.6.2

mission green_build {
  require carbon < 250
  on ALLOW {
    execute build
  }
}
`;

/** `require phase [400, 30]`: M300 at line 4, column 18 (the bound). */
export const BROKEN_MISSION = `@temporal v4.6.2

mission broken {
  require phase [400, 30]
  on ALLOW {
    execute open_gate
  }
}
`;

// 22:30 UTC is phase 337.5 in zone Z0: inside [300, 30]. Noon (180) is outside.
const APP = `import windows, { late_shift } from "./window.mission";
import { missions as carbon } from "./carbon.mission";

const at = (iso) => () => Date.parse(iso);
const executed = [];
const tasks = Object.fromEntries(["open_gate", "log_denied", "build"].map((name) => [name, () => { executed.push(name); }]));

async function main() {
  const night = await late_shift.run({ clock: at("2026-11-22T22:30:00Z"), tasks });
  const noon = await windows.late_shift.run({ clock: at("2026-11-22T12:00:00Z"), tasks });
  const clean = await carbon.green_build.run({ clock: at("2026-11-22T12:00:00Z"), carbon: 180, tasks });
  const dirty = await carbon.green_build.run({ clock: at("2026-11-22T12:00:00Z"), carbon: 400, tasks });
  const verdicts = [night, noon, clean, dirty].map((r) => [r.verdict, ...r.reasons].join(" "));
  console.log(JSON.stringify({ verdicts, executed }));
}
main();
`;

export const EXPECTED_RUN = {
  verdicts: ["ALLOW", "DENY PHASE_OUTSIDE_WINDOW", "ALLOW", "DENY CARBON_ABOVE_THRESHOLD"],
  executed: ["open_gate", "log_denied", "build"],
};

export interface App {
  dir: string;
  entry: string;
  out: string;
  window: string;
  remove(): Promise<void>;
}

/** Writes the app; `broken: true` replaces the window mission with one that has an error. */
export async function writeApp(name: string, { broken = false } = {}): Promise<App> {
  await mkdir(OUT_ROOT, { recursive: true });
  const dir = await mkdtemp(join(OUT_ROOT, `${name}-`));
  const entry = join(dir, "app.js");
  const window = join(dir, "window.mission");
  await writeFile(entry, APP);
  await writeFile(window, broken ? BROKEN_MISSION : WINDOW_MISSION);
  await writeFile(join(dir, "carbon.mission"), CARBON_MISSION);
  return { dir, entry, out: join(dir, "dist"), window, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** Runs a bundle with Node and returns what the app printed. */
export async function runBundle(file: string): Promise<unknown> {
  const { stdout } = await promisify(execFile)(process.execPath, ["--no-warnings", file], { cwd: dirname(file) });
  return JSON.parse(stdout);
}

export const SDK = "@temporal/agent-sdk";
