import { canonicalJson } from "../core/canonical-json.js";
import { describeValue, TemporalTypeError } from "../core/errors.js";
import { contextAt, now } from "../core/phase.js";
import { sha256Hex } from "../core/sha256.js";
import { createTsaeRequest } from "../core/tsae.js";
import type { AnchorProof, Authority, PhaseContext, Receipt, Window } from "../core/types.js";
import { nextOpen } from "../core/window.js";
import { defaultSdk } from "#default-sdk";
import { AnchorFailedError, MissingTasksError, TaskFailedError } from "./errors.js";
import type { Decision, EvaluateOptions, Measure, Mission, MissionSpec, RunOptions, RunResult, Task } from "./types.js";

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
  const evaluate = (options: EvaluateOptions = {}) => decide(spec, options);
  const run = async (options: RunOptions = {}) => {
    assertOptions(options);
    return runBlock(spec, await decide(spec, options), options);
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

async function decide(spec: MissionSpec, options: EvaluateOptions): Promise<Decision> {
  if (options === null || typeof options !== "object") {
    throw new TemporalTypeError("INVALID_MISSION_OPTIONS", `options must be an object, got ${describeValue(options)}`);
  }
  const ctx = await now({ zone: spec.zone, ...(options.clock === undefined ? {} : { clock: options.clock }) });
  const carbon = spec.requires.carbon === null ? undefined : await readMeasure(options.carbon, CARBON);
  const hsBloch = spec.requires.hs_bloch === null ? undefined : await readMeasure(options.hsBloch, HS_BLOCH);
  const reasons = spec.check(ctx, { carbon, hsBloch });
  const decision: Decision = {
    mission: spec.name,
    verdict: reasons.length === 0 ? "ALLOW" : "DENY",
    reason: reasons[0] ?? null,
    reasons,
    ctx,
  };
  if (!reasons.includes("PHASE_OUTSIDE_WINDOW")) return decision;
  const next = nextOpenAll(ctx, spec.requires.phase);
  return next === undefined ? decision : { ...decision, next_open_unix_ms: next };
}

interface MeasureKind {
  name: string;
  min: number;
  max: number;
  unit: string;
}

const CARBON: MeasureKind = { name: "carbon", min: 0, max: Number.POSITIVE_INFINITY, unit: "gCO2eq/kWh, 0 or more" };
const HS_BLOCH: MeasureKind = { name: "hsBloch", min: 0, max: 1, unit: "a score from 0 to 1" };

/**
 * A measure's current value. Impossible values are rejected rather than
 * compared: a negative intensity, or an HS-Bloch score of 92 (a percentage
 * by mistake), would otherwise let a mission through.
 */
async function readMeasure(measure: Measure, kind: MeasureKind): Promise<number | undefined> {
  const value = typeof measure === "function" ? await measure() : await measure;
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isFinite(value) || value < kind.min || value > kind.max) {
    throw new TemporalTypeError("INVALID_MEASURE", `${kind.name} must be ${kind.unit} (or undefined when unknown), got ${describeValue(value)}`);
  }
  return value;
}

/**
 * The first instant >= ctx at which every window is open. Jumping to the
 * latest of the windows' own next openings never passes a common opening,
 * so this converges within a few rounds when one exists.
 */
function nextOpenAll(ctx: PhaseContext, windows: readonly Window[]): number | undefined {
  let at = ctx.unix_ms;
  for (let round = 0; round <= 4 * windows.length + 4; round++) {
    const here = contextAt(at, { zone: ctx.swt_zone });
    const latest = Math.max(...windows.map((window) => nextOpen(here, window)));
    if (latest === at) return at;
    at = latest;
  }
  return undefined;
}

function assertOptions(options: RunOptions): void {
  if (options === null || typeof options !== "object") {
    throw new TemporalTypeError("INVALID_MISSION_OPTIONS", `options must be an object, got ${describeValue(options)}`);
  }
  const { tasks, sdk } = options;
  if (tasks !== undefined && (tasks === null || typeof tasks !== "object")) {
    throw new TemporalTypeError("INVALID_MISSION_OPTIONS", `options.tasks must be an object of task functions, got ${describeValue(tasks)}`);
  }
  if (sdk !== undefined && (sdk === null || typeof sdk.issueReceipt !== "function" || typeof sdk.anchor !== "function")) {
    throw new TemporalTypeError("INVALID_MISSION_OPTIONS", `options.sdk must be an authority with issueReceipt() and anchor(), got ${describeValue(sdk)}`);
  }
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

async function runBlock(spec: MissionSpec, decision: Decision, options: RunOptions): Promise<RunResult> {
  const steps = spec.on[decision.verdict];
  const missing = [...new Set(steps.flatMap((step) => ("execute" in step && taskNamed(options.tasks, step.execute) === undefined ? [step.execute] : [])))];
  if (missing.length > 0) throw new MissingTasksError(spec.name, decision.verdict, missing);

  const executed: string[] = [];
  const receipts: Receipt[] = [];
  const anchors: AnchorProof[] = [];
  let authority: Authority | undefined = options.sdk;
  for (const step of steps) {
    if ("execute" in step) {
      try {
        await taskNamed(options.tasks, step.execute)!(decision.ctx);
      } catch (cause) {
        throw new TaskFailedError(spec.name, decision.verdict, step.execute, cause, [...executed], [...receipts], [...anchors]);
      }
      executed.push(step.execute);
    } else {
      try {
        authority ??= defaultSdk();
        const receipt = await authority.issueReceipt(receiptRequest(spec, decision, executed));
        receipts.push(receipt);
        anchors.push(await authority.anchor(receipt));
      } catch (cause) {
        throw new AnchorFailedError(spec.name, decision.verdict, cause, [...executed], [...receipts], [...anchors]);
      }
    }
  }
  return { ...decision, executed, receipts, anchors };
}

function receiptRequest(spec: MissionSpec, decision: Decision, executed: readonly string[]) {
  const { ctx } = decision;
  const action = {
    mission: spec.name,
    verdict: decision.verdict,
    reasons: decision.reasons,
    executed,
    day_index: ctx.day_index,
    phi_ticks: ctx.phi_ticks,
    swt_zone: ctx.swt_zone,
  };
  return createTsaeRequest(ctx, {
    scope: `missions.${spec.name.toLowerCase()}.v1`,
    action_hash_hex: sha256Hex(canonicalJson(action)),
  });
}
