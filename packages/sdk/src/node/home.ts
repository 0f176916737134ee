import { mkdir } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { syncDirectory } from "./sync-directory.js";

/**
 * `$TEMPORAL_HOME`, else `./.temporal`, as an absolute path. `env` is a plain
 * record (not Node's ProcessEnv type), so the declaration needs no Node typings.
 */
export function defaultHome(env: Readonly<Record<string, string | undefined>> = process.env): string {
  return resolve(env.TEMPORAL_HOME || ".temporal");
}

export interface HomePaths {
  readonly home: string;
  readonly lock: string;
  readonly signingKey: string;
  readonly ledger: string;
  /** The ledger's state as of one of its records (derived: rebuilt from the ledger when missing or unusable). */
  readonly snapshot: string;
  /** One file per outstanding challenge. */
  readonly challenges: string;
}

export function homePaths(home: string): HomePaths {
  const root = resolve(home);
  return {
    home: root,
    lock: join(root, "lock"),
    signingKey: join(root, "signing-key.pem"),
    ledger: join(root, "clockchain.log"),
    snapshot: join(root, "clockchain.snapshot"),
    challenges: join(root, "challenges"),
  };
}

/**
 * Creates the home (and parents) with owner-only access. Each directory
 * created is a new entry in its parent, which is only durable once that
 * parent is fsynced; until then a crash could lose the home, and with it
 * anchors already acknowledged.
 */
export async function ensureHome(paths: HomePaths): Promise<void> {
  const firstCreated = await mkdir(paths.home, { recursive: true, mode: 0o700 });
  if (firstCreated === undefined) return;
  // mkdir returns the first directory it created; every one from there down to the home is new.
  const created: string[] = [];
  for (let directory = paths.home; ; directory = dirname(directory)) {
    created.unshift(directory);
    if (directory === firstCreated || dirname(directory) === directory) break;
  }
  for (const directory of created) await syncDirectory(dirname(directory));
}
