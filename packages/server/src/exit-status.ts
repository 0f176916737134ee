import { TemporalError } from "@temporal/agent-sdk";

/** How `temporal-service` ends; the same numbers as temporalc's. */
export const EXIT_OK = 0;
/** It could not start (home, address) or stop cleanly. */
export const EXIT_FAILURE = 1;
/** It was called wrongly: an option, an environment variable or the config file. */
export const EXIT_USAGE = 2;

/** A problem with how `temporal-service` was called (`INVALID_ARGUMENT`): one line on stderr, exit status 2. */
export class UsageError extends TemporalError {
  declare readonly code: "INVALID_ARGUMENT";
  constructor(message: string) {
    super("INVALID_ARGUMENT", message);
    this.name = "UsageError";
  }
}
