import { link, open, stat, type FileHandle } from "node:fs/promises";
import { hostname } from "node:os";
import { basename, dirname } from "node:path";
import { performance } from "node:perf_hooks";
import { TemporalRangeError, TemporalTypeError, describeValue } from "../core/errors.js";
import { HomeLockedError, type HomeLockHolder } from "./errors.js";
import { readSnapshot, removeIfPresent, removeIfUnchanged, sameFile, type LockSnapshot } from "./lock-file.js";
import { formatOwner, holderOf, newOwner, ownerLiveness } from "./lock-owner.js";
import { TurnQueue } from "./lock-queue.js";

/*
 * A lock file any number of processes (and several holders in one process)
 * take for milliseconds at a time. Why it is built this way:
 *
 * - Taking: the owner record is written to a private file, which is then
 *   hard-linked to the lock path; link() fails if the path exists, so the
 *   lock file is never seen half-written and never taken twice by linking.
 * - Holding: the holder touches the file's mtime every HEARTBEAT_MS (through
 *   its own descriptor, so never another holder's file).
 * - Releasing: the file is removed only if it still holds our token.
 * - Staleness (`isStaleLock`, `ownerLiveness`): when the owner's boot id and
 *   pid namespace are ours, its pid is checked (with its start time, so a
 *   reused pid is not mistaken for the owner) and that alone decides: a dead
 *   owner's lock is taken at once, a live owner (main thread) keeps its lock
 *   however late its heartbeat (it is stopped or stalled, and would write
 *   when it resumes). Otherwise — an owner in another container, on another
 *   host, from before a reboot, a worker thread, or a file naming no owner —
 *   only the heartbeat decides: the lock is stale when its mtime is older
 *   than `staleMs`. A pid that happens to be free or taken in our namespace
 *   therefore never decides for a foreign owner.
 * - Taking over: under a guard file (created exclusively, itself stale when
 *   its owner is dead or it is older than `staleMs`), the taker reads the
 *   lock again and removes it only if it is still the file it judged and
 *   still stale — by renaming it aside and comparing what it moved
 *   (`removeIfUnchanged`), never by a bare unlink().
 *
 * Remaining windows, all needing a wrong judgement or a stall longer than
 * `staleMs` in the middle of a takeover:
 * 1. A live owner judged by its heartbeat (another pid namespace or host, a
 *    worker thread) whose heartbeat stalls longer than `staleMs` (event loop
 *    blocked, process stopped, clocks of two hosts apart) is taken over
 *    while it still believes it holds the lock. `assertHeld()` just before
 *    writing narrows this to the write itself.
 * 2. A taker that stalls longer than `staleMs` between checking that the
 *    guard is still its own and renaming the lock aside can be overtaken by
 *    a second taker, which removes the stale lock and links its own; the
 *    first then moves that new lock aside, sees it is not the stale one and
 *    links it back — unless yet another process linked a lock into the
 *    emptied path in that moment, and then the second taker has lost its
 *    holding (its `assertHeld()` reports it).
 * 3. Release reads the token, then unlinks: if between the two its lock was
 *    wrongly taken over (case 1) and taken again, the new holder's file is
 *    removed.
 * Cases 1 and 3 need an owner judged by its heartbeat: among main threads of
 * one boot and pid namespace only case 2 remains, and only for a taker
 * stopped for longer than `staleMs` in the middle of its takeover.
 */

export interface AcquireLockOptions {
  /** How long to wait for the lock before failing with `HOME_LOCKED`, ms: 0 (try once) to 2 147 483 647; default 10 000. */
  readonly waitMs?: number;
  /** Heartbeat age after which a lock whose owner cannot be checked directly (another pid namespace, host or boot) is stale, ms: 2 000 to 2 147 483 647; default 5 000. */
  readonly staleMs?: number;
  /** Aborts the wait; the promise then rejects with the signal's reason. */
  readonly signal?: AbortSignal;
}

export interface HomeLock {
  readonly lockPath: string;
  /** The random token in the lock file that makes it this holding's. */
  readonly token: string;
  /** Throws `HomeLockedError` (with `lost`) unless the lock file still holds this token. Call it just before a write. */
  assertHeld(): Promise<void>;
  /** Stops the heartbeat and removes the lock file if it still holds this token. Idempotent. */
  release(): Promise<void>;
}

export const DEFAULT_LOCK_WAIT_MS = 10_000;
/** Five missed heartbeats: a foreign owner's event loop may stall ~4 s before it is taken over; a crashed one is taken over well within the default wait. */
export const DEFAULT_LOCK_STALE_MS = 5_000;
const HEARTBEAT_MS = 1_000;
const MIN_STALE_MS = 2 * HEARTBEAT_MS;
const MAX_TIMER_MS = 2_147_483_647;
const FIRST_POLL_MS = 1;
const MAX_POLL_MS = 25;

/**
 * Tokens of the holdings this thread has now, so a lock file naming this pid
 * and thread can be told apart from one an earlier process with the same pid
 * left. Kept on globalThis so that two copies of this module in one thread
 * (a bundled and an installed SDK) do not take each other's locks as
 * abandoned.
 */
const heldTokens: Set<string> = ((globalThis as Record<symbol, unknown>)[Symbol.for("@temporal/agent-sdk:held-lock-tokens")] ??= new Set<string>()) as Set<string>;
const queues = new Map<string, TurnQueue>();
/** Each acquisition joins its lock's queue only after the one before it has, so the queues are in call order although finding the key is asynchronous. */
let joining: Promise<unknown> = Promise.resolve();

/**
 * Takes the lock at `lockPath`, waiting up to `waitMs` for it: behind
 * earlier acquisitions of the same lock in this process (the same directory
 * by device and inode, so any path to it) in FIFO order, and for other
 * processes by polling with jittered backoff. Stale locks are taken over
 * (see the comment at the top of this module).
 */
export async function acquireLock(lockPath: string, options: AcquireLockOptions = {}): Promise<HomeLock> {
  const { waitMs, staleMs, signal } = checkOptions(options);
  const deadline = performance.now() + waitMs;
  const turn = joinQueue(lockPath, deadline, signal);
  joining = turn.catch(() => undefined);
  const { queue, granted } = await turn;
  if (!(await granted)) {
    // The turn in this process may still be waiting for another process's lock, which the file then names; otherwise it is this process's.
    const owner = (await readSnapshot(lockPath))?.owner ?? { pid: process.pid, host: hostname(), since_unix_ms: queue.turnSince };
    throw lockedError(lockPath, owner, waitMs);
  }
  try {
    return await takeLockFile(lockPath, queue, { waitMs, staleMs, signal, deadline });
  } catch (error) {
    queue.done();
    throw error;
  }
}

async function joinQueue(lockPath: string, deadline: number, signal: AbortSignal | undefined): Promise<{ queue: TurnQueue; granted: Promise<boolean> }> {
  await joining;
  const key = await lockKey(lockPath);
  let queue = queues.get(key);
  if (queue === undefined) {
    const created = new TurnQueue(() => {
      if (queues.get(key) === created) queues.delete(key);
    });
    queues.set(key, created);
    queue = created;
  }
  return { queue, granted: queue.wait(Math.max(0, deadline - performance.now()), signal) };
}

/**
 * Identifies a lock by its directory's device and inode rather than by path,
 * so that a symlink or bind mount to the same home is the same lock.
 */
async function lockKey(lockPath: string): Promise<string> {
  const { dev, ino } = await stat(dirname(lockPath), { bigint: true });
  return `${dev}:${ino}/${basename(lockPath)}`;
}

interface Attempt {
  readonly waitMs: number;
  readonly staleMs: number;
  readonly signal: AbortSignal | undefined;
  readonly deadline: number;
}

async function takeLockFile(lockPath: string, queue: TurnQueue, attempt: Attempt): Promise<HomeLock> {
  const owner = newOwner();
  const pendingPath = `${lockPath}.${owner.token}.new`;
  const handle = await open(pendingPath, "wx", 0o600);
  let linked = false;
  try {
    for (let round = 0; ; round++) {
      attempt.signal?.throwIfAborted();
      // Written anew each round so the acquisition time and the mtime (the first heartbeat) are current once linked.
      await writeWhole(handle, formatOwner({ ...owner, since_unix_ms: Date.now() }));
      linked = await linkUnlessExists(pendingPath, lockPath);
      if (linked) break;
      const seen = await readSnapshot(lockPath);
      if (seen === undefined) continue;
      if (isStaleLock(seen, attempt.staleMs) && (await takeOver(lockPath, seen, attempt.staleMs))) continue;
      const left = attempt.deadline - performance.now();
      if (left <= 0) throw lockedError(lockPath, seen.owner, attempt.waitMs);
      await sleep(Math.min(left, pollDelayMs(round)), attempt.signal);
    }
  } finally {
    // Once linked, the lock file is another name of the same file; a pending name left behind by a failed unlink is only litter.
    await removeIfPresent(pendingPath).catch(() => undefined);
    if (!linked) await handle.close();
  }
  return holding(lockPath, owner.token, handle, queue);
}

async function writeWhole(handle: FileHandle, text: string): Promise<void> {
  const bytes = Buffer.from(text);
  await handle.write(bytes, 0, bytes.length, 0);
  await handle.truncate(bytes.length);
}

async function linkUnlessExists(from: string, to: string): Promise<boolean> {
  try {
    await link(from, to);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}

function isStaleLock(seen: LockSnapshot, staleMs: number): boolean {
  const liveness = seen.owner === undefined ? "unknown" : ownerLiveness(seen.owner, heldTokens);
  return liveness === "dead" || (liveness === "unknown" && heartbeatAgeMs(seen) > staleMs);
}

/** A guard is held for a few file operations, so it is stale once its owner is dead or, alive or not, once it is older than `staleMs`. */
function isStaleGuard(seen: LockSnapshot, staleMs: number): boolean {
  return (seen.owner !== undefined && ownerLiveness(seen.owner, heldTokens) === "dead") || heartbeatAgeMs(seen) > staleMs;
}

function heartbeatAgeMs(seen: LockSnapshot): number {
  return Date.now() - seen.mtimeMs;
}

/**
 * Removes the stale lock `judged` under the takeover guard, if it is still
 * that lock and still stale. Returns whether it was removed; false also when
 * another taker holds the guard (a stale guard is removed for the next try).
 */
async function takeOver(lockPath: string, judged: LockSnapshot, staleMs: number): Promise<boolean> {
  const guardPath = `${lockPath}.takeover`;
  const guard = await createGuard(guardPath);
  if (guard === undefined) {
    const other = await readSnapshot(guardPath);
    if (other !== undefined && isStaleGuard(other, staleMs)) await removeIfUnchanged(guardPath, other);
    return false;
  }
  try {
    const current = await readSnapshot(lockPath);
    if (current === undefined || !sameFile(current, judged, { ignoreHeartbeat: true }) || !isStaleLock(current, staleMs)) return false;
    // Were we slow enough for our guard to be judged stale, another taker may be at work: leave the lock to it.
    const ours = await readSnapshot(guardPath);
    if (ours === undefined || !sameFile(ours, guard)) return false;
    return await removeIfUnchanged(lockPath, current);
  } finally {
    await removeIfUnchanged(guardPath, guard);
  }
}

/** Creates the guard exclusively with this process's owner record; undefined if it exists. */
async function createGuard(guardPath: string): Promise<LockSnapshot | undefined> {
  const owner = newOwner();
  const text = formatOwner(owner);
  let handle;
  try {
    handle = await open(guardPath, "wx", 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return undefined;
    throw error;
  }
  try {
    await handle.writeFile(text);
    const stats = await handle.stat({ bigint: true });
    return { text, owner, ino: stats.ino, mtimeMs: Number(stats.mtimeMs) };
  } catch (error) {
    await removeIfPresent(guardPath);
    throw error;
  } finally {
    await handle.close();
  }
}

function holding(lockPath: string, token: string, handle: FileHandle, queue: TurnQueue): HomeLock {
  heldTokens.add(token);
  let beating = false;
  const heartbeat = setInterval(() => {
    if (beating) return;
    beating = true;
    const now = new Date();
    // A failed touch is retried on the next beat; if it keeps failing the lock ages and may be judged stale by foreign waiters, which assertHeld() then reports.
    handle
      .utimes(now, now)
      .catch(() => undefined)
      .finally(() => {
        beating = false;
      });
  }, HEARTBEAT_MS);
  heartbeat.unref();
  let releasing: Promise<void> | undefined;
  return {
    lockPath,
    token,
    async assertHeld() {
      const seen = await readSnapshot(lockPath);
      if (releasing !== undefined || seen?.owner?.token !== token) throw lockedError(lockPath, seen?.owner, "lost");
    },
    release() {
      releasing ??= (async () => {
        clearInterval(heartbeat);
        try {
          if ((await readSnapshot(lockPath))?.owner?.token === token) await removeIfPresent(lockPath);
        } finally {
          heldTokens.delete(token);
          queue.done();
          await handle.close();
        }
      })();
      return releasing;
    },
  };
}

function lockedError(lockPath: string, owner: HomeLockHolder | undefined, waited: number | "lost"): HomeLockedError {
  return new HomeLockedError(lockPath, owner === undefined ? undefined : holderOf(owner), waited === "lost" ? { lost: true } : { waitedMs: waited });
}

/** Exponential backoff from 1 ms up to 25 ms, each delay drawn from its upper half so that waiting processes spread out. */
function pollDelayMs(round: number): number {
  const ceiling = Math.min(MAX_POLL_MS, FIRST_POLL_MS * 2 ** round);
  return ceiling / 2 + (Math.random() * ceiling) / 2;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

function checkOptions(options: AcquireLockOptions): Required<Omit<AcquireLockOptions, "signal">> & { signal: AbortSignal | undefined } {
  if (typeof options !== "object" || options === null) throw new TemporalTypeError("INVALID_ARGUMENT", `acquireLock options must be an object, got ${describeValue(options)}`);
  const waitMs = options.waitMs ?? DEFAULT_LOCK_WAIT_MS;
  const staleMs = options.staleMs ?? DEFAULT_LOCK_STALE_MS;
  checkMs("waitMs", waitMs, 0);
  checkMs("staleMs", staleMs, MIN_STALE_MS);
  const { signal } = options;
  if (signal !== undefined && !(signal instanceof AbortSignal)) throw new TemporalTypeError("INVALID_ARGUMENT", `acquireLock signal must be an AbortSignal, got ${describeValue(signal)}`);
  return { waitMs, staleMs, signal };
}

function checkMs(name: string, value: unknown, min: number): void {
  if (!(typeof value === "number" && Number.isInteger(value) && value >= min && value <= MAX_TIMER_MS)) {
    throw new TemporalRangeError("INVALID_ARGUMENT", `acquireLock ${name} must be an integer number of ms in ${min}..${MAX_TIMER_MS}, got ${describeValue(value)}`);
  }
}
