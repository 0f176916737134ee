/**
 * Every example of every command's `--help` (`  $ temporalc ...`) runs, as a user would paste it into bash, against
 * real fixtures in a scratch folder, and exits 0; the few that cannot (they run until Ctrl-C, or name placeholders)
 * are listed with why. The examples are read from the help itself, so a new one is run without touching this file.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestService } from "@temporal/agent-sdk/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT, runCli } from "./run-cli.js";

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
function commands(): string[] {
  const help = runCli(["--help"]).stdout;
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

function examplesOf(command: string): Example[] {
  const lines = runCli([command, "--help"]).stdout.split("\n");
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

const examples = commands().flatMap(examplesOf);
/** The examples that pipe into jq are run where jq is installed. */
const hasJq = spawnSync("jq", ["--version"]).status === 0;

const scratch = mkdtempSync(join(tmpdir(), "temporalc-help-examples-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The files the examples name: the repository's examples, copies under the names the help uses, and a ZTT bundle with its keys. */
beforeAll(async () => {
  const examplesDir = join(REPO_ROOT, "examples");
  mkdirSync(join(scratch, "examples"));
  mkdirSync(join(scratch, "missions"));
  for (const name of readdirSync(examplesDir)) {
    copyFileSync(join(examplesDir, name), join(scratch, "examples", name));
    if (name.endsWith(".mission")) copyFileSync(join(examplesDir, name), join(scratch, "missions", name));
  }
  copyFileSync(join(examplesDir, "ops.mission"), join(scratch, "ops.mission"));
  copyFileSync(join(examplesDir, "nightly-backup.mission"), join(scratch, "a.mission"));
  copyFileSync(join(examplesDir, "ml-training.mission"), join(scratch, "job.mission"));
  copyFileSync(join(examplesDir, "tasks.mjs"), join(scratch, "tasks.mjs"));
  mkdirSync(join(scratch, ".config/fish/completions"), { recursive: true });
  // `temporalc` on PATH, as after `npm install -g temporalc`.
  mkdirSync(join(scratch, "bin"));
  writeFileSync(join(scratch, "bin/temporalc"), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(join(REPO_ROOT, "bin/temporalc"))} "$@"\n`);
  chmodSync(join(scratch, "bin/temporalc"), 0o755);

  // `temporalc verify`'s files: what a service's POST ztt/sign and GET keys return (one service: certifier and log).
  const payload = "deploy build 4711";
  const service = createTestService({ now: Date.UTC(2026, 10, 22, 21, 30), config: { ztt: { window: [330, 30], zone: "Z1" } } });
  try {
    const client = service.client("enterprise");
    const keys = JSON.stringify(await client.getKeys());
    writeFileSync(join(scratch, "bundle.json"), JSON.stringify(await client.signZtt(payload)));
    for (const name of ["keys.json", "certifier.json", "log.json"]) writeFileSync(join(scratch, name), keys);
    writeFileSync(join(scratch, "build-4711.tar.gz"), payload);
  } finally {
    await service.close();
  }
});

/** Runs `line` in bash in the scratch folder (pipes fail the line too), with no service configured. */
function runInBash(line: string) {
  const env: Record<string, string | undefined> = { ...process.env, HOME: scratch, PATH: `${join(scratch, "bin")}:${process.env["PATH"] ?? ""}`, NO_COLOR: "1" };
  for (const name of ["TEMPORAL_URL", "TEMPORAL_API_KEY", "TEMPORAL_HOME", "FORCE_COLOR"]) delete env[name];
  return spawnSync("bash", ["-c", `set -o pipefail\n${line}`], { cwd: scratch, env, encoding: "utf8", timeout: 60_000 });
}

describe("every --help example runs and exits 0", () => {
  it("finds examples in the help, and each one not run is still there", () => {
    expect(examples.length).toBeGreaterThan(20);
    const lines = new Set(examples.map((example) => example.line));
    for (const line of Object.keys(NOT_RUN)) expect(lines, line).toContain(line);
  });

  // In the help's order: `ledger status --home .temporal` reads the home the `run` examples made.
  for (const { command, line, output } of examples.filter((example) => !Object.hasOwn(NOT_RUN, example.line))) {
    it.skipIf(line.includes("| jq") && !hasJq)(
      `${command}: ${line}`,
      () => {
        const result = runInBash(line);
        expect(result.status, `${result.stdout}\n${result.stderr}`).toBe(0);
        // Output the help shows is what the command prints.
        if (output.length > 0) expect(result.stdout).toContain(output.join("\n"));
      },
      60_000,
    );
  }
});
