import { chmod } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { isErrno } from "./errors.js";
import { makeDirectory } from "./make-directory.js";
import { syncDirectory } from "./sync-directory.js";
import { writeFileDurably } from "./write-durably.js";

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
  /** Witnessing's cosigned checkpoints, witnesses' sizes and fork evidence (`FileWitnessingStore`). */
  readonly witnessing: string;
  /** `*`: keeps the home, and above all its private key, out of any git repository it sits in. */
  readonly gitignore: string;
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
    witnessing: join(root, "witnessing.json"),
    gitignore: join(root, ".gitignore"),
  };
}

/**
 * Creates the home (and parents) with owner-only access. Each directory
 * created is a new entry in its parent, which is only durable once that
 * parent is fsynced; until then a crash could lose the home, and with it
 * anchors already acknowledged. `makeDirectory` rather than a recursive
 * mkdir, which loops forever under `/proc`: a home that cannot be created
 * is a `DirectoryNotCreatedError` naming the folder and saying why in words,
 * its errno code (EROFS, EACCES, ENOTDIR...) in `reason`.
 */
export async function ensureHome(paths: HomePaths): Promise<void> {
  const firstCreated = await makeDirectory(paths.home);
  if (firstCreated === undefined) return;
  // makeDirectory returns the first directory it created; every one from there down to the home is new.
  const created: string[] = [];
  for (let directory = paths.home; ; directory = dirname(directory)) {
    created.unshift(directory);
    if (directory === firstCreated || dirname(directory) === directory) break;
  }
  // Owner-only before anything is written in them, as `mkdir -p -m 700` would make them.
  for (const directory of created) await chmod(directory, 0o700);
  for (const directory of created) await syncDirectory(dirname(directory));
  await ignoreHomeInGit(paths);
}

/**
 * Gives the home a `.gitignore` of `*`, so that a home inside a repository
 * (`./.temporal` is the default) is never committed with its private key.
 * A `.gitignore` already there is the user's and is kept. Linked into place
 * from a complete temporary file (`writeFileDurably`), so no half-written one can remain.
 */
export async function ignoreHomeInGit(paths: HomePaths): Promise<void> {
  try {
    await writeFileDurably(paths.gitignore, "# written by temporalc: this folder holds a private signing key\n*\n", { mode: 0o644, replace: false });
  } catch (error) {
    if (!isErrno(error, "EEXIST")) throw error;
  }
}
