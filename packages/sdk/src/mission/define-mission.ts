import { DEFAULT_FINALITY_TIMEOUT_MS, FinalityTimeoutError } from "../core/finality.js";
import type { AnchorProof, Receipt } from "../core/types.js";
import type { ZttBundle } from "../ztt/signer.js";
import { assertCanAnchor, authorityAccess, decisionContext, type AuthorityAccess } from "./authority.js";
import { AnchorFailedError, MissingTasksError, MissionAbortedError, TaskFailedError } from "./errors.js";
import { CARBON, HS_BLOCH, readMeasure, valueOf, withFailures, type Reading } from "./measures.js";
import { assertEvaluateOptions, assertRunOptions, DEFAULT_MEASURE_TIMEOUT_MS } from "./options.js";
import { receiptRequest } from "./receipt-request.js";
import type { Decision, EvaluateOptions, MeasureFailure, Mission, MissionSpec, RunOptions, RunResult, Task } from "./types.js";
import { decisionClock, missionNextOpenAll } from "./zone.js";
import { signsZtt, zttSign, zttSignerFor } from "./ztt.js";

/**
 * The runtime half of a compiled mission: generated code supplies the
 * requirements and the `check` that tests them; this decides, runs the
 * chosen block, and issues and anchors receipts.
 */
export function defineMission(definition: MissionSpec): Mission {
  // A frozen copy: no importer can change what a mission requires or runs after the fact.
  const spec: MissionSpec = {
    ...definition,
    requires: deepFreeze(structuredClone(definition.requires)),
    on: deepFreeze(structuredClone(definition.on)),
  };
  const evaluate = async (options: EvaluateOptions = {}) => {
    assertEvaluateOptions(options);
    return decide(spec, options, authorityAccess(spec, options));
  };
  const run = async (options: RunOptions = {}) => {
    assertRunOptions(options);
    const access = authorityAccess(spec, options);
    return runBlock(spec, await decide(spec, options, access), options, access);
  };
  return Object.freeze({
    name: spec.name,
    kernel_version: spec.kernel_version,
    zone: spec.zone,
    requires: spec.requires,
    on: spec.on,
    evaluate,
    run,
  });
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object") {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

async function decide(spec: MissionSpec, options: EvaluateOptions, access: AuthorityAccess): Promise<Decision> {
  if (options.signal?.aborted) throw access.onAbort();
  const ctx = await decisionContext(spec, options, access);
  const read = { timeoutMs: options.measureTimeoutMs ?? DEFAULT_MEASURE_TIMEOUT_MS, signal: options.signal, onAbort: access.onAbort };
  // Read together, so two slow providers cost one timeout, not two.
  const [carbon, hsBloch] = await Promise.all([
    spec.requires.carbon === null ? undefined : readMeasure(options.carbon, CARBON, read),
    spec.requires.hs_bloch === null ? undefined : readMeasure(options.hsBloch, HS_BLOCH, read),
  ]);
  const failures = [carbon, hsBloch].flatMap((reading: Reading | undefined): MeasureFailure[] => (reading !== undefined && "failure" in reading ? [reading.failure] : []));
  const reasons = withFailures(spec.check(ctx, { carbon: valueOf(carbon), hsBloch: valueOf(hsBloch) }), failures);
  const decision: Decision = {
    mission: spec.name,
    verdict: reasons.length === 0 ? "ALLOW" : "DENY",
    reason: reasons[0] ?? null,
    reasons,
    ctx,
    ...decisionClock(spec.zone, ctx),
    ...(failures.length === 0 ? {} : { measure_failures: failures }),
  };
  if (!reasons.includes("PHASE_OUTSIDE_WINDOW")) return decision;
  const next = missionNextOpenAll(spec.zone, ctx.unix_ms, spec.requires.phase);
  return next === undefined ? decision : { ...decision, next_open_unix_ms: next };
}

/**
 * Only own properties count: a task named `toString` must not find
 * `Object.prototype.toString`. Except for `__proto__`: in an object literal,
 * `{ __proto__: f }` sets the prototype to `f` rather than a property, yet
 * TypeScript types it as the `__proto__` task `Mission<"__proto__">` asks
 * for. A prototype that is a function can only have been set on purpose
 * (an ordinary object's is `Object.prototype`), so it is that task.
 */
function taskNamed(tasks: Readonly<Record<string, Task>> | undefined, name: string): Task | undefined {
  if (tasks === undefined) return undefined;
  const task: unknown = Object.hasOwn(tasks, name) ? tasks[name] : name === "__proto__" ? Object.getPrototypeOf(tasks) : undefined;
  return typeof task === "function" ? (task as Task) : undefined;
}

/**
 * Runs the verdict's block. Everything that can be known before the first
 * task is checked first (the tasks exist; for a block that anchors, the
 * receipt's time and the authority), so a failure there runs nothing. An
 * abort stops before the next step; the task in progress gets the signal
 * and is waited for, so when `run` settles no task of it is running.
 */
async function runBlock(spec: MissionSpec, decision: Decision, options: RunOptions, access: AuthorityAccess): Promise<RunResult> {
  const steps = spec.on[decision.verdict];
  const missing = [...new Set(steps.flatMap((step) => ("execute" in step && taskNamed(options.tasks, step.execute) === undefined ? [step.execute] : [])))];
  if (missing.length > 0) throw new MissingTasksError(spec.name, decision.verdict, missing);

  const signal = options.signal ?? new AbortController().signal;
  const executed: string[] = [];
  const receipts: Receipt[] = [];
  const anchors: AnchorProof[] = [];
  const aborted = () => new MissionAbortedError(spec.name, decision.verdict, signal.reason, [...executed], [...receipts], [...anchors]);
  const quorums = steps.flatMap((step) => ("anchor" in step && step.quorum !== undefined ? [step.quorum] : []));
  const quorum = quorums.length === 0 ? undefined : Math.max(...quorums);
  if (steps.some((step) => "anchor" in step)) await assertCanAnchor(spec, decision, { ...access, onAbort: aborted }, quorum);
  const signer = steps.some(signsZtt) ? zttSignerFor(spec, access.get(), options, access.serviceClock.now) : undefined;
  const ztt: ZttBundle[] = [];
  try {
    for (const step of steps) {
      if (signal.aborted) throw aborted();
      if ("execute" in step) {
        try {
          await taskNamed(options.tasks, step.execute)!(decision.ctx, { signal });
        } catch (cause) {
          // A task that gives up because the run was aborted reports the abort, not a failure.
          if (signal.aborted) throw aborted();
          throw new TaskFailedError(spec.name, decision.verdict, step.execute, cause, [...executed], [...receipts], [...anchors]);
        }
        executed.push(step.execute);
      } else {
        try {
          const authority = access.get();
          const receipt = await authority.issueReceipt(receiptRequest(spec, decision, executed));
          receipts.push(receipt);
          // Signed before it is anchored, as the statement reads: a window that closed while the tasks ran anchors nothing more.
          if (signer !== undefined && signsZtt(step)) ztt.push(await zttSign(signer, receipt));
          anchors.push(await authority.anchor(receipt, step.quorum === undefined ? undefined : { quorum: step.quorum, timeoutMs: options.finalityTimeoutMs ?? DEFAULT_FINALITY_TIMEOUT_MS }));
        } catch (cause) {
          // Anchored but not yet FINAL: the provisional proof is still what the run anchored.
          if (cause instanceof FinalityTimeoutError) anchors.push(cause.proof);
          throw new AnchorFailedError(spec.name, decision.verdict, cause, [...executed], [...receipts], [...anchors], signer === undefined ? undefined : [...ztt]);
        }
      }
    }
  } finally {
    // The ephemeral key lives no longer than the run that needed it.
    signer?.close();
  }
  return { ...decision, executed, receipts, anchors, ...(signer === undefined ? {} : { ztt }) };
}
