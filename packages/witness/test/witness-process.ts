/** Runs the built `temporal-witness` as a child process on loopback, for the process tests. */

import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(new URL("../bin/temporal-witness.js", import.meta.url));

export interface Finished {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command that ends by itself (`key create`, a bad config) and collects its output. */
export async function runWitnessCommand(args: readonly string[]): Promise<Finished> {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  // "close", not "exit": at "exit" the child's last output may still be unread.
  const [code] = (await once(child, "close")) as [number | null];
  return { code, stdout, stderr };
}

export interface RunningWitness {
  readonly url: string;
  readonly child: ChildProcess;
  /** What it wrote to stderr so far. */
  stderr(): string;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/** Starts `temporal-witness --config <config> --port <port>` (default 0, a free one) and resolves with the URL it prints. */
export async function startWitness(config: string, port = 0): Promise<RunningWitness> {
  const child = spawn(process.execPath, [BIN, "--config", config, "--host", "127.0.0.1", "--port", String(port)], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /listening on (\S+)\n/.exec(stdout);
      if (match) resolve(match[1] as string);
    });
    // "close", not "exit": the last lines of stderr, which say why, may still be unread at exit.
    child.once("close", (code) => reject(new Error(`temporal-witness exited ${code} before listening: ${stderr}`)));
  });
  const exited = once(child, "close").then(([code]) => code as number | null);
  return {
    url,
    child,
    stderr: () => stderr,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}
