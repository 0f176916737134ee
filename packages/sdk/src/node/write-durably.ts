import { randomBytes } from "node:crypto";
import { link, open, rename, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { syncDirectory } from "./sync-directory.js";

export interface WriteFileDurablyOptions {
  /** Permission bits of the new file, before the umask: `0o600` (owner only) unless told, so a caller who forgets leaks no secret; `0o666` for ordinary output. */
  mode?: number;
  /**
   * `false` creates the file and never replaces one: the contents are linked into place, which fails with `EEXIST`
   * if the name is taken (a key file, which must never be overwritten). Default `true`.
   */
  replace?: boolean;
}

/**
 * Writes the file at `path` whole, replacing it (or, with `replace: false`,
 * creating it), so that readers, and the file after a crash, see either its
 * old contents (or none) or all of `data`, never a part: a temporary file
 * beside it (named for this write, so concurrent writers never share one),
 * written and fsynced, renamed over it (or linked to its name), then the
 * directory fsynced so the rename itself survives a crash. The one helper for every file a
 * half-write could leave corrupt. Its errors are Node's, which name the
 * temporary file: tell them in `describeIoError`'s words, with `path`.
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
    await (options.replace === false ? link(temporary, path) : rename(temporary, path));
  } catch (error) {
    // A failure to remove it must not hide the error that matters (EEXIST from the link, which callers rely on).
    await rm(temporary, { force: true }).catch(() => {});
    throw error;
  }
  // Linked: the file now has two names, and the temporary one goes.
  if (options.replace === false) await rm(temporary, { force: true });
  await syncDirectory(dirname(path));
}
