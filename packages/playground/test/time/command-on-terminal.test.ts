import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createMemoryAuthority } from "@temporal/agent-sdk";
import { missionDials } from "@temporal/language-service";
import { afterAll, describe, expect, it } from "vitest";
import { commandLines } from "../../src/time/command-line.js";
import { verdictOf } from "../../src/worker/verdict.js";
import { mustLoad } from "./compiled.js";

const repo = fileURLToPath(new URL("../../../../", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "pgtime-command-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Runs a command line as the panel shows it, in a real POSIX shell, with the repository's temporalc first on PATH. */
function inShell(line: string): string {
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${join(repo, "bin")}:${process.env["PATH"]}`, TEMPORAL_HOME: join(work, "home"), NO_COLOR: "1" };
  delete env["TEMPORAL_URL"];
  return execFileSync("sh", ["-c", line], { cwd: work, env, encoding: "utf8" });
}

describe("the equivalent command", () => {
  it("runs as shown, file name quoting included, and temporalc decides what the panel decided", { timeout: 30_000 }, async () => {
    const source = readFileSync(join(repo, "examples/ml-training.mission"), "utf8");
    const filename = "it's my training.mission";
    writeFileSync(join(work, filename), source);
    copyFileSync(join(repo, "examples/tasks.mjs"), join(work, "tasks.mjs"));
    const file = mustLoad(source);
    const authority = createMemoryAuthority();
    const verdicts: string[] = [];
    try {
      for (const settings of [
        { at: Date.parse("2026-11-22T03:00:00Z"), carbon: 0.0000001, hsBloch: 0.95 }, // in the window, a tiny carbon written out: ALLOW
        { at: Date.parse("2026-11-22T12:00:00Z"), carbon: 300, hsBloch: null }, // outside, dirty, unmeasured: every kind of reason
      ]) {
        const lines = commandLines(filename, settings, { executesTasks: true });
        const dial = missionDials(file.model, { at: settings.at, viewerTimeZone: "UTC" })!;
        const panel = await verdictOf(file.missions[0]!, dial, { ...settings, authority });
        const decided = JSON.parse(inShell(`${lines.run} --dry-run --json`)) as { verdict: string; reasons: string[] };
        expect({ verdict: decided.verdict, reasons: decided.reasons }).toEqual({ verdict: panel.verdict, reasons: panel.reasons.map((r) => r.code) });
        verdicts.push(decided.verdict);
      }
      expect(verdicts).toEqual(["ALLOW", "DENY"]);
      expect(inShell(commandLines(filename, { at: Date.parse("2026-11-22T03:00:00Z"), carbon: null, hsBloch: null }, { executesTasks: true }).show)).toContain("train_model");
    } finally {
      await authority.close();
    }
  });
});
