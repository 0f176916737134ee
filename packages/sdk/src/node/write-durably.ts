import { randomBytes } from "node:crypto";
import { open, rename, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { syncDirectory } from "./sync-directory.js";

export interface WriteFileDurablyOptions {
  /** Permission bits of the new file, before the umask: `0o600` (owner only) unless told, so a caller who forgets leaks no secret; `0o666` for ordinary output. */
  mode?: number;
}

/**
 * Replaces the file at `path` so that readers, and the file after a crash,
 * see either its old contents or all of `data`, never a part: a temporary
 * file beside it (named for this write, so concurrent writers never share
 * one), written and fsynced, renamed over it, then the directory fsynced so
 * the rename itself survives a crash. The one helper for every file a
 * half-write could leave corrupt.
 */
export async function writeFileDurably(path: string, data: string | Uint8Array, options: WriteFileDurablyOptions = {}): Promise<void> {
  const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString("hex")}.tmp`);
  try {
    const handle = await open(temporary, "wx", options.mode ?? 0o600);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  await syncDirectory(dirname(path));
}
