/**
 * `@temporal/store-postgres/testing`: a REAL throw-away PostgreSQL server for tests, from Debian's `postgresql`
 * package (`/usr/lib/postgresql/<version>/bin`; `.ci/run` installs it when missing). It listens on loopback at a
 * free port with trust authentication, keeps its data in a fresh temporary directory, runs with fsync on (the
 * durability of what the store acknowledged is what the tests check) and is deleted by `stop()` or when the
 * process exits, also by SIGINT (Ctrl-C), SIGTERM or SIGHUP.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chownSync, closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import pg from "pg";

export interface TestPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`: trust authentication, no password. */
  readonly url: string;
  readonly port: number;
  /** The folder of its Unix-domain socket, for a URL that reaches it without TCP (`?host=<folder>&port=<port>`). */
  readonly socketDirectory: string;
  /** A new empty database on this server, for a test that needs one of its own; resolves with its URL. */
  createDatabase(): Promise<string>;
  /** Stops the server (immediate shutdown) and deletes its data. Idempotent. */
  stop(): Promise<void>;
  /** Fast shutdown, then start again on the same port with the same data. */
  restart(): Promise<void>;
  /** SIGKILL: the server dies as in a crash; `start()` brings it back (crash recovery from the WAL). */
  kill(): Promise<void>;
  /** Starts the server again after `kill()` or a shutdown; resolves once it accepts connections. */
  start(): Promise<void>;
}

const READY_TIMEOUT_MS = 20_000;
/** The signals that end a Node process by default, whose listeners then run instead. */
const ENDING_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
const SHUTDOWN_TIMEOUT_MS = 20_000;

export async function startPostgres(): Promise<TestPostgres> {
  const bin = postgresBinaries();
  const owner = serverUser();
  const dir = mkdtempSync(join(tmpdir(), "temporal-pg-"));
  const data = join(dir, "data");
  const log = join(dir, "server.log");
  if (owner) chownSync(dir, owner.uid, owner.gid);
  let server: ChildProcess | undefined;
  let databases = 0;
  const remove = (): void => {
    // SIGQUIT is PostgreSQL's immediate shutdown; the process group takes the backends too.
    if (server?.pid !== undefined && running(server)) signalGroup(server.pid, "SIGQUIT");
    rmSync(dir, { recursive: true, force: true });
  };
  // Ctrl-C, a closed terminal or `kill` end a process without its "exit" event, and the server runs in a process group
  // of its own: it and its data would outlive the process. Removed, and then, when no one else listens for the
  // signal, the process ends by it as it would have without this listener.
  const removeOnSignal = (signal: NodeJS.Signals): void => {
    dispose();
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  };
  const dispose = (): void => {
    process.removeListener("exit", remove);
    for (const signal of ENDING_SIGNALS) process.removeListener(signal, removeOnSignal);
    remove();
  };
  process.once("exit", remove);
  for (const signal of ENDING_SIGNALS) process.on(signal, removeOnSignal);

  try {
    copyCluster(clusterTemplate(bin, owner), data);
  } catch (error) {
    dispose();
    throw error;
  }

  let port = 0;
  const urlOf = (database: string): string => `postgres://postgres@127.0.0.1:${port}/${database}`;

  const start = async (): Promise<void> => {
    if (server !== undefined && running(server)) return;
    const logFd = openSync(log, "a");
    const child = spawn(join(bin, "postgres"), ["-D", data, "-k", dir, "-h", "127.0.0.1", "-p", String(port), "-c", "fsync=on", "-c", "max_connections=200"], {
      ...owner,
      env: serverEnvironment(),
      stdio: ["ignore", logFd, logFd],
      // Its own process group, so that kill() takes the backends down with the postmaster, as a crash of the machine would.
      detached: true,
    });
    closeSync(logFd);
    // Not the test's event loop's business: stop() or the exit hook ends it.
    child.unref();
    server = child;
    await waitUntilReady(urlOf("postgres"), child, log);
  };
  const shutdown = async (signal: NodeJS.Signals): Promise<void> => {
    const child = server;
    if (child === undefined || !running(child)) return;
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    if (signal === "SIGKILL") signalGroup(child.pid ?? 0, signal);
    else child.kill(signal);
    await withTimeout(exited, SHUTDOWN_TIMEOUT_MS, `PostgreSQL did not stop within ${SHUTDOWN_TIMEOUT_MS} ms after ${signal}`);
  };

  // Another process may bind the probed port before the server does: then try another.
  for (let attempt = 1; ; attempt++) {
    port = await freePort();
    try {
      await start();
      break;
    } catch (error) {
      await shutdown("SIGKILL");
      if (attempt < 3 && /could not bind|could not create any TCP\/IP sockets/.test(readLog(log))) continue;
      dispose();
      throw error;
    }
  }
  const url = urlOf("postgres");
  return {
    url,
    port,
    socketDirectory: dir,
    async createDatabase() {
      databases += 1;
      const name = `test_${databases}`;
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return urlOf(name);
    },
    async stop() {
      // SIGQUIT, the immediate shutdown: no checkpoint, as the data is deleted next.
      await shutdown("SIGQUIT");
      dispose();
    },
    async restart() {
      // SIGINT is PostgreSQL's "fast" shutdown: clients are disconnected, a checkpoint leaves the data consistent.
      await shutdown("SIGINT");
      await start();
    },
    async kill() {
      await shutdown("SIGKILL");
    },
    start,
  };
}

function running(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

/** The newest `/usr/lib/postgresql/<version>/bin` holding `initdb`. */
function postgresBinaries(): string {
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root) ? readdirSync(root).filter((version) => existsSync(join(root, version, "bin", "initdb"))) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (newest === undefined) throw new Error(`no PostgreSQL server binaries in ${root}/<version>/bin: install Debian's postgresql package (apt-get install postgresql)`);
  return join(root, newest, "bin");
}

/**
 * A freshly initialised cluster, made once per machine (per version and user) and copied for every server:
 * `initdb` takes seconds on a loaded machine, a copy of its 40 MB a fraction of that. Made in a temporary
 * directory and renamed into place, so concurrent test workers never see half of one.
 */
function clusterTemplate(bin: string, owner: { uid: number; gid: number } | undefined): string {
  const template = join(tmpdir(), `temporal-pg-template-${basename(dirname(bin))}-${owner?.uid ?? process.getuid?.() ?? "user"}`);
  if (existsSync(join(template, "PG_VERSION"))) return template;
  const scratch = mkdtempSync(`${template}-`);
  if (owner) chownSync(scratch, owner.uid, owner.gid);
  const data = join(scratch, "data");
  // --no-sync: the template need not survive a power cut; the servers run with fsync on.
  const init = spawnSync(join(bin, "initdb"), ["-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"], {
    ...owner,
    env: serverEnvironment(),
    encoding: "utf8",
  });
  if (init.status !== 0) {
    rmSync(scratch, { recursive: true, force: true });
    throw new Error(`initdb failed (exit ${init.status ?? init.signal}): ${init.stderr || init.stdout}`);
  }
  try {
    renameSync(data, template);
  } catch {
    // Another worker made it first: theirs is as good.
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return template;
}

/** `cp -a`: keeps the owner (the server's user) and the 0700 mode PostgreSQL insists on. */
function copyCluster(template: string, data: string): void {
  const copy = spawnSync("cp", ["-a", template, data], { encoding: "utf8" });
  if (copy.status !== 0) throw new Error(`could not copy the cluster template ${template} to ${data}: ${copy.stderr}`);
}

function serverEnvironment(): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? "/usr/bin:/bin", LC_ALL: "C" };
}

/** PostgreSQL refuses to run as root: as root, run it as the `postgres` user (Debian's package creates it) or `nobody`. */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const passwd = readFileSync("/etc/passwd", "utf8").split("\n");
  const entry = passwd.map((line) => line.split(":")).find((fields) => fields[0] === "postgres");
  return entry ? { uid: Number(entry[2]), gid: Number(entry[3]) } : { uid: 65534, gid: 65534 };
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => probe.once("error", reject).listen(0, "127.0.0.1", resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no free loopback port");
  return address.port;
}

async function waitUntilReady(url: string, child: ChildProcess, log: string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (!running(child)) throw new Error(`PostgreSQL exited while starting:\n${readLog(log)}`);
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
    client.on("error", () => {});
    try {
      await client.connect();
      await client.query("SELECT 1");
      return;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`PostgreSQL did not accept connections within ${READY_TIMEOUT_MS} ms (${String(error)}):\n${readLog(log)}`);
    } finally {
      await client.end().catch(() => {});
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function readLog(log: string): string {
  try {
    return readFileSync(log, "utf8");
  } catch {
    return "(no server log)";
  }
}

async function withTimeout(promise: Promise<void>, ms: number, message: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([promise, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}
