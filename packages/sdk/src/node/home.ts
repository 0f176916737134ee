import { mkdir, open } from "node:fs/promises";
import { join, resolve } from "node:path";

/** `$TEMPORAL_HOME`, else `./.temporal`, as an absolute path. */
export function defaultHome(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.TEMPORAL_HOME || ".temporal");
}

export interface HomePaths {
  readonly home: string;
  readonly lock: string;
  readonly signingKey: string;
  readonly ledger: string;
}

export function homePaths(home: string): HomePaths {
  const root = resolve(home);
  return {
    home: root,
    lock: join(root, "lock"),
    signingKey: join(root, "signing-key.pem"),
    ledger: join(root, "clockchain.log"),
  };
}

/** Creates the home (and parents) with owner-only access. */
export async function ensureHome(paths: HomePaths): Promise<void> {
  await mkdir(paths.home, { recursive: true, mode: 0o700 });
}

/** Makes a newly created or renamed directory entry durable. */
export async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, "r");
  try {
    await handle.sync();
  } catch (error) {
    // Windows cannot fsync a directory; entries are durable there once the file is.
    if (!isErrno(error, "EPERM", "EISDIR", "EINVAL")) throw error;
  } finally {
    await handle.close();
  }
}

export function isErrno(error: unknown, ...codes: string[]): boolean {
  return error instanceof Error && codes.includes((error as NodeJS.ErrnoException).code ?? "");
}
