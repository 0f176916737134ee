import { requireIsoInstant } from "@temporal/agent-sdk";
import { CodedUsageError } from "./errors.js";

/** `--at` is not an instant: a usage error (exit 2) with one code and one message for every command that takes it. */
export class AtOptionError extends CodedUsageError<"INVALID_TIME"> {}

/**
 * `--at` of `temporalc show` and `temporalc run`: Unix milliseconds, by the SDK's one ISO 8601 reader
 * (docs/phase.md#writing-an-instant), or `AtOptionError` saying what is wrong, e.g.
 * `--at "2026-02-30" is not an ISO 8601 time with a zone: no such date: 2026-02 has 28 days (INVALID_TIME)`.
 */
export function readAtOption(text: string): number {
  try {
    return requireIsoInstant(text);
  } catch (error) {
    throw new AtOptionError("INVALID_TIME", `--at ${error instanceof Error ? error.message : String(error)}`);
  }
}
