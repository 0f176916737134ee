export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/**
 * A problem with how temporalc was called or with its files (exit status 2), with a stable code that scripts may
 * match. The message leaves the code out: `errorLine` adds it to the line on standard error, and `--json` carries it
 * apart, as `code`.
 */
export class UsageError extends Error {
  override name = "UsageError";
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The one line on standard error for a command that stopped, whatever the command: `temporalc: <message> (<CODE>)`,
 * e.g. `temporalc: --mission deploy: no mission named "deploy"; this file has backup (MISSION_NOT_FOUND)`.
 */
export function errorLine(message: string, code: string): string {
  return `temporalc: ${message} (${code})`;
}

/** The line for an error that stopped a command: a usage error's, with its code, or else a bug's (INTERNAL_ERROR). */
export function stopLine(error: unknown): string {
  if (error instanceof UsageError) return errorLine(error.message, error.code);
  return errorLine(`unexpected error: ${error instanceof Error ? error.message : String(error)}`, "INTERNAL_ERROR");
}
