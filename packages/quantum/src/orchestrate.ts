/**
 * `orchestrate()`: the spec's quantum flow. Gate on the phase (and, when
 * carbon-aware, on the carbon forecast), run the scheduling QAOA job, and
 * anchor its result as a TSAE through an authority. Platform-free.
 */

import {
  allow,
  canonicalJson,
  contextAt,
  createTsaeRequest,
  defaultSdk,
  nextOpen,
  sha256Hex,
  type AnchorProof,
  type Authority,
  type CarbonSeries,
  type PhaseContext,
  type Receipt,
  type Window,
  type ZoneInput,
} from "@temporal/agent-sdk";
import { QuantumError } from "./errors.js";
import { resolveBackend, type Backend } from "./backends.js";
import { runQaoa, type QaoaOptions, type QaoaResult } from "./qaoa.js";
import { averageIntensity, decodeSchedule, schedulingQubo, SLOT_MS, type Schedule, type SchedulingProblem, type Slot } from "./scheduling.js";

/** The spec's window for quantum work, degrees of the zone-local phase. */
export const QUANTUM_WINDOW: Window = [200, 280];
/**
 * Carbon-aware runs wait when the intensity of the coming hour is more than
 * this many times that of the cleanest one-hour slot of the horizon: a 1.5x
 * dirtier grid is worth waiting a few hours for, smaller differences are
 * within a forecast's error.
 */
export const CARBON_DELAY_RATIO = 1.5;

export interface OrchestrateOptions extends Pick<QaoaOptions, "depth" | "noise" | "shots" | "seed" | "maxEvaluations"> {
  readonly nTasks: number;
  /** Horizon slots: the next nHS one-hour (15-degree) slots from now. */
  readonly nHS: number;
  /** A backend id (see KNOWN_BACKENDS) or a `Backend` such as remote hardware; default "statevector". Its id goes into the anchored result. */
  readonly backend?: string | Backend;
  readonly zne?: boolean;
  readonly carbonAware?: boolean;
  /** Forecast for carbon-aware runs (parse one with the SDK's `parseCarbonForecast`); required with `carbonAware`. */
  readonly carbon?: CarbonSeries;
  /** The receipt's scope is `quantum.<purpose>.v1`; default "schedule". */
  readonly purpose?: string;
  readonly conflicts?: SchedulingProblem["conflicts"];
  readonly preferences?: SchedulingProblem["preferences"];
  /** Anchors the result; default the SDK's default authority (a home under Node, in memory elsewhere). */
  readonly authority?: Authority;
  /** Pins "now" (tests, simulations); default the authority's clock. */
  readonly clock?: () => number | Date;
  /** SWT zone whose local phase is gated; default Z0. */
  readonly zone?: ZoneInput;
}

/** What was anchored: everything needed to read and re-check the run. Plain JSON. */
export interface QuantumRunResult {
  readonly kind: "temporal-quantum/schedule";
  readonly version: 1;
  readonly purpose: string;
  readonly at_unix_ms: number;
  readonly phase_deg: number;
  readonly swt_zone: number;
  readonly n_tasks: number;
  readonly n_hs: number;
  readonly carbon_aware: boolean;
  readonly slots: readonly Slot[];
  readonly schedule: Schedule;
  readonly qaoa: QaoaResult;
}

export interface DelayVerdict {
  readonly verdict: "DELAY";
  readonly reason: "PHASE_SUBOPTIMAL" | "CARBON_SUBOPTIMAL";
  readonly phase_deg: number;
  readonly window: Window;
  /** The instant worth retrying at: the window's next opening, or the cleanest slot's start. */
  readonly recommended_start_unix_ms: number;
  readonly recommended_start_utc: string;
  /** CARBON_SUBOPTIMAL only: the coming hour's and the cleanest slot's average intensity, gCO2eq/kWh. */
  readonly carbon?: { readonly current: number; readonly best: number; readonly ratio: number };
}

export interface AllowVerdict {
  readonly verdict: "ALLOW";
  readonly result: QuantumRunResult;
  readonly receipt: Receipt;
  readonly proof: AnchorProof;
}

export type OrchestrateVerdict = AllowVerdict | DelayVerdict;

const PURPOSE = /^[a-z0-9_][a-z0-9_-]*$/;

/** Gate, run and anchor; see docs/quantum.md. Bad options throw `QuantumError` before anything runs. */
export async function orchestrate(options: OrchestrateOptions): Promise<OrchestrateVerdict> {
  const purpose = checkOrchestrateOptions(options);
  const backend = resolveBackend(options.backend ?? "statevector", options.noise);
  const authority = options.authority ?? defaultSdk();
  const ctx = options.clock === undefined ? await authority.now({ zone: options.zone }) : contextAt(options.clock(), { zone: options.zone });
  // Encoded before the gates, so that bad options are refused at any hour, not only inside the window.
  const encoded = schedulingQubo({
    nTasks: options.nTasks,
    nHS: options.nHS,
    startMs: ctx.unix_ms,
    startPhaseDeg: ctx.phase_deg,
    conflicts: options.conflicts,
    preferences: options.preferences,
    carbon: options.carbonAware === true ? options.carbon : undefined,
  });
  if (encoded.qubo.size > backend.maxQubits) {
    throw new QuantumError("TOO_LARGE", `nTasks x nHS = ${encoded.qubo.size} qubits, but backend "${backend.id}" runs at most ${backend.maxQubits}: use fewer tasks or slots`);
  }

  if (!allow(ctx, QUANTUM_WINDOW)) return delay(ctx, "PHASE_SUBOPTIMAL", nextOpen(ctx, QUANTUM_WINDOW));
  if (options.carbonAware === true) {
    const gate = carbonGate(options.carbon!, ctx, options.nHS);
    if (gate !== undefined) return { ...delay(ctx, "CARBON_SUBOPTIMAL", gate.start), carbon: gate.carbon };
  }

  const qaoa = await runQaoa(encoded.qubo, {
    depth: options.depth,
    backend,
    noise: options.noise,
    shots: options.shots,
    seed: options.seed,
    zne: options.zne,
    maxEvaluations: options.maxEvaluations,
  });
  // A JSON round trip leaves exactly what a reader of the JSON will hash (no undefined fields, no -0).
  const result = JSON.parse(
    JSON.stringify({
      kind: "temporal-quantum/schedule",
      version: 1,
      purpose,
      at_unix_ms: ctx.unix_ms,
      phase_deg: ctx.phase_deg,
      swt_zone: ctx.swt_zone,
      n_tasks: options.nTasks,
      n_hs: options.nHS,
      carbon_aware: options.carbonAware === true,
      slots: encoded.slots,
      schedule: decodeSchedule(encoded, qaoa.best.bits),
      qaoa,
    }),
  ) as QuantumRunResult;
  const request = createTsaeRequest(ctx, { scope: `quantum.${purpose}.v1`, action_hash_hex: quantumResultHash(result) });
  const receipt = await authority.issueReceipt(request);
  const proof = await authority.anchor(receipt);
  return { verdict: "ALLOW", result, receipt, proof };
}

/** SHA-256 hex of the result's RFC 8785 canonical JSON: the receipt's `action_hash_hex`. */
export function quantumResultHash(result: unknown): string {
  return sha256Hex(canonicalJson(result));
}

function delay(ctx: PhaseContext, reason: DelayVerdict["reason"], startMs: number): DelayVerdict {
  return {
    verdict: "DELAY",
    reason,
    phase_deg: ctx.phase_deg,
    window: QUANTUM_WINDOW,
    recommended_start_unix_ms: startMs,
    recommended_start_utc: new Date(startMs).toISOString(),
  };
}

/**
 * The cleanest slot's start and the intensities, when the coming hour is CARBON_DELAY_RATIO times dirtier than
 * it. Only slots starting inside the phase window count: waiting for one outside would end in PHASE_SUBOPTIMAL.
 */
function carbonGate(series: CarbonSeries, ctx: PhaseContext, nHS: number): { start: number; carbon: NonNullable<DelayVerdict["carbon"]> } | undefined {
  const starts = Array.from({ length: nHS }, (_, s) => ctx.unix_ms + s * SLOT_MS).filter((start) => allow(contextAt(start, { zone: ctx.swt_zone }), QUANTUM_WINDOW));
  const averages = starts.map((start) => averageIntensity(series, start, start + SLOT_MS));
  const current = averages[0]!; // slot 0 starts now, inside the window
  const best = Math.min(...averages);
  if (!(current > CARBON_DELAY_RATIO * best)) return undefined;
  const ratio = best === 0 ? Number.MAX_VALUE : current / best;
  return { start: starts[averages.indexOf(best)]!, carbon: { current, best, ratio } };
}

/** Checks what `orchestrate` reads itself (the scheduling and QAOA options are checked where they are used); returns the purpose. */
function checkOrchestrateOptions(options: OrchestrateOptions): string {
  if (typeof options !== "object" || options === null) throw new QuantumError("INVALID_OPTION", "options must be an object such as { nTasks: 6, nHS: 4 }");
  for (const name of ["zne", "carbonAware"] as const) {
    const value = options[name];
    if (value !== undefined && typeof value !== "boolean") throw new QuantumError("INVALID_OPTION", `${name} must be a boolean, got ${String(value)}`);
  }
  if (options.carbonAware === true && !Array.isArray(options.carbon)) {
    throw new QuantumError("INVALID_OPTION", "carbonAware needs a forecast: pass carbon (the SDK's parseCarbonForecast of a Carbon Aware SDK forecast)");
  }
  if (options.clock !== undefined && typeof options.clock !== "function") throw new QuantumError("INVALID_OPTION", "clock must be a function returning Unix milliseconds or a Date");
  const purpose = options.purpose ?? "schedule";
  if (typeof purpose !== "string" || !PURPOSE.test(purpose) || purpose.length > 64) {
    throw new QuantumError("INVALID_OPTION", `purpose must match [a-z0-9_][a-z0-9_-]* (at most 64 characters; the receipt scope is quantum.<purpose>.v1), got ${String(purpose)}`);
  }
  return purpose;
}
