import { readFile } from "node:fs/promises";
import { DirectoryNotCreatedError, describeErrno, errnoCode } from "@temporal/agent-sdk/node";
import { UsageError, messageOf } from "./errors.js";

// File system errors in the CLI's words, apart from files.ts so that commands which read no mission file (ledger,
// init, verify) and main's output-failure line do not load the compiler with them.

/**
 * The bytes of a file a command needs; one that cannot be read is a usage error: FILE_NOT_FOUND when it does not
 * exist (scripts match it), else FILE_UNREADABLE, with why in the CLI's words (`describeIoError`). `label` names the
 * file in the message (`cannot read the keys file keys.json: ...`); without it, the path alone does.
 */
export async function readFileOrStop(path: string, label?: string): Promise<Uint8Array> {
  try {
    return await readFile(path);
  } catch (error) {
    throw new UsageError(readFailureCode(error), `cannot read ${label === undefined ? "" : `${label} `}${path}: ${describeIoError(error)}`);
  }
}

/** FILE_NOT_FOUND when the path does not exist (scripts match it), else FILE_UNREADABLE. */
export function readFailureCode(error: unknown): "FILE_NOT_FOUND" | "FILE_UNREADABLE" {
  return (error as NodeJS.ErrnoException | undefined)?.code === "ENOENT" ? "FILE_NOT_FOUND" : "FILE_UNREADABLE";
}

/** Why a file or folder could not be read or written, in words, without the errno code: the line ends with the CLI's own code. */
export function describeIoError(error: unknown): string {
  // makeDirectory's message names the folder and the cause in words (its errno code is a field, `reason`).
  if (error instanceof DirectoryNotCreatedError) return error.message;
  const code = errnoCode(error);
  // Anything but a file system error (Node's ERR_... codes, a plain Error) says why itself.
  return code === undefined ? messageOf(error) : describeErrno(code);
}
