export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/** A problem with how temporalc was called or with its files: reported in one line, exit status 2. */
export class UsageError extends Error {
  override name = "UsageError";
}
