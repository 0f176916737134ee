export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/**
 * A problem with how temporalc was called or with its files (exit status 2), with a stable code that scripts may
 * match. The message leaves the code out: `errorLine` adds it to the line on standard error, and `--json` carries it
 * apart, as `code`. A command narrows `Code` to the codes it may stop with.
 */
export class UsageError<Code extends string = string> extends Error {
  override name = "UsageError";
  constructor(
    readonly code: Code,
    message: string,
  ) {
    super(message);
  }
}

/** `error` if it is a usage error: `instanceof` alone would type its code `any`, the class being generic. */
export function usageErrorOf(error: unknown): UsageError | undefined {
  return error instanceof UsageError ? error : undefined;
}

/**
 * The one line on standard error for a command that stopped, whatever the command: `temporalc: <message> (<CODE>)`,
 * e.g. `temporalc: no mission named "deploy"; this file has backup (MISSION_NOT_FOUND)`, and `more` indented under it;
 * with its newline, so that every caller writes it as it is.
 */
export function errorLine(code: string, message: string, more: readonly string[] = []): string {
  return `temporalc: ${message} (${code})\n${more.map((line) => `  ${line}\n`).join("")}`;
}

/**
 * errorLine for a message that may run over several lines (Prettier's, or commander's with its suggestion under it):
 * the first line carries the code and the others go under it, indented, blank ones left out. `about` (a path) leads
 * the first line. That line loses a colon that introduced the others (`YAML Error in ".prettierrc": (FORMAT_FAILED)`
 * would read as if the why were missing); with no why at all, `about` stands alone, not as `path:  (CODE)`.
 */
export function messageErrorLine(code: string, message: string, about?: string): string {
  const [first = "", ...more] = message.split("\n").filter((line) => line.trim() !== "");
  const why = first.replace(/:\s*$/, "").trim();
  return errorLine(code, about === undefined ? why : why === "" ? about : `${about}: ${why}`, more);
}

/** An error's message, or the thrown value as text when something other than an Error was thrown. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * What standard error says for an error that stopped a command, ending with a newline: a usage error's line, with its
 * code; or a bug's (INTERNAL_ERROR) and, under it, that it is a bug, or its stack when TEMPORALC_DEBUG is set.
 */
export function stopText(error: unknown): string {
  const usage = usageErrorOf(error);
  if (usage !== undefined) return errorLine(usage.code, usage.message);
  const message = `unexpected error: ${messageOf(error)}`;
  // One line for the user, the stack only when asked for.
  if (process.env["TEMPORALC_DEBUG"]) return `${errorLine("INTERNAL_ERROR", message)}${error instanceof Error ? error.stack : ""}\n`;
  return errorLine("INTERNAL_ERROR", message, ["this is a bug in temporalc; set TEMPORALC_DEBUG=1 to see where, and please report it"]);
}
