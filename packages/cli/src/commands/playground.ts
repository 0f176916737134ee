import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { UsageError } from "../errors.js";
import { createStaticServer } from "./playground-server.js";

export interface PlaygroundOptions {
  port: number;
  host: string;
  open: boolean;
  /** A built playground to serve instead of the installed @temporal/playground's. */
  dir?: string;
}

/** A usage problem of `temporalc playground` (exit 2). */
class PlaygroundError extends UsageError<"PLAYGROUND_NOT_BUILT" | "PLAYGROUND_PORT_IN_USE" | "PLAYGROUND_LISTEN_FAILED"> {}

/**
 * `temporalc playground`: serves the built playground (static files) on
 * loopback until Ctrl-C. The site is the `@temporal/playground` package's
 * dist/, a dependency of this one (in the repository, the workspace's
 * packages/playground, which `npm run build` builds), or any built copy
 * given with --dir.
 */
export async function runPlayground(options: PlaygroundOptions): Promise<number> {
  const root = options.dir === undefined ? installedPlayground() : resolve(options.dir);
  if (root === null || !existsSync(join(root, "index.html"))) {
    const where = root ?? "the @temporal/playground package";
    throw new PlaygroundError(
      "PLAYGROUND_NOT_BUILT",
      `no built playground in ${where}: reinstall temporalc, or in the temporalc repository run \`npm run build\` (or pass --dir <a built playground>)`,
    );
  }
  if (!LOOPBACK_HOSTS.has(options.host)) {
    process.stderr.write(`temporalc: warning: --host ${options.host} serves the playground to other machines too; the default, 127.0.0.1, serves this one only\n`);
  }
  const server = createStaticServer(root);
  await new Promise<void>((done, fail) => {
    server.once("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EADDRINUSE")
        fail(new PlaygroundError("PLAYGROUND_PORT_IN_USE", `port ${options.port} on ${options.host} is in use: pick another with --port, or --port 0 for any free one`));
      else fail(new PlaygroundError("PLAYGROUND_LISTEN_FAILED", `cannot listen on ${options.host}:${options.port}: ${error.message}`));
    });
    server.listen(options.port, options.host, done);
  });
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : options.port;
  const url = `http://${options.host.includes(":") ? `[${options.host}]` : options.host}:${port}/`;
  process.stdout.write(`The playground is at ${url} (serving ${root}); Ctrl-C stops it.\n`);
  if (options.open) openInBrowser(url);
  await new Promise<void>((done) => {
    const stop = () => {
      server.close(() => done());
      // A browser keeps its connections open: without this, close would wait for the tab to go away.
      server.closeAllConnections();
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  return 0;
}

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "::1", "localhost"]);

/** The dist/ of the @temporal/playground package this CLI depends on (installed beside it, or the workspace's link); null when it is missing. */
function installedPlayground(): string | null {
  try {
    return join(dirname(createRequire(import.meta.url).resolve("@temporal/playground/package.json")), "dist");
  } catch {
    return null;
  }
}

function openInBrowser(url: string): void {
  const [command, args] = process.platform === "darwin" ? ["open", [url]] : process.platform === "win32" ? ["cmd", ["/c", "start", "", url]] : ["xdg-open", [url]];
  const child = spawn(command, args, { stdio: "ignore", detached: true });
  child.on("error", () => process.stderr.write(`temporalc: could not open a browser (${command}); open ${url} yourself\n`));
  child.unref();
}
