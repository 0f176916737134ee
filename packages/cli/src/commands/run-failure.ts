import { AnchorFailedError, AuthorityUnavailableError, MissingTasksError, TaskFailedError, type AnchorProof } from "@temporal/agent-sdk";
import { EXIT_FAILURE, EXIT_USAGE, messageOf } from "../errors.js";
import { describeIoError, errnoCode } from "@temporal/agent-sdk/node";
import { classifyFailure, type Failure } from "./failure.js";

/**
 * What `temporalc run` reports when a run stops: one classification of every way it can fail (failure.ts's, as
 * `temporalc show` reports a stop, and the SDK's errors), so the text and the `--json` object always agree and always
 * carry a stable code.
 */

export interface RunFailure extends Failure {
  readonly hints: readonly string[];
  readonly mission?: string;
  readonly task?: string;
  /** `MISSING_TASKS`: the tasks the verdict's block needs and --tasks did not export. */
  readonly missing?: readonly string[];
  /** What the stopped mission had run and anchored before it stopped. */
  readonly executed: readonly string[];
  readonly anchors: readonly AnchorProof[];
  readonly cause?: { code?: string; status?: number; message: string };
}

/** What to give `temporalc run` for a home whose key was rotated; the SDK's message names the service's settings. */
function rotationHints(code: unknown): string[] {
  if (code === "LOG_KEY_UNKNOWN") return ["hint: for a home whose key was rotated, give each retired key's file with --previous-key <file> (and --authority-name <name>)"];
  if (code === "AUTHORITY_NAME_CHANGED") return ["hint: give the name the log is signed under with --authority-name <name>"];
  return [];
}

/** The failure `error` stands for, or `undefined` for an error temporalc did not expect (a bug). */
export function classifyRunFailure(error: unknown): RunFailure | undefined {
  const nothing = { executed: [], anchors: [], hints: [] };
  const stop = classifyFailure(error);
  if (stop !== undefined) return { ...nothing, ...stop };
  if (error instanceof AuthorityUnavailableError) {
    // Storage, configuration or the service: fixed outside the mission file, so exit 2 like other I/O problems.
    const hints = rotationHints((error.cause as { code?: unknown } | undefined)?.code);
    return { ...nothing, code: error.code, message: error.message, exit: EXIT_USAGE, hints, mission: error.mission, cause: causeJson(error.cause) };
  }
  if (error instanceof MissingTasksError) {
    const hints = [`hint: export ${error.missing.join(", ")} from a module and pass it with --tasks`];
    return { ...nothing, code: error.code, message: error.message, exit: EXIT_FAILURE, hints, mission: error.mission, missing: error.missing };
  }
  if (error instanceof TaskFailedError || error instanceof AnchorFailedError) {
    const what =
      error instanceof TaskFailedError
        ? `task ${JSON.stringify(error.task)} of mission ${JSON.stringify(error.mission)} failed`
        : `mission ${JSON.stringify(error.mission)} could not anchor its receipt`;
    return {
      code: error.code,
      message: `${what}: ${describeCause(error.cause)}`,
      exit: isStorageProblem(error.cause) ? EXIT_USAGE : EXIT_FAILURE,
      hints: [`already ran: ${error.executed.join(", ") || "nothing"}; receipts anchored: ${error.anchors.length}`],
      mission: error.mission,
      ...(error instanceof TaskFailedError ? { task: error.task } : {}),
      executed: error.executed,
      anchors: error.anchors,
      cause: causeJson(error.cause),
    };
  }
  return undefined;
}

/** The `error` member for a bug: the process still prints its one line on stderr. */
export function unexpectedFailureJson(error: unknown): object {
  return { code: "INTERNAL_ERROR", message: messageOf(error), executed: [], anchors: [] };
}

function causeJson(cause: unknown): RunFailure["cause"] {
  if (cause === undefined) return undefined;
  // A task may throw anything, null included.
  const { code, status } = (cause ?? {}) as { code?: unknown; status?: unknown };
  return { ...(typeof code === "string" ? { code } : {}), ...(typeof status === "number" ? { status } : {}), message: describeCause(cause) };
}

const STORAGE_CODES = new Set([
  "HOME_LOCKED",
  "HOME_NOT_WRITABLE",
  "LEDGER_CORRUPT",
  "LEDGER_IO_FAILED",
  "LEDGER_MIGRATION_REQUIRED",
  "KEY_MISSING",
  "KEY_INVALID",
  "LOG_KEY_UNKNOWN",
  "LOG_KEY_RETIRED",
]);

/**
 * Problems with the ledger's folder or files are I/O errors (exit 2), not failures of the mission: the SDK's storage
 * codes, and any failed system call, told as the rest of the CLI tells one (`errnoCode`).
 */
function isStorageProblem(cause: unknown): boolean {
  const code = (cause as { code?: unknown } | undefined)?.code;
  return (typeof code === "string" && STORAGE_CODES.has(code)) || errnoCode(cause) !== undefined;
}

/**
 * Why, in words: a failed system call led by the path it failed on, any other error by its message (`describeIoError`),
 * and what a task threw that is no error as that value (`it threw null, not an Error`), never as `[object Object]`.
 */
export function describeCause(cause: unknown): string {
  if (!(cause instanceof Error)) return `it threw ${thrownValue(cause)}, not an Error`;
  const path = errnoCode(cause) === undefined ? undefined : (cause as NodeJS.ErrnoException).path;
  return `${path === undefined ? "" : `${path}: `}${describeIoError(cause)}`;
}

/** A thrown value that is no Error, as JSON where it has some (shortened), else as String gives it. */
function thrownValue(value: unknown): string {
  try {
    const json = JSON.stringify(value) as string | undefined;
    if (json !== undefined) return json.length > 120 ? `${json.slice(0, 117)}...` : json;
  } catch {
    // A BigInt or a cycle: String below.
  }
  try {
    return String(value);
  } catch {
    // An object without toString (no prototype) and a cycle JSON could not write.
    return Object.prototype.toString.call(value);
  }
}
