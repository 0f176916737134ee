import { getSystemErrorMap } from "node:util";

/** The errno codes a user meets with files, in the words every message of the SDK and temporalc uses for them. */
const WORDS: ReadonlyMap<string, string> = new Map([
  ["ENOENT", "no such file or folder"],
  ["EACCES", "permission denied"],
  ["EPERM", "permission denied"],
  ["EISDIR", "is a folder"],
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
 * listed here gets the operating system's description (`i/o error` for EIO), not Node's message, which wraps it in the
 * code, the call and the path; a code that is no errno (Node's `ERR_...`) is an unknown error, named by its code.
 */
export function describeErrno(code: string): string {
  return WORDS.get(code) ?? systemDescription(code) ?? `an unknown error (${code})`;
}

function systemDescription(code: string): string | undefined {
  for (const [name, description] of getSystemErrorMap().values()) if (name === code) return description;
  return undefined;
}
