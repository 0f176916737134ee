import type { AnchorProof, Authority, PhaseContext, Receipt, Window } from "../core/types.js";

/**
 * The shapes compiled missions are made of. `temporalc` generates a
 * `MissionSpec` per mission; `defineMission` turns it into a `Mission`.
 */

export type Verdict = "ALLOW" | "DENY";

export type DenyReason =
  | "PHASE_OUTSIDE_WINDOW"
  | "CARBON_ABOVE_THRESHOLD"
  | "CARBON_UNKNOWN"
  | "HS_BLOCH_BELOW_THRESHOLD"
  | "HS_BLOCH_UNKNOWN";

export interface Threshold<Operator extends string> {
  readonly operator: Operator;
  readonly threshold: number;
}

export interface MissionRequirements {
  /** Every window must hold at once. */
  readonly phase: readonly Window[];
  /** Grid carbon intensity, gCO2eq/kWh. */
  readonly carbon: Threshold<"<" | "<="> | null;
  /** HS-Bloch quality score, 0..1. */
  readonly hs_bloch: Threshold<">=" | ">"> | null;
}

/** One statement of an `on` block. */
export type MissionStep = { readonly execute: string } | { readonly anchor: "clockchain" };

export interface MissionMeasures {
  readonly carbon?: number;
  readonly hsBloch?: number;
}

export interface MissionSpec {
  readonly name: string;
  readonly kernel_version: string;
  /** SWT zone the windows are read in. */
  readonly zone: number;
  readonly requires: MissionRequirements;
  /** The reasons to deny, in the order of `DenyReason`; empty means ALLOW. */
  check(ctx: PhaseContext, measures: MissionMeasures): DenyReason[];
  readonly on: Readonly<Record<Verdict, readonly MissionStep[]>>;
}

/** A number, or a function giving one (or a promise of one); `undefined` means unknown. */
export type Measure = number | undefined | (() => number | undefined | Promise<number | undefined>);

export interface EvaluateOptions {
  /** Pins time, as `now({ clock })`. */
  readonly clock?: () => number | Date;
  readonly carbon?: Measure;
  readonly hsBloch?: Measure;
}

export type Task = (ctx: PhaseContext) => unknown;

/** Exactly one task function for each of `Tasks`. */
export type TaskMap<Tasks extends string> = { readonly [K in Tasks]: Task };

/**
 * The options of `Mission.run`. `RunOptions` (that is, `RunOptions<string>`)
 * takes any tasks by name; with a union of literal names, as in a declaration
 * file `temporalc --dts` writes, `tasks` must name exactly those tasks (an
 * object literal with a missing or unknown name is a type error). With
 * `never`, a mission that executes no task, `tasks` is optional.
 */
export type RunOptions<Tasks extends string = string> = RunOptionsBase &
  (string extends Tasks
    ? { /** The host's task functions by name. */ readonly tasks?: Readonly<Record<string, Task>> }
    : [Tasks] extends [never]
      ? { readonly tasks?: TaskMap<never> }
      : { /** The host's task functions by name: exactly the tasks the mission can execute. */ readonly tasks: TaskMap<Tasks> });

/** The options of `Mission.run` other than `tasks`. */
export interface RunOptionsBase extends EvaluateOptions {
  /** Where receipts are issued and anchored; defaults to `defaultSdk()`. */
  readonly sdk?: Authority;
}

/** `run`'s parameters: the options are required when there are tasks to supply. */
export type RunArguments<Tasks extends string = string> = string extends Tasks
  ? [options?: RunOptions]
  : [Tasks] extends [never]
    ? [options?: RunOptions<never>]
    : [options: RunOptions<Tasks>];

export interface Decision {
  readonly mission: string;
  readonly verdict: Verdict;
  /** The first reason, as in the spec's verdict object; null for ALLOW. */
  readonly reason: DenyReason | null;
  readonly reasons: readonly DenyReason[];
  readonly ctx: PhaseContext;
  /** When every phase window is next open, if the phase was a reason. */
  readonly next_open_unix_ms?: number;
}

export interface RunResult extends Decision {
  /** Task names in the order they ran. */
  readonly executed: readonly string[];
  readonly receipts: readonly Receipt[];
  readonly anchors: readonly AnchorProof[];
}

/**
 * A compiled mission. `Tasks` is the union of the task names it can execute
 * (in its ALLOW and DENY blocks); the default, `string`, is the loose type
 * that takes any tasks.
 */
export interface Mission<Tasks extends string = string> {
  readonly name: string;
  readonly kernel_version: string;
  readonly zone: number;
  readonly requires: MissionRequirements;
  readonly on: Readonly<Record<Verdict, readonly MissionStep[]>>;
  /** Decides the verdict without running anything. */
  evaluate(options?: EvaluateOptions): Promise<Decision>;
  /** Decides the verdict, then runs its block: tasks in order, receipts issued and anchored. */
  run(...args: RunArguments<Tasks>): Promise<RunResult>;
}
