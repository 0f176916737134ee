import { execFile, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const BIN = `${REPO_ROOT}bin/temporalc`;
const TIMEOUT_MS = 60_000;

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
  input?: string;
  /** File descriptors to give the CLI as its standard input, output or error instead of pipes (such a stream reads as ""). */
  fds?: { stdin?: number; stdout?: number; stderr?: number };
  /** A command to run the CLI under, such as `setpriv` with the arguments that drop root's capabilities. */
  under?: string[];
}

/** The program to start and its arguments: node with the CLI and `args`, under `under` when given. */
function commandLine(args: string[], under: string[] = []): [string, string[]] {
  const [program, ...rest] = [...under, process.execPath, BIN, ...args];
  return [program as string, rest];
}

/** The test's environment without colour settings, with `extra` on top (an `undefined` value removes a variable). */
function cliEnv(extra: CliOptions["env"]): Record<string, string> {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: undefined, FORCE_COLOR: undefined, ...extra };
  for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
  return env as Record<string, string>;
}

/** Runs the built CLI as a user would, from the repository root unless `cwd` says otherwise. */
export function runCli(args: string[], options: CliOptions = {}): CliResult {
  const { stdin = "pipe", stdout = "pipe", stderr = "pipe" } = options.fds ?? {};
  const result = spawnSync(...commandLine(args, options.under), {
    cwd: options.cwd ?? REPO_ROOT,
    env: cliEnv(options.env),
    encoding: "utf8",
    stdio: [stdin, stdout, stderr],
    ...(stdin === "pipe" ? { input: options.input ?? "" } : {}),
    timeout: TIMEOUT_MS,
  });
  return { code: result.status, stdout: result.stdout ?? "", stderr: result.stderr ?? "" };
}

/** `runCli` without blocking this process, for a CLI that talks to a server running in the test. */
export function runCliAsync(args: string[], options: Omit<CliOptions, "input" | "fds"> = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = execFile(
      ...commandLine(args, options.under),
      { cwd: options.cwd ?? REPO_ROOT, env: cliEnv(options.env), encoding: "utf8", timeout: TIMEOUT_MS },
      (error, stdout, stderr) => {
        resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : null, stdout, stderr });
      },
    );
    child.stdin?.end();
  });
}
