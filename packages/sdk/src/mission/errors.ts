import { TemporalError } from "../core/errors.js";
import type { AnchorProof, Receipt } from "../core/types.js";
import type { ZttBundle } from "../ztt/signer.js";
import type { Verdict } from "./types.js";

/** `run()` was asked to run a block naming tasks it was not given; nothing ran. */
export class MissingTasksError extends TemporalError {
  constructor(
    readonly mission: string,
    readonly verdict: Verdict,
    readonly missing: readonly string[],
  ) {
    super(
      "MISSING_TASKS",
      `mission ${JSON.stringify(mission)} (${verdict}) needs task${missing.length === 1 ? "" : "s"} ${missing.map((m) => JSON.stringify(m)).join(", ")}; pass ${missing.length === 1 ? "it" : "them"} in options.tasks. Nothing was run.`,
    );
    this.name = "MissingTasksError";
  }
}

/** A block stopped part way: carries what had already run and been anchored, and the cause. */
abstract class BlockStoppedError extends TemporalError {
  constructor(
    code: "TASK_FAILED" | "ANCHOR_FAILED",
    message: string,
    readonly mission: string,
    readonly verdict: Verdict,
    cause: unknown,
    readonly executed: readonly string[],
    readonly receipts: readonly Receipt[],
    readonly anchors: readonly AnchorProof[],
  ) {
    super(code, `${message}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/** A task threw: the block stopped there. */
export class TaskFailedError extends BlockStoppedError {
  constructor(
    mission: string,
    verdict: Verdict,
    readonly task: string,
    cause: unknown,
    executed: readonly string[],
    receipts: readonly Receipt[],
    anchors: readonly AnchorProof[],
  ) {
    super("TASK_FAILED", `task ${JSON.stringify(task)} of mission ${JSON.stringify(mission)} failed`, mission, verdict, cause, executed, receipts, anchors);
    this.name = "TaskFailedError";
  }
}

/** Issuing or anchoring a receipt failed (the ledger could not be written, the service refused): the block stopped there. */
export class AnchorFailedError extends BlockStoppedError {
  /** The ZTT bundles made so far, as `RunResult.ztt` would have them; absent when the block signs none. */
  readonly ztt?: readonly ZttBundle[];
  constructor(mission: string, verdict: Verdict, cause: unknown, executed: readonly string[], receipts: readonly Receipt[], anchors: readonly AnchorProof[], ztt?: readonly ZttBundle[]) {
    super("ANCHOR_FAILED", `mission ${JSON.stringify(mission)} could not anchor its receipt`, mission, verdict, cause, executed, receipts, anchors);
    this.name = "AnchorFailedError";
    if (ztt !== undefined) this.ztt = ztt;
  }
}

/**
 * The mission did not start: its authority could not issue and anchor the
 * receipt its block needs (home, key or ledger unusable; service
 * unreachable or refusing the key), the service could not tell the time, or
 * the time cannot go in a receipt. Thrown before the first task, so no task
 * ran; `cause` is the underlying error.
 */
export class AuthorityUnavailableError extends TemporalError {
  declare readonly code: "AUTHORITY_UNAVAILABLE";
  constructor(
    readonly mission: string,
    /** What could not be done, e.g. "its authority is not ready to anchor receipts". */
    readonly problem: string,
    cause: unknown,
  ) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    const fix = fixFor(cause);
    super("AUTHORITY_UNAVAILABLE", `mission ${JSON.stringify(mission)} did not start: ${problem}: ${detail}${fix === undefined ? "" : ` (${fix})`}. No task ran.`, { cause });
    this.name = "AuthorityUnavailableError";
  }
}

/** What the user can do about the usual causes, when the cause's own message does not say. */
function fixFor(cause: unknown): string | undefined {
  const { code, status } = (cause ?? {}) as { code?: unknown; status?: unknown };
  if (status === 401) return "give an API key the service accepts: TEMPORAL_API_KEY, or the client's apiKey";
  if (status === 403) return "anchoring needs an API key of tier enterprise";
  if (code === "NETWORK_ERROR" || code === "TIMEOUT") return "start the service, or point TEMPORAL_URL at one that runs";
  if (code === "TSAE_REQUEST_INVALID") return "receipts record times from 1970-01-01T00:00:00Z on";
  if (code === "LEDGER_CORRUPT") return "restore the ledger from a copy, or move it aside to start a new one";
  if (code === "DIRECTORY_NOT_CREATED" || typeof (cause as { syscall?: unknown } | undefined)?.syscall === "string") return "the home must be a folder this process can create and write";
  return undefined;
}

/**
 * `signal` was aborted: the run stopped before its next step (or the
 * evaluation before its verdict). `cause` is the signal's reason; the rest
 * says how far it got.
 */
export class MissionAbortedError extends TemporalError {
  declare readonly code: "ABORTED";
  constructor(
    readonly mission: string,
    /** null when aborted before the verdict. */
    readonly verdict: Verdict | null,
    reason: unknown,
    readonly executed: readonly string[] = [],
    readonly receipts: readonly Receipt[] = [],
    readonly anchors: readonly AnchorProof[] = [],
  ) {
    const progress = verdict === null ? "before its verdict" : `(${verdict}) after running ${executed.length === 0 ? "no task" : executed.join(", ")}`;
    super("ABORTED", `mission ${JSON.stringify(mission)} was aborted ${progress}`, { cause: reason });
    this.name = "MissionAbortedError";
  }
}
