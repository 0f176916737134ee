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
  /** A built playground to serve instead of the workspace's packages/playground/dist. */
  dir?: string;
}

/** A usage error with a stable code, printed after the message so scripts can match it. */
class PlaygroundError extends UsageError {
  constructor(
    readonly code: "PLAYGROUND_NOT_BUILT" | "PLAYGROUND_PORT_IN_USE" | "PLAYGROUND_LISTEN_FAILED",
    message: string,
  ) {
    super(`${message} [${code}]`);
  }
}

/**
 * `temporalc playground`: serves the built playground (static files) on
 * loopback until Ctrl-C. The CLI package does not ship the site: it serves
 * the workspace's build (`npm run build` makes it), or any built copy given
 * with --dir.
 */
export async function runPlayground(options: PlaygroundOptions): Promise<number> {
  const root = options.dir === undefined ? workspacePlayground() : resolve(options.dir);
  if (root === null || !existsSync(join(root, "index.html"))) {
    const where = root ?? "the workspace's packages/playground/dist";
    throw new PlaygroundError("PLAYGROUND_NOT_BUILT", `no built playground in ${where}: run \`npm run build\` in the temporalc repository (or pass --dir <a built playground>)`);
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

/** packages/playground/dist of the workspace this CLI runs from, through the workspace's node_modules link; null outside one. */
function workspacePlayground(): string | null {
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
