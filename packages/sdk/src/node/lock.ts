import { link, readFile, stat, unlink, writeFile } from "node:fs/promises";
import { basename, dirname } from "node:path";
import { HomeLockedError, isErrno } from "./errors.js";

export interface HomeLock {
  /** Removes the lock file if it is still this process's. Idempotent. */
  release(): Promise<void>;
}

let pendingCounter = 0;

/**
 * The locks this process holds or is taking. A lock file naming this pid is
 * only ours if it is in here; otherwise an earlier process with the same pid
 * left it (pid 1 in a restarted container) and it is stale.
 */
const heldLocks = new Set<string>();

/**
 * Takes `lockPath` for this process. The lock file holds the owner's pid and
 * is created atomically (written aside, then hard-linked into place, which
 * fails if it exists). A lock whose pid no longer runs is stale and is taken
 * over; a pid reused by an unrelated process keeps the lock until its file is
 * deleted by hand.
 */
export async function acquireLock(lockPath: string): Promise<HomeLock> {
  const key = await lockKey(lockPath);
  if (heldLocks.has(key)) throw new HomeLockedError(lockPath, process.pid);
  heldLocks.add(key);
  try {
    await linkLockFile(lockPath);
  } catch (error) {
    heldLocks.delete(key);
    throw error;
  }
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      try {
        if ((await readHolder(lockPath)) === process.pid) await unlink(lockPath);
      } finally {
        heldLocks.delete(key);
      }
    },
  };
}

/**
 * Identifies a lock by its directory's device and inode rather than by path,
 * so that a symlink or bind mount to the same home is the same lock.
 */
async function lockKey(lockPath: string): Promise<string> {
  const { dev, ino } = await stat(dirname(lockPath), { bigint: true });
  return `${dev}:${ino}/${basename(lockPath)}`;
}

async function linkLockFile(lockPath: string): Promise<void> {
  const pid = process.pid;
  const pending = `${lockPath}.${pid}.${++pendingCounter}`;
  await writeFile(pending, `${pid}\n`, { mode: 0o600 });
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        await link(pending, lockPath);
        return;
      } catch (error) {
        if (!isErrno(error, "EEXIST")) throw error;
        const holder = await readHolder(lockPath);
        // This process's own pid is stale here: the caller checked that no lock of ours is held.
        if (holder !== undefined && holder !== pid && isRunning(holder)) throw new HomeLockedError(lockPath, holder);
        // Give up if other processes keep replacing the stale lock.
        if (attempt === 3) throw error;
        await removeIfPresent(lockPath);
      }
    }
  } finally {
    await unlink(pending);
  }
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
