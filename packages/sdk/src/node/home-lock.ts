import { acquireLock, type HomeLock } from "./lock.js";

type AcquireWithOptions = (lockPath: string, options?: { readonly waitMs?: number }) => Promise<HomeLock>;

/**
 * Takes the home's lock, waiting up to `waitMs` for another holder
 * (the lock's default when undefined), then `HOME_LOCKED`.
 */
export function acquireHomeLock(lockPath: string, waitMs: number | undefined): Promise<HomeLock> {
  // TODO(lock merge): the waiting lock takes these options; until it lands on main the current one ignores them.
  return (acquireLock as AcquireWithOptions)(lockPath, waitMs === undefined ? {} : { waitMs });
}
