import { open, type FileHandle } from "node:fs/promises";
import { isErrno } from "./errors.js";

/** The file at `path` opened for reading, or undefined if it does not exist. */
export async function openIfPresent(path: string): Promise<FileHandle | undefined> {
  try {
    return await open(path, "r");
  } catch (error) {
    if (isErrno(error, "ENOENT")) return undefined;
    throw error;
  }
}
