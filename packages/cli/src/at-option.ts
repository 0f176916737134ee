import { requireIsoInstant } from "@temporal/agent-sdk";
import { UsageError, messageOf } from "./errors.js";

/**
 * `--at` of `temporalc show` and `temporalc run`: Unix milliseconds, by the SDK's one ISO 8601 reader
 * (docs/phase.md#writing-an-instant), or a usage error (exit 2) with one code and one message for every command that
 * takes it, e.g. `--at "2026-02-30" is not an ISO 8601 time with a zone: no such date: 2026-02 has 28 days` (INVALID_TIME).
 */
export function readAtOption(text: string): number {
  try {
    return requireIsoInstant(text);
  } catch (error) {
    throw new UsageError("INVALID_TIME", `--at ${messageOf(error)}`);
  }
}
