import { link, readFile, unlink, writeFile } from "node:fs/promises";
import { HomeLockedError } from "./errors.js";
import { isErrno } from "./home.js";

export interface HomeLock {
  release(): Promise<void>;
}

let pendingCounter = 0;

/**
 * Takes `lockPath` for this process. The lock file holds the owner's pid and
 * is created atomically (written aside, then hard-linked into place, which
 * fails if it exists). A lock whose pid no longer runs is stale and is taken
 * over; a pid reused by an unrelated process keeps the lock until its file is
 * deleted by hand.
 */
export async function acquireLock(lockPath: string): Promise<HomeLock> {
  const pid = process.pid;
  const pending = `${lockPath}.${pid}.${++pendingCounter}`;
  await writeFile(pending, `${pid}\n`, { mode: 0o600 });
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        await link(pending, lockPath);
        break;
      } catch (error) {
        if (!isErrno(error, "EEXIST")) throw error;
        const holder = await readHolder(lockPath);
        if (holder !== undefined && isRunning(holder)) throw new HomeLockedError(lockPath, holder);
        // Give up if other processes keep replacing the stale lock.
        if (attempt === 3) throw error;
        await removeIfPresent(lockPath);
      }
    }
  } finally {
    await unlink(pending);
  }
  return {
    async release() {
      if ((await readHolder(lockPath)) === pid) await unlink(lockPath);
    },
  };
}

async function readHolder(lockPath: string): Promise<number | undefined> {
  try {
    const pid = Number.parseInt(await readFile(lockPath, "utf8"), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch (error) {
    if (isErrno(error, "ENOENT")) return undefined;
    throw error;
  }
}

async function removeIfPresent(path: string): Promise<void> {
  try {
    await unlink(path);
  } catch (error) {
    if (!isErrno(error, "ENOENT")) throw error;
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return isErrno(error, "EPERM");
  }
}
