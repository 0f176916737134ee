export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/** A problem with how temporalc was called or with its files: reported in one line, exit status 2. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** A usage error with a stable code that scripts may match, printed after the message: `... (CODE)`. */
export class CodedUsageError<Code extends string> extends UsageError {
  constructor(
    readonly code: Code,
    message: string,
  ) {
    super(`${message} (${code})`);
  }
}
