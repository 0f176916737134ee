import { getSystemErrorMap } from "node:util";

/**
 * The errno codes a user meets with files, in the words every message of the SDK and temporalc uses for them: each
 * reads as the clause after "cannot read <file>:" or "cannot create the folder <path>:".
 */
const WORDS: ReadonlyMap<string, string> = new Map([
  ["ENOENT", "no such file or folder"],
  ["EACCES", "permission denied"],
  ["EPERM", "permission denied"],
  ["EISDIR", "it is a folder"],
  ["ENOTDIR", "a part of the path is not a folder"],
  ["EEXIST", "it already exists"],
  ["ENOSPC", "no space left on the device"],
  ["EROFS", "the file system is read-only"],
  ["ENAMETOOLONG", "the name is too long"],
  ["ELOOP", "too many symbolic links in the path"],
]);

/**
 * Why a file system call failed, in words and without the errno code (`describeErrno("EROFS")` is `the file system is
 * read-only`), for a message that names the file itself and carries the code apart or ends with its own. A code not
 * listed here gets libuv's description of it (`uv_strerror`: `i/o error` for EIO), not Node's message, which wraps it
 * in the code, the call and the path; a code that is no errno (Node's `ERR_...`) is an unknown error, named by its code.
 */
export function describeErrno(code: string): string {
  return WORDS.get(code) ?? libuvDescription(code) ?? `an unknown error (${code})`;
}

/**
 * The errno code of a failed file system call (`ENOENT`, `EACCES`, ...): the `code` of an error that also carries a
 * numeric `errno`, as every error of a system call does. Undefined for anything else, above all Node's own errors
 * (`ERR_INVALID_ARG_VALUE` for a path with a NUL byte), which carry a string `code` too but no errno, and whose message
 * says what to fix better than describeErrno could.
 */
export function errnoCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const { code, errno } = error as NodeJS.ErrnoException;
  return typeof code === "string" && typeof errno === "number" ? code : undefined;
}

/**
 * Why a file or folder could not be read or written, in words and without the errno code, for a line that names the
 * file and ends with its own code: `describeErrno`'s words for a failed system call (`errnoCode`); for anything else,
 * what was thrown says why itself, in its message (Node's own `ERR_...` errors, such as a path with a NUL byte, and
 * `DirectoryNotCreatedError`, which names the folder and the cause).
 */
export function describeIoError(error: unknown): string {
  const code = errnoCode(error);
  if (code !== undefined) return describeErrno(code);
  return error instanceof Error ? error.message : String(error);
}

/** libuv's errno names to their descriptions, made at the first error that needs one (getSystemErrorMap is keyed by number). */
let libuvDescriptions: ReadonlyMap<string, string> | undefined;

function libuvDescription(code: string): string | undefined {
  libuvDescriptions ??= new Map([...getSystemErrorMap().values()]);
  return libuvDescriptions.get(code);
}
