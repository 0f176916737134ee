import { copyFile, mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { compile } from "@temporal/compiler";
import { tempDir } from "../helpers.js";

const repoNodeModules = fileURLToPath(new URL("../../../../node_modules", import.meta.url));
const pageDir = fileURLToPath(new URL("page/", import.meta.url));

/**
 * `late_shift` only runs tasks; `audited_shift` also anchors a receipt, so it
 * needs an authority. In zone Z0, 22:30 UTC is phase 337.5: inside [300, 30].
 */
export const MISSIONS = `@temporal v4.6.2
@anchor Z0

mission late_shift {
  require phase [300, 30]
  on ALLOW {
    execute open_gate
    execute notify
  }
  on DENY {
    execute log_denied
  }
}

mission audited_shift {
  require phase [300, 30]
  on ALLOW {
    execute open_gate
    anchor TSAE -> clockchain
  }
  on DENY {
    anchor TSAE -> clockchain
  }
}
`;

export const NIGHT = "2026-11-22T22:30:00Z";
export const NOON = "2026-11-22T12:00:00Z";
/** When [300, 30] next opens in Z0 after NOON: 20:00 UTC. */
export const NEXT_OPEN_AFTER_NOON = Date.UTC(2026, 10, 22, 20);

export interface MissionApp {
  /** Holds index.html and main.js, the test page that drives the missions (page/). */
  dir: string;
  /** The compiled module, importing everything from `@temporal/agent-sdk` as temporalc writes it. */
  missions: string;
}

/**
 * A temporary app folder holding the compiled missions and the test page.
 * Its node_modules is a link to the repository's, so `@temporal/agent-sdk`
 * resolves to this workspace's package as it would from a dependency.
 */
export async function writeMissionApp(): Promise<MissionApp> {
  const dir = await tempDir();
  await symlink(repoNodeModules, join(dir, "node_modules"), "dir");
  const { code, diagnostics } = compile(MISSIONS, { filename: "shifts.mission" });
  if (code === undefined) throw new Error(`the test missions do not compile: ${JSON.stringify(diagnostics)}`);
  await mkdir(join(dir, "src"));
  const missions = join(dir, "src", "shifts.mjs");
  await writeFile(missions, code);
  for (const file of ["index.html", "main.js"]) await copyFile(join(pageDir, file), join(dir, file));
  return { dir, missions };
}
