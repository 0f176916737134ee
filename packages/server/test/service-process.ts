/** The built `temporal-service` as a child process, for tests that run the real command. */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { afterAll } from "vitest";

export const BIN = new URL("../bin/temporal-service.js", import.meta.url).pathname;

/** The test runner's own HOME-like variables would change where the command looks and listens: each test says what it wants. */
const CLEAN_ENV = { TEMPORAL_HOME: "", HOST: "", PORT: "" };

export interface CommandResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `temporal-service args` to its end. */
export function runCommand(args: readonly string[], env: NodeJS.ProcessEnv = {}): CommandResult {
  const result = spawnSync(process.execPath, [BIN, ...args], { encoding: "utf8", env: { ...process.env, ...CLEAN_ENV, ...env }, timeout: 60_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export interface ServiceProcess {
  readonly child: ChildProcess;
  /** The base URL from its `listening on` line. */
  readonly url: string;
  readonly exited: Promise<Exit>;
  stdout(): string;
  stderr(): string;
  /** Resolves with the first line of `stream`, printed so far or later, that matches `pattern`; rejects if the process exits first. */
  waitFor(stream: "stdout" | "stderr", pattern: RegExp): Promise<string>;
  /** Sends `signal` and resolves with how the process ended, once its output is read. */
  stop(signal?: NodeJS.Signals): Promise<Exit>;
}

const running = new Set<ChildProcess>();
afterAll(() => {
  for (const child of running) child.kill("SIGKILL");
});

/** Starts `temporal-service args`; resolves once it prints its listening line, rejects if it exits before. */
export async function startServiceProcess(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<ServiceProcess> {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...CLEAN_ENV, ...env } });
  running.add(child);
  const lines = { stdout: [] as string[], stderr: [] as string[] };
  const waiters: { stream: "stdout" | "stderr"; pattern: RegExp; resolve: (line: string) => void }[] = [];
  // "close" comes after the output streams end, so every line is read by then.
  const exited = new Promise<Exit>((resolve) =>
    child.on("close", (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    }),
  );
  for (const stream of ["stdout", "stderr"] as const) {
    createInterface({ input: child[stream] as NodeJS.ReadableStream }).on("line", (line) => {
      lines[stream].push(line);
      for (const waiter of waiters.splice(0)) {
        if (waiter.stream === stream && waiter.pattern.test(line)) waiter.resolve(line);
        else waiters.push(waiter);
      }
    });
  }
  const waitFor = (stream: "stdout" | "stderr", pattern: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const seen = lines[stream].find((line) => pattern.test(line));
      if (seen !== undefined) return resolve(seen);
      waiters.push({ stream, pattern, resolve });
      void exited.then(({ code, signal }) => reject(new Error(`temporal-service exited (${code ?? signal}) before printing ${pattern} on ${stream}; stderr: ${lines.stderr.join("\n")}`)));
    });
  const listening = await waitFor("stdout", /^listening on https?:\/\/\S+$/);
  return {
    child,
    url: listening.slice("listening on ".length),
    exited,
    stdout: () => lines.stdout.join("\n"),
    stderr: () => lines.stderr.join("\n"),
    waitFor,
    async stop(signal = "SIGTERM") {
      child.kill(signal);
      return exited;
    },
  };
}
