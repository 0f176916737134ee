import { describeIoError, errnoCode, readSmallFile } from "@temporal/agent-sdk/node";
import { UsageError } from "./errors.js";

// Reading a file a command needs, apart from files.ts so that a command which reads no mission file (verify) does not
// load the compiler with it. Why a file could not be read or written is the SDK's describeIoError.

/**
 * The most temporalc reads of one file (a mission, a receipt, a keys file; standard input too): a mission of 16 MiB
 * would take about a gigabyte to compile (some 60 bytes of memory per byte of source, docs/compiling.md), and a path
 * such as /dev/zero is refused at this size instead of read without end.
 */
export const READ_LIMIT_BYTES = 16 * 1_048_576;

/** A file a command stopped on because it could not read it; `path` names it in `run --json` and `show --json`. */
export class FileReadError extends UsageError<"FILE_NOT_FOUND" | "FILE_UNREADABLE"> {
  constructor(
    readonly path: string,
    code: "FILE_NOT_FOUND" | "FILE_UNREADABLE",
    message: string,
  ) {
    super(code, message);
  }
}

/**
 * The bytes of a file a command needs; one that cannot be read is a usage error (`FileReadError`): FILE_NOT_FOUND when
 * it does not exist (scripts match it), else FILE_UNREADABLE, with why in the CLI's words (`describeIoError`). `label`
 * names the file in the message (`cannot read the keys file keys.json: ...`); without it (the mission file of `run` and
 * `show`), the message is `<path>: <why>`, so that the line reads as check, compile and fmt print a file they cannot read.
 */
export async function readFileOrStop(path: string, label?: string): Promise<Uint8Array> {
  try {
    return await readSmallFile(path, READ_LIMIT_BYTES);
  } catch (error) {
    const why = describeIoError(error);
    throw new FileReadError(path, readFailureCode(error), label === undefined ? `${path}: ${why}` : `cannot read ${label} ${path}: ${why}`);
  }
}

/** FILE_NOT_FOUND when the path does not exist (scripts match it), else FILE_UNREADABLE. */
export function readFailureCode(error: unknown): "FILE_NOT_FOUND" | "FILE_UNREADABLE" {
  return errnoCode(error) === "ENOENT" ? "FILE_NOT_FOUND" : "FILE_UNREADABLE";
}
