import { randomBytes } from "node:crypto";
import { open, rename, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { syncDirectory } from "./sync-directory.js";

/**
 * Replaces the file at `path` so that after a crash it holds either its old
 * contents or all of `bytes`: a temporary file beside it, written and
 * fsynced, renamed over it, then the directory fsynced for the rename.
 */
export async function writeFileDurably(path: string, bytes: Uint8Array): Promise<void> {
  const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString("hex")}.tmp`);
  try {
    const handle = await open(temporary, "wx", 0o600);
    try {
      await handle.writeFile(bytes);
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
