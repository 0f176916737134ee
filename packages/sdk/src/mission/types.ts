import type { AnchorProof, Authority, PhaseContext, Receipt, Window } from "../core/types.js";
import type { ZttBundle } from "../ztt/signer.js";

/**
 * The shapes compiled missions are made of. `temporalc` generates a
 * `MissionSpec` per mission; `defineMission` turns it into a `Mission`.
 */

export type Verdict = "ALLOW" | "DENY";

export type DenyReason =
  | "PHASE_OUTSIDE_WINDOW"
  | "CARBON_ABOVE_THRESHOLD"
  | "CARBON_UNKNOWN"
  | "CARBON_UNAVAILABLE"
  | "CARBON_INVALID"
  | "CARBON_TIMEOUT"
  | "HS_BLOCH_BELOW_THRESHOLD"
  | "HS_BLOCH_UNKNOWN"
  | "HS_BLOCH_UNAVAILABLE"
  | "HS_BLOCH_INVALID"
  | "HS_BLOCH_TIMEOUT";

/** The measures a mission can require, by their option names. */
export type MeasureName = "carbon" | "hsBloch";

/**
 * Why a measure's provider gave no usable value: it threw or rejected
 * (`UNAVAILABLE`), gave something other than a number in range
 * (`INVALID`), or did not settle in time (`TIMEOUT`).
 */
export type MeasureFailureReason = Extract<DenyReason, `${"CARBON" | "HS_BLOCH"}_${"UNAVAILABLE" | "INVALID" | "TIMEOUT"}`>;

/** A measure that failed, and so denied the mission, as `Decision.measure_failures` reports it. */
export interface MeasureFailure {
  readonly measure: MeasureName;
  readonly reason: MeasureFailureReason;
  /** One line saying what happened, e.g. `the carbon provider failed: grid API down`. */
  readonly message: string;
  /** `UNAVAILABLE`: the provider's error message. */
  readonly error?: string;
  /** `INVALID`: the value given, rendered as text (`NaN`, `"300"`, `-1`), since JSON has no NaN. */
  readonly value?: string;
}

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

/**
 * One statement of an `on` block. An anchor with `quorum` waits until the
 * receipt is `FINAL`: a checkpoint covering it has that many witness
 * cosignatures (docs/witness.md), within the run's `finalityTimeoutMs`.
 * An anchor `signed: "ZTT"` also has its receipt signed by a key certified
 * for the mission's one phase window (docs/ztt.md), before it is anchored.
 */
export type MissionStep = { readonly execute: string } | { readonly anchor: "clockchain"; readonly signed?: "ZTT"; readonly quorum?: number };

export interface MissionMeasures {
  readonly carbon?: number;
  readonly hsBloch?: number;
}

/**
 * Where a mission's windows are read: an SWT zone 0..11 (`@anchor Z<n>`),
 * on the context of that zone; or an IANA time zone name (`@anchor
 * Europe/Paris`), on its local clock, with contexts (and so receipts and
 * tiles) in the SWT zone nearest to its UTC offset at the decision's instant.
 */
export type MissionZone = number | string;

export interface MissionSpec {
  readonly name: string;
  readonly kernel_version: string;
  readonly zone: MissionZone;
  readonly requires: MissionRequirements;
  /** The reasons to deny, in the order of `DenyReason`; empty means ALLOW. */
  check(ctx: PhaseContext, measures: MissionMeasures): DenyReason[];
  readonly on: Readonly<Record<Verdict, readonly MissionStep[]>>;
}

/** A number, or a function giving one (or a promise of one); `undefined` means unknown. */
export type Measure = number | undefined | (() => number | undefined | Promise<number | undefined>);

export interface EvaluateOptions {
  /** Pins time, as `now({ clock })`; wins over the authority's clock. */
  readonly clock?: () => number | Date;
  readonly carbon?: Measure;
  readonly hsBloch?: Measure;
  /**
   * The authority: it issues and anchors receipts, and a remote one
   * (`kind: "remote"`) also tells the time. Defaults to `defaultSdk()`.
   */
  readonly sdk?: Authority;
  /** With a remote authority, read the phase from the local clock instead of the service's. */
  readonly localClock?: boolean;
  /** How long a measure function may take before it counts as failed (`*_TIMEOUT`), ms; default 10 000. */
  readonly measureTimeoutMs?: number;
  /** Aborting it rejects with `MissionAbortedError` (`ABORTED`); see `run`. */
  readonly signal?: AbortSignal;
}

/** What a task is given besides the phase context. */
export interface TaskContext {
  /** The run's signal (never aborted when the run was given none): a task that honours it can stop early when the run is aborted. */
  readonly signal: AbortSignal;
}

export type Task = (ctx: PhaseContext, run: TaskContext) => unknown;

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
export type RunOptionsBase = EvaluateOptions & {
  /**
   * How long an anchor step with a `quorum` waits for its receipt to become
   * `FINAL`, ms; default 30 000. Then the run fails with `ANCHOR_FAILED`
   * (cause `FINALITY_TIMEOUT`), the provisional proof in its `anchors`.
   */
  readonly finalityTimeoutMs?: number;
};

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
  /**
   * For a mission anchored to an IANA time zone: the zone and its local clock
   * at `ctx.unix_ms` as a phase (degrees, 15 an hour), which is what the
   * windows were tested on (`ctx.phase_deg` is the nearest SWT zone's).
   */
  readonly clock?: { readonly time_zone: string; readonly phase_deg: number };
  /** When every phase window is next open, if the phase was a reason. */
  readonly next_open_unix_ms?: number;
  /** Measures whose provider failed (so the verdict is DENY), with what happened; absent when none did. */
  readonly measure_failures?: readonly MeasureFailure[];
}

export interface RunResult extends Decision {
  /** Task names in the order they ran. */
  readonly executed: readonly string[];
  readonly receipts: readonly Receipt[];
  readonly anchors: readonly AnchorProof[];
  /**
   * The ZTT signature bundles of the receipts its `signed: "ZTT"` steps
   * issued, in order; absent when no step signs. Each bundle's
   * `payload_sha256` is its receipt's hash; `verifyZtt` checks it with the
   * authority's public keys alone.
   */
  readonly ztt?: readonly ZttBundle[];
}

/**
 * A compiled mission. `Tasks` is the union of the task names it can execute
 * (in its ALLOW and DENY blocks); the default, `string`, is the loose type
 * that takes any tasks.
 */
export interface Mission<Tasks extends string = string> {
  readonly name: string;
  readonly kernel_version: string;
  readonly zone: MissionZone;
  readonly requires: MissionRequirements;
  readonly on: Readonly<Record<Verdict, readonly MissionStep[]>>;
  /** Decides the verdict without running anything. */
  evaluate(options?: EvaluateOptions): Promise<Decision>;
  /** Decides the verdict, then runs its block: tasks in order, receipts issued and anchored. */
  run(...args: RunArguments<Tasks>): Promise<RunResult>;
}
