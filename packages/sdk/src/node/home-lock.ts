import type { HomeLockHolder } from "./errors.js";
import { acquireLock, type HomeLock } from "./lock.js";
import { readSnapshot } from "./lock-file.js";
import { holderOf } from "./lock-owner.js";

/**
 * Takes the home's lock, waiting up to `waitMs` for another holder
 * (the lock's default when undefined), then `HOME_LOCKED`.
 */
export function acquireHomeLock(lockPath: string, waitMs: number | undefined): Promise<HomeLock> {
  return acquireLock(lockPath, waitMs === undefined ? {} : { waitMs });
}

/**
 * Who holds the home's lock right now, as its file tells: undefined when
 * nobody does, or null when the file names nobody readable (half-written,
 * or an older version's). A snapshot: it may change at once.
 */
export async function readHomeLockHolder(lockPath: string): Promise<HomeLockHolder | null | undefined> {
  const snapshot = await readSnapshot(lockPath);
  if (snapshot === undefined) return undefined;
  return snapshot.owner === undefined ? null : holderOf(snapshot.owner);
}
