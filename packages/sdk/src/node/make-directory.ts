import { mkdir, stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { TemporalError } from "../core/errors.js";
import { describeIoError, errnoCode } from "./describe-errno.js";

/**
 * A folder could not be created: the message names it and says why in words; `reason` carries the errno code apart,
 * for callers that branch on it or print it their own way (temporalc ends its line with its own code).
 */
export class DirectoryNotCreatedError extends TemporalError {
  declare readonly code: "DIRECTORY_NOT_CREATED";
  /** The folder that could not be created (or the path in the way), absolute. */
  readonly path: string;
  /**
   * The file system's errno code, such as `EROFS`, or `ENOTDIR` for a file in the way; `UNKNOWN` when what failed
   * carried none (Node's own `ERR_...` errors, such as a path with a NUL byte: the message is then Node's).
   */
  readonly reason: string;
  constructor(path: string, reason: string, detail: string, cause?: unknown) {
    super("DIRECTORY_NOT_CREATED", `cannot create the folder ${path}: ${detail}`, { cause });
    this.name = "DirectoryNotCreatedError";
    this.path = path;
    this.reason = reason;
  }
}

export interface MakeDirectoryOptions {
  /** The mode of each folder created (less the umask, as for mkdir(2)); default 0o777. */
  mode?: number;
}

/**
 * Creates `path` and any missing parents, like `mkdir -p`, and returns the
 * first folder it created (undefined when `path` already existed).
 *
 * Node's `mkdir(path, { recursive: true })` loops forever where a parent
 * exists but refuses children with ENOENT (`/proc/x/y` on Linux). This walks
 * up to the first existing ancestor, then creates each level with one
 * non-recursive mkdir, so every step either succeeds or ends with an error
 * that names the cause.
 */
export async function makeDirectory(path: string, options: MakeDirectoryOptions = {}): Promise<string | undefined> {
  const target = resolve(path);
  const missing: string[] = [];
  for (let current = target; ; current = dirname(current)) {
    const kind = await existingKind(current);
    if (kind === "folder") break;
    if (kind === "other") throw notCreated(current, "ENOTDIR");
    missing.push(current);
    // The root always exists; a missing root means the walk cannot end, so stop.
    if (dirname(current) === current) throw notCreated(current, "ENOENT");
  }
  for (const folder of missing.reverse()) {
    try {
      await mkdir(folder, { mode: options.mode ?? 0o777 });
    } catch (error) {
      const code = errnoCode(error);
      // Someone else created it meanwhile: fine if it is a folder.
      if (code === "EEXIST" && (await existingKind(folder)) === "folder") continue;
      throw notCreated(folder, code, error);
    }
  }
  return missing[0];
}

async function existingKind(path: string): Promise<"folder" | "other" | "none"> {
  try {
    return (await stat(path)).isDirectory() ? "folder" : "other";
  } catch (error) {
    const code = errnoCode(error);
    // ENOTDIR: a file where a parent should be; walking up finds it and names it.
    if (code === "ENOENT" || code === "ENOTDIR") return "none";
    throw notCreated(path, code, error);
  }
}

function notCreated(path: string, code: string | undefined, cause?: unknown): DirectoryNotCreatedError {
  return new DirectoryNotCreatedError(path, code ?? "UNKNOWN", describe(code, cause), cause);
}

/**
 * Why, in words, without the errno code (`reason` carries it): what mkdir's errors mean here, else the usual words
 * (`describeIoError`: without an errno, `reason` UNKNOWN, what was thrown says why, as Node's own errors do for a NUL
 * byte in the path).
 */
function describe(code: string | undefined, cause: unknown): string {
  switch (code) {
    case "ENOENT":
      // mkdir's parent exists (it was just checked or made), so ENOENT means the file system refuses children here.
      return "the file system does not allow creating folders here";
    case "ENOTDIR":
    case "EEXIST":
      return `a file is in the way: ${code === "ENOTDIR" ? "a part of the path" : "it"} is not a folder`;
    default:
      return describeIoError(cause);
  }
}
