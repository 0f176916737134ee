import { readFile } from "node:fs/promises";
import { describeIoError } from "@temporal/agent-sdk/node";
import { UsageError } from "./errors.js";

// Reading a file a command needs, apart from files.ts so that commands which read no mission file (ledger, init,
// verify) do not load the compiler with it. Why a file could not be read or written is the SDK's describeIoError.

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
