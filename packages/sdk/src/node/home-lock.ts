import { acquireLock, type HomeLock } from "./lock.js";

/**
 * Takes the home's lock, waiting up to `waitMs` for another holder
 * (the lock's default when undefined), then `HOME_LOCKED`.
 */
export function acquireHomeLock(lockPath: string, waitMs: number | undefined): Promise<HomeLock> {
  return acquireLock(lockPath, waitMs === undefined ? {} : { waitMs });
}
