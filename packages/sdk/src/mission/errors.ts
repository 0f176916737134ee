import { TemporalError } from "../core/errors.js";
import type { AnchorProof, Receipt } from "../core/types.js";
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

/** A task threw: the block stopped there. Carries what had already run and been anchored. */
export class TaskFailedError extends TemporalError {
  constructor(
    readonly mission: string,
    readonly verdict: Verdict,
    readonly task: string,
    cause: unknown,
    readonly executed: readonly string[],
    readonly receipts: readonly Receipt[],
    readonly anchors: readonly AnchorProof[],
  ) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    super("TASK_FAILED", `task ${JSON.stringify(task)} of mission ${JSON.stringify(mission)} failed: ${detail}`, { cause });
    this.name = "TaskFailedError";
  }
}
