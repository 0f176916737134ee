import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const BIN = `${REPO_ROOT}bin/temporalc`;

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI as a user would, from the repository root unless `cwd` says otherwise. */
export function runCli(args: string[], options: { env?: Record<string, string>; cwd?: string; input?: string } = {}): CliResult {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: undefined, FORCE_COLOR: undefined, ...options.env };
  for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
  const result = spawnSync(process.execPath, [BIN, ...args], { cwd: options.cwd ?? REPO_ROOT, env, encoding: "utf8", input: options.input ?? "", timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}
