import { randomBytes } from "node:crypto";
import { link, rename, unlink } from "node:fs/promises";
import { isErrno } from "./errors.js";
import { parseOwner, type LockOwner } from "./lock-owner.js";
import { openIfPresent } from "./open-if-present.js";

/** One look at a lock or guard file: its content and its inode's identity and mtime, read through one descriptor so they belong together. */
export interface LockSnapshot {
  readonly text: string;
  readonly owner: LockOwner | undefined;
  readonly ino: bigint;
  readonly mtimeMs: number;
}

/** Reads `path`, or undefined if it does not exist. */
export async function readSnapshot(path: string): Promise<LockSnapshot | undefined> {
  const handle = await openIfPresent(path);
  if (handle === undefined) return undefined;
  try {
    const stats = await handle.stat({ bigint: true });
    const text = await handle.readFile("utf8");
    return { text, owner: parseOwner(text), ino: stats.ino, mtimeMs: Number(stats.mtimeMs) };
  } finally {
    await handle.close();
  }
}

/** Whether two looks saw the same file: same inode and content (the token makes content unique) and, unless told to ignore it, the same heartbeat. */
export function sameFile(a: LockSnapshot, b: LockSnapshot, options: { ignoreHeartbeat?: boolean } = {}): boolean {
  return a.ino === b.ino && a.text === b.text && (options.ignoreHeartbeat === true || a.mtimeMs === b.mtimeMs);
}

/**
 * Removes `path` only if it is still exactly the file `expected` saw. A
 * check followed by unlink() could remove a file that replaced it in
 * between; instead the file is first renamed aside (atomic) and what was
 * moved is compared. If it is not the expected file, it is linked back —
 * which fails only if yet another file was linked into the path during the
 * moment it was empty; that file's owner then keeps the lock and the moved
 * one's owner has lost it (its `assertHeld` says so). Returns whether the
 * expected file was removed.
 */
export async function removeIfUnchanged(path: string, expected: LockSnapshot): Promise<boolean> {
  const aside = `${path}.${randomBytes(8).toString("hex")}.aside`;
  try {
    await rename(path, aside);
  } catch (error) {
    if (isErrno(error, "ENOENT")) return false;
    throw error;
  }
  try {
    const moved = await readSnapshot(aside);
    if (moved !== undefined && sameFile(moved, expected)) return true;
    await link(aside, path).catch((error: unknown) => {
      if (!isErrno(error, "EEXIST")) throw error;
    });
    return false;
  } finally {
    await removeIfPresent(aside);
  }
}

export async function removeIfPresent(path: string): Promise<void> {
  try {
    await unlink(path);
  } catch (error) {
    if (!isErrno(error, "ENOENT")) throw error;
  }
}
