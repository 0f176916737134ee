/**
 * A folder on a read-only file system: `compile --out-dir` and `run --home`
 * name the folder and the cause (the file system is read-only) and exit 2, and no task runs. A real
 * read-only mount needs a private mount namespace (`unshare -m`, as root);
 * where that is not allowed the test is skipped, since running as root makes
 * permission bits no substitute.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "./run-cli.js";

const scratch = mkdtempSync(join(tmpdir(), "temporalc-read-only-"));
const mountPoint = join(scratch, "ro");
const canMountReadOnly = spawnSync("unshare", ["-m", "sh", "-c", `mkdir -p ${mountPoint} && mount -t tmpfs -o ro tmpfs ${mountPoint}`]).status === 0;

/** Runs temporalc in a private mount namespace where `mountPoint` is an empty read-only file system. */
function temporalcOnReadOnlyMount(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const script = `mount -t tmpfs -o ro tmpfs "$1" && shift && exec "$@"`;
  const result = spawnSync("unshare", ["-m", "sh", "-c", script, "sh", mountPoint, process.execPath, join(REPO_ROOT, "bin/temporalc"), ...args], {
    cwd: REPO_ROOT,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", TEMPORAL_URL: "", TEMPORAL_HOME: "" },
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe.runIf(canMountReadOnly)("folders on a read-only file system", () => {
  it("compile --out-dir names the folder and that the file system is read-only, exit 2", () => {
    const result = temporalcOnReadOnlyMount(["compile", "examples/nightly-backup.mission", "--out-dir", join(mountPoint, "out")]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`cannot create the folder ${join(mountPoint, "out")}: the file system is read-only (WRITE_FAILED)\n`);
  });

  it("run --home names the folder and that the file system is read-only, exit 2, and no task runs", () => {
    const marker = join(scratch, "ran");
    const tasks = join(scratch, "tasks.mjs");
    writeFileSync(
      tasks,
      `import { writeFileSync } from "node:fs";\nexport const snapshot_db = () => writeFileSync(${JSON.stringify(marker)}, "ran");\nexport const upload_offsite = () => {};\n`,
    );
    const result = temporalcOnReadOnlyMount([
      "run",
      "examples/nightly-backup.mission",
      "--tasks",
      tasks,
      "--carbon",
      "100",
      "--at",
      "2026-11-22T23:30:00Z",
      "--home",
      join(mountPoint, "home"),
    ]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`cannot create the folder ${join(mountPoint, "home")}: the file system is read-only (the home must be a folder`);
    expect(result.stderr).toContain("No task ran.");
    expect(existsSync(marker)).toBe(false);
  });
});
