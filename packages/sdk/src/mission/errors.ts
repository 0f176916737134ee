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
  constructor(mission: string, verdict: Verdict, cause: unknown, executed: readonly string[], receipts: readonly Receipt[], anchors: readonly AnchorProof[]) {
    super("ANCHOR_FAILED", `mission ${JSON.stringify(mission)} could not anchor its receipt`, mission, verdict, cause, executed, receipts, anchors);
    this.name = "AnchorFailedError";
  }
}
