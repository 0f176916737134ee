import type { Diagnostic } from "@temporal/compiler";
import { EXIT_FAILURE, EXIT_USAGE, usageErrorOf } from "../errors.js";
import { FileReadError } from "../io-errors.js";

/**
 * How `temporalc run` and `temporalc show` report a stop: one classification, so the line on standard error (`errorLine`,
 * ending with a stable code) and, with `--json`, the object `{ "error": { code, message, ... } }` on standard output
 * always agree. `message` is the line without `temporalc: ` and the code.
 */

/** The mission file has errors, already printed as by `check`: nothing ran or was drawn (exit 1). */
export class MissionFileError extends Error {
  readonly code = "MISSION_FILE_INVALID";
  constructor(
    message: string,
    readonly diagnostics: readonly Diagnostic[],
  ) {
    super(message);
  }
}

export interface Failure {
  readonly code: string;
  /** The line on standard error without `temporalc: ` and the code (`errorLine` adds them). */
  readonly message: string;
  readonly exit: number;
  /** The file that could not be read (FILE_NOT_FOUND, FILE_UNREADABLE), as `path` of check's problems. */
  readonly path?: string;
  /** Further lines for the text output only, e.g. what to export. */
  readonly hints?: readonly string[];
  readonly diagnostics?: readonly Diagnostic[];
}

/** The failure a usage error or a mission file with errors stands for; `undefined` for any other error (a command's own, or a bug). */
export function classifyFailure(error: unknown): Failure | undefined {
  const usage = usageErrorOf(error);
  if (usage !== undefined) return { code: usage.code, message: usage.message, exit: EXIT_USAGE, ...(usage instanceof FileReadError ? { path: usage.path } : {}) };
  if (error instanceof MissionFileError) return { code: error.code, message: error.message, exit: EXIT_FAILURE, diagnostics: error.diagnostics };
  return undefined;
}

/** The `error` member of `--json`'s object: the failure, code and message first, without what only the text output needs. */
export function failureJson(failure: Failure): object {
  const { exit: _exit, hints: _hints, code, message, path, ...rest } = failure;
  // JSON leaves out a path that is undefined.
  return { code, message, path, ...rest };
}
