/**
 * Every example of every command's `--help` (`  $ temporalc ...`) runs, as a user would paste it into bash, against
 * real fixtures in a scratch folder, and exits 0; the few that cannot (they run until Ctrl-C, or name placeholders)
 * are listed with why. The examples are read from the help itself, so a new one is run without touching this file.
 * Each runs in its own copy of the fixtures, so they run at once and none depends on another or on the hour.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, copyFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestService } from "@temporal/agent-sdk/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT, runCliAsync } from "./run-cli.js";

/** Examples that are not run, and why: each must still be in the help (checked below), so the list cannot go stale. */
const NOT_RUN: Record<string, string> = {
  "temporalc check missions/ --watch": "watches until Ctrl-C (watch.test.ts runs --watch)",
  "temporalc compile missions/ --out-dir build --watch": "watches until Ctrl-C (watch.test.ts runs --watch)",
  "temporalc playground": "serves until Ctrl-C (playground.test.ts serves it)",
  "temporalc playground --port 8080 --open": "serves until Ctrl-C and opens a browser",
  "source <(temporalc completion zsh)      # in ~/.zshrc": "zsh's script, for zsh, not the bash these examples run in",
  "temporalc verify anchored.json --keys keys.json --witness w1.example+1a2b3c4d+BK... --json": "the witness key is a placeholder (verify.test.ts checks a FINAL anchor with real ones)",
  "temporalc ledger repair --home /srv/temporal": "a server's home, outside the scratch folder (ledger.test.ts repairs one)",
  "temporalc ledger migrate --home /srv/temporal": "a server's home, outside the scratch folder (ledger.test.ts migrates one)",
};

/** The subcommands `temporalc --help` lists, in its order. */
async function commands(): Promise<string[]> {
  const help = (await runCliAsync(["--help"])).stdout;
  const listed = help.slice(help.indexOf("Commands:"));
  return [...listed.matchAll(/^ {2}([a-z]+)\b/gm)].map((match) => match[1]!).filter((name) => name !== "help");
}

interface Example {
  readonly command: string;
  /** The line after `$ `, as a user would paste it. */
  readonly line: string;
  /** The output the help shows under it, if any (`show`'s "Output, for example:"). */
  readonly output: string[];
}

async function examplesOf(command: string): Promise<Example[]> {
  const lines = (await runCliAsync([command, "--help"])).stdout.split("\n");
  return lines.flatMap((text, index) => {
    const match = /^ {2}\$ (.+)$/.exec(text);
    if (match === null) return [];
    const output: string[] = [];
    for (const next of lines.slice(index + 1)) {
      if (!next.startsWith("  ") || next.startsWith("  $ ")) break;
      output.push(next.slice(2));
    }
    return [{ command, line: match[1]!, output }];
  });
}

// The helps are read at once, not one after another: each is a process start.
const examples = (await Promise.all((await commands()).map(examplesOf))).flat();
/** The examples that pipe into jq are run where jq is installed. */
const hasJq = spawnSync("jq", ["--version"]).status === 0;

const scratch = mkdtempSync(join(tmpdir(), "temporalc-help-examples-"));
/** What every example starts from; each runs in a copy of its own (`freshCopy`). */
const fixtures = join(scratch, "fixtures");
/** A receipt anchored at 23:30 UTC, inside nightly-backup's window whatever the hour the test runs at. */
const HOME_RUN = "temporalc run examples/nightly-backup.mission --tasks examples/tasks.mjs --at 2026-11-22T23:30:00Z --json";
/** An example still running after this is stopped, with everything it started. */
const EXAMPLE_TIMEOUT_MS = 30_000;
const running = new Set<ChildProcess>();

afterAll(() => {
  for (const child of running) killGroup(child);
  rmSync(scratch, { recursive: true, force: true });
});

/**
 * The files the examples name: the repository's examples, copies under the names the help uses, a ZTT bundle with its
 * keys, and the home (.temporal) the `ledger` examples read, with a receipt in its ledger.
 */
beforeAll(async () => {
  const examplesDir = join(REPO_ROOT, "examples");
  mkdirSync(join(fixtures, "examples"), { recursive: true });
  mkdirSync(join(fixtures, "missions"));
  for (const name of readdirSync(examplesDir)) {
    copyFileSync(join(examplesDir, name), join(fixtures, "examples", name));
    if (name.endsWith(".mission")) copyFileSync(join(examplesDir, name), join(fixtures, "missions", name));
  }
  copyFileSync(join(examplesDir, "ops.mission"), join(fixtures, "ops.mission"));
  copyFileSync(join(examplesDir, "nightly-backup.mission"), join(fixtures, "a.mission"));
  copyFileSync(join(examplesDir, "ml-training.mission"), join(fixtures, "job.mission"));
  copyFileSync(join(examplesDir, "tasks.mjs"), join(fixtures, "tasks.mjs"));
  mkdirSync(join(fixtures, ".config/fish/completions"), { recursive: true });
  // `temporalc` on PATH, as after `npm install -g temporalc`.
  mkdirSync(join(fixtures, "bin"));
  writeFileSync(join(fixtures, "bin/temporalc"), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(join(REPO_ROOT, "bin/temporalc"))} "$@"\n`);
  chmodSync(join(fixtures, "bin/temporalc"), 0o755);

  // `temporalc verify`'s files: what a service's POST ztt/sign and GET keys return (one service: certifier and log).
  const payload = "deploy build 4711";
  const service = createTestService({ now: Date.UTC(2026, 10, 22, 21, 30), config: { ztt: { window: [330, 30], zone: "Z1" } } });
  try {
    const client = service.client("enterprise");
    const keys = JSON.stringify(await client.getKeys());
    writeFileSync(join(fixtures, "bundle.json"), JSON.stringify(await client.signZtt(payload)));
    for (const name of ["keys.json", "certifier.json", "log.json"]) writeFileSync(join(fixtures, name), keys);
    writeFileSync(join(fixtures, "build-4711.tar.gz"), payload);
  } finally {
    await service.close();
  }

  const made = await runInBash(fixtures, HOME_RUN);
  expect(made.status, `${made.stdout}\n${made.stderr}`).toBe(0);
  // The ledger examples then check a record, not an empty home.
  expect((JSON.parse(made.stdout) as { anchors: unknown[] }).anchors).toHaveLength(1);
}, 60_000);

/** A copy of the fixtures for one example, so what it writes (a home, a completion file, modules) no other sees. */
function freshCopy(): string {
  const folder = mkdtempSync(join(scratch, "example-"));
  cpSync(fixtures, folder, { recursive: true });
  return folder;
}

/** Stops `child` and whatever it started (it leads its own process group). */
function killGroup(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, "SIGKILL");
  } catch {
    // Already gone.
  }
}

/** Runs `line` in bash in `folder`, its HOME too (pipes fail the line too), with no service configured; stopped after EXAMPLE_TIMEOUT_MS. */
function runInBash(folder: string, line: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const env: Record<string, string | undefined> = { ...process.env, HOME: folder, PATH: `${join(folder, "bin")}:${process.env["PATH"] ?? ""}`, NO_COLOR: "1" };
  for (const name of ["TEMPORAL_URL", "TEMPORAL_API_KEY", "TEMPORAL_HOME", "FORCE_COLOR"]) delete env[name];
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-c", `set -o pipefail\n${line}`], { cwd: folder, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    running.add(child);
    const timer = setTimeout(() => killGroup(child), EXAMPLE_TIMEOUT_MS);
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const settled = () => {
      clearTimeout(timer);
      running.delete(child);
    };
    child.on("error", (error) => {
      settled();
      reject(error);
    });
    child.on("close", (status, signal) => {
      settled();
      resolve({ status, stdout, stderr: signal === null ? stderr : `${stderr}\nstopped by ${signal} after ${EXAMPLE_TIMEOUT_MS} ms` });
    });
  });
}

describe.concurrent("every --help example runs and exits 0", () => {
  it("finds examples in the help, and each one not run is still there", () => {
    expect(examples.length).toBeGreaterThan(20);
    const lines = new Set(examples.map((example) => example.line));
    for (const line of Object.keys(NOT_RUN)) expect(lines, line).toContain(line);
  });

  for (const { command, line, output } of examples.filter((example) => !Object.hasOwn(NOT_RUN, example.line))) {
    it.skipIf(line.includes("| jq") && !hasJq)(
      `${command}: ${line}`,
      async ({ expect }) => {
        const result = await runInBash(freshCopy(), line);
        expect(result.status, `${result.stdout}\n${result.stderr}`).toBe(0);
        // Output the help shows is what the command prints.
        if (output.length > 0) expect(result.stdout).toContain(output.join("\n"));
      },
      60_000,
    );
  }
});
