import { spawn, spawnSync, type ChildProcessByStdio } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync, readlinkSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import { Worker } from "node:worker_threads";
import { build } from "esbuild";
import { tempDir } from "./helpers.js";

const bundles = new Map<string, Promise<string>>();

/** `entry` (relative to this directory) bundled into one ES module Node can run, built once per test file. */
export function bundled(entry: string): Promise<string> {
  let outfile = bundles.get(entry);
  if (outfile === undefined) {
    outfile = (async () => {
      const file = join(await tempDir(), "bundle.mjs");
      await build({ entryPoints: [new URL(entry, import.meta.url).pathname], bundle: true, platform: "node", format: "esm", target: "node20", outfile: file, logLevel: "error" });
      return file;
    })();
    bundles.set(entry, outfile);
  }
  return outfile;
}

/** lock-child.ts, ready to run. */
export function childScript(): Promise<string> {
  return bundled("./lock-child.ts");
}

/** Whether `unshare --pid --fork --mount-proc` can run a process in a new pid namespace here (it needs root or user namespaces). */
export function canUnsharePid(): boolean {
  const probe = spawnSync("unshare", ["--pid", "--fork", "--mount-proc", "true"], { stdio: "ignore", timeout: 10_000 });
  return probe.status === 0;
}

export interface LockChild {
  readonly pid: number;
  /** The next JSON line the child prints. */
  next(): Promise<Record<string, unknown>>;
  send(line: string): void;
  readonly exited: Promise<number | null>;
  kill(): void;
}

/** Starts lock-child.ts with `args`, optionally in a new pid namespace (and /proc) through unshare. */
export async function startChild(args: string[], options: { newPidNamespace?: boolean } = {}): Promise<LockChild> {
  const file = await childScript();
  const command = options.newPidNamespace === true ? ["unshare", "--pid", "--fork", "--mount-proc", "--kill-child", process.execPath, file] : [process.execPath, file];
  const child: ChildProcessByStdio<Writable, Readable, Readable> = spawn(command[0] as string, [...command.slice(1), ...args], { stdio: ["pipe", "pipe", "pipe"] });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return talkTo(child.pid as number, child, exited, () => child.kill("SIGKILL"), args);
}

/** Runs lock-child.ts with `args` in a worker thread of this process. */
export async function startWorker(args: string[]): Promise<LockChild> {
  const worker = new Worker(await childScript(), { argv: args, stdin: true, stdout: true, stderr: true });
  const exited = new Promise<number | null>((resolve) => worker.on("exit", (code) => resolve(code)));
  return talkTo(process.pid, worker, exited, () => void worker.terminate(), args);
}

function talkTo(pid: number, io: { stdin: Writable | null; stdout: Readable; stderr: Readable }, exited: Promise<number | null>, kill: () => void, args: string[]): LockChild {
  let stderr = "";
  io.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = createInterface({ input: io.stdout })[Symbol.asyncIterator]();
  return {
    pid,
    async next() {
      const line = await lines.next();
      if (line.done === true) throw new Error(`lock child ${args.join(" ")} ended without output; exit ${await exited}; stderr: ${stderr}`);
      return JSON.parse(line.value) as Record<string, unknown>;
    },
    send(line) {
      io.stdin?.write(`${line}\n`);
    },
    exited,
    kill,
  };
}

/**
 * The text of a lock file naming `pid` as this machine and pid namespace
 * would write it, with `fields` overriding any of it (a foreign boot id or
 * pid namespace, another token). Used to plant locks of processes that
 * cannot be made to take one for real.
 */
export function lockRecord(pid: number, fields: Record<string, unknown> = {}): string {
  const bootId = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
  const pidNs = /\d+/.exec(readlinkSync("/proc/self/ns/pid"))?.[0];
  return `${JSON.stringify({ token: randomBytes(16).toString("hex"), pid, host: hostname(), since_unix_ms: Date.now(), boot_id: bootId, pid_ns: pidNs, ...fields })}\n`;
}

/** The pid of a process that has exited (and been reaped), so no process has it, for a while at least. */
export function exitedPid(): number {
  return spawnSync(process.execPath, ["-e", ""]).pid;
}
