// A project outside the repository that installs the packed tarballs the way
// a user would, and runs commands in it. npm fetches the third-party
// dependencies from its cache when it can (--prefer-offline), else from the
// registry.
import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = fileURLToPath(new URL("../../", import.meta.url));

export interface CommandResult {
  status: number;
  stdout: string;
  stderr: string;
}

/**
 * The environment of a user's shell: no npm_* variables inherited from the
 * `npm test` running this (npm would read them as configuration, e.g. the
 * workspace settings of this repository), and no Temporal settings pointing
 * missions at a service.
 */
function userEnvironment(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^npm_/i.test(name) && !name.startsWith("TEMPORAL_")) env[name] = value;
  }
  return { ...env, NO_COLOR: "1", ...extra };
}

/** Runs a command to completion (never rejects on a non-zero exit: the status is the result). */
export function run(cwd: string, command: string, args: string[], env: Record<string, string> = {}): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd, env: userEnvironment(env), maxBuffer: 64 * 1024 * 1024, timeout: 300_000 }, (error, stdout, stderr) => {
      if (error !== null && typeof error.code !== "number") reject(new Error(`${command} could not run: ${error.message}`, { cause: error }));
      else resolve({ status: error === null ? 0 : Number(error.code), stdout, stderr });
    });
  });
}

/** Like `run`, but a non-zero exit is an error carrying the command's output. */
export async function succeed(cwd: string, command: string, args: string[], env: Record<string, string> = {}): Promise<CommandResult> {
  const result = await run(cwd, command, args, env);
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(" ")} exited with ${result.status}\n${result.stdout}\n${result.stderr}`);
  }
  return result;
}

/** `name@version` as installed in this repository, so npm finds it in its cache. */
export function repoVersionOf(name: string): string {
  const { version } = JSON.parse(readFileSync(join(repoRoot, "node_modules", name, "package.json"), "utf8")) as { version: string };
  return `${name}@${version}`;
}

export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
}

/** Installs `specs` (tarball paths and registry names) into a new project at `dir`. */
export async function createProject(dir: string, specs: string[]): Promise<void> {
  writeFiles(dir, { "package.json": `${JSON.stringify({ name: "mission-user", private: true, type: "module" }, null, 2)}\n` });
  await succeed(dir, "npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel", "error", ...specs]);
}
