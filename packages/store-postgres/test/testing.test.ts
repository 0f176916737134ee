import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { connect } from "node:net";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * `@temporal/store-postgres/testing` in a process of its own that ends by a signal, as a test run does on Ctrl-C or
 * `kill`: the server it started (in a process group of its own) and its data must not outlive it. The process runs
 * the built entry (dist/testing.js), as a package user would: after editing src/testing.ts, build it
 * (`npx tsc -b packages/store-postgres`) before running this file alone; `npm ci` and `npm run build` do.
 */
const TESTING = fileURLToPath(new URL("../dist/testing.js", import.meta.url));

/**
 * Starts a server, then prints its port and its temporary directory: the one of the new `temporal-pg-*` folders
 * whose postmaster.pid names that port (other test workers may be making theirs meanwhile).
 */
const CHILD = `
import { readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
const { startPostgres } = await import(${JSON.stringify(TESTING)});
const postgres = await startPostgres();
const dir = readdirSync(tmpdir())
  .filter((name) => name.startsWith("temporal-pg-") && !name.startsWith("temporal-pg-template-"))
  .map((name) => join(tmpdir(), name))
  .find((path) => {
    try {
      return readFileSync(join(path, "data", "postmaster.pid"), "utf8").split("\\n")[3] === String(postgres.port);
    } catch {
      return false;
    }
  });
process.stdout.write(JSON.stringify({ port: postgres.port, dir }) + "\\n");
setInterval(() => {}, 60_000);
`;

/** Whether anything accepts connections on the loopback port. */
function accepting(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

describe("startPostgres in a process ended by a signal", () => {
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    it(`${signal}: the process ends by the signal, and the server and its data go with it`, async () => {
      const child = spawn(process.execPath, ["--input-type=module", "-e", CHILD], { stdio: ["ignore", "pipe", "inherit"] });
      const ended = new Promise<NodeJS.Signals | null>((resolve) => child.once("exit", (_code, endedBy) => resolve(endedBy)));
      const started = await new Promise<{ port: number; dir: string | undefined }>((resolve, reject) => {
        let out = "";
        child.stdout.on("data", (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes("\n")) resolve(JSON.parse(out) as { port: number; dir: string | undefined });
        });
        child.once("exit", (code) => reject(new Error(`the child exited (${code}) before its server started`)));
      });
      expect(started.dir).toBeDefined();
      expect([existsSync(started.dir as string), await accepting(started.port)]).toEqual([true, true]);

      child.kill(signal);
      expect(await ended).toBe(signal);
      expect(existsSync(started.dir as string)).toBe(false);
      // The postmaster was sent its immediate shutdown: it stops listening within moments.
      const deadline = Date.now() + 10_000;
      while ((await accepting(started.port)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await accepting(started.port)).toBe(false);
    }, 40_000);
  }
});
