import { open } from "node:fs/promises";
import { isErrno } from "./errors.js";

/** Makes a newly created or renamed directory entry durable: fsyncs the directory holding it. */
export async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, "r");
  try {
    await handle.sync();
  } catch (error) {
    // Windows cannot fsync a directory; entries are durable there once the file is.
    if (!isErrno(error, "EPERM", "EISDIR", "EINVAL")) throw error;
  } finally {
    await handle.close();
  }
}
