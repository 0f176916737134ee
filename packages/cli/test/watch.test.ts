import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "./run-cli.js";

const scratch = mkdtempSync(join(tmpdir(), "temporalc-watch-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const good = "@temporal v4.6.2\nmission a {\n  on ALLOW {\n    execute x\n  }\n}\n";
const broken = "@temporal v4.6.2\nmission a { require phase [300 30 }\n";

/** A `temporalc ... --watch` child: its output so far, a wait for some text to appear, and a stop with SIGINT. */
function startWatching(args: string[], cwd: string) {
  const child = spawn(process.execPath, [join(REPO_ROOT, "bin/temporalc"), ...args], { cwd, env: { ...process.env, NO_COLOR: "1" } });
  let output = "";
  const waiters: (() => void)[] = [];
  const collect = (chunk: Buffer) => {
    output += chunk.toString("utf8");
    for (const wake of waiters.splice(0)) wake();
  };
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return {
    output: () => output,
    /** Resolves once `text` has appeared `times` times in the output. */
    async waitFor(text: string, times = 1): Promise<void> {
      while (output.split(text).length - 1 < times) await new Promise<void>((wake) => waiters.push(wake));
    },
    async stop(): Promise<number | null> {
      child.kill("SIGINT");
      return exited;
    },
  };
}

describe("--watch", () => {
  it("check --watch checks again when a file changes, and exits 130 on Ctrl-C", async () => {
    const dir = mkdtempSync(join(scratch, "check-"));
    writeFileSync(join(dir, "a.mission"), good);
    const watcher = startWatching(["check", "--watch", "."], dir);
    // The summary is on stdout, the watching line on stderr: wait for both, in either order.
    await watcher.waitFor("checked 1 file: 0 errors, 0 warnings");
    await watcher.waitFor("for changes; press Ctrl-C to stop");
    writeFileSync(join(dir, "a.mission"), broken);
    await watcher.waitFor("checked 1 file: 2 errors");
    expect(watcher.output()).toContain("= help: temporalc explain M102");
    expect(await watcher.stop()).toBe(130);
  }, 60_000);

  it("compile --watch writes the module again after a change, and ignores its own output", async () => {
    const dir = mkdtempSync(join(scratch, "compile-"));
    writeFileSync(join(dir, "a.mission"), good);
    const watcher = startWatching(["compile", "--watch", "a.mission"], dir);
    await watcher.waitFor("for changes; press Ctrl-C to stop");
    expect(readFileSync(join(dir, "a.mjs"), "utf8")).toContain("execute");
    writeFileSync(join(dir, "a.mission"), good.replace("execute x", "execute y"));
    await watcher.waitFor("for changes; press Ctrl-C to stop", 2);
    expect(readFileSync(join(dir, "a.mjs"), "utf8")).toContain('"y"');
    // Writing a.mjs is no change to a.mission: no third run.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(watcher.output().split("compiled 1 of 1 file").length - 1).toBe(2);
    expect(await watcher.stop()).toBe(130);
    expect(existsSync(join(dir, "a.mjs"))).toBe(true);
  }, 60_000);

  it("a usage error in one run is its one line, with its code, and watching goes on", async () => {
    const dir = mkdtempSync(join(scratch, "blocked-"));
    writeFileSync(join(dir, "a.mission"), good);
    writeFileSync(join(dir, "out"), "a file where --out-dir wants a folder");
    const watcher = startWatching(["compile", "--watch", "a.mission", "--out-dir", "out"], dir);
    await watcher.waitFor("for changes; press Ctrl-C to stop");
    expect(watcher.output()).toMatch(/^temporalc: --out-dir out: cannot create the folder .*\(WRITE_FAILED\)\n/m);
    expect(await watcher.stop()).toBe(130);
  }, 60_000);
});
