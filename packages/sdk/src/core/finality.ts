/**
 * Waiting for finality, shared by every authority (local, memory, remote)
 * and the mission runtime: the default bound and the error a wait that ran
 * out gives, with the proof the anchor has so far.
 */

import { TemporalError, describeValue } from "./errors.js";
import type { AnchorOptions, AnchorProof } from "./types.js";

/** How long an anchor waits to become `FINAL` when asked to wait and given no bound, ms. */
export const DEFAULT_FINALITY_TIMEOUT_MS = 30_000;
/** The longest wait an anchor accepts, ms: an hour. */
export const MAX_FINALITY_TIMEOUT_MS = 3_600_000;

/** What an anchor asked to wait for; `quorum` undefined means the authority's own. */
export interface FinalityWait {
  readonly quorum: number | undefined;
  readonly timeoutMs: number;
}

/** The wait `anchor`'s options ask for, or undefined when they ask for none. Throws `INVALID_ARGUMENT` for a bad value. */
export function finalityWaitOf(options: AnchorOptions | undefined): FinalityWait | undefined {
  if (options === undefined || options === null) return undefined;
  const bad = (problem: string) => new TemporalError("INVALID_ARGUMENT", `anchor options: ${problem}`);
  if (typeof options !== "object") throw bad(`must be an object, got ${describeValue(options)}`);
  const { quorum, timeoutMs } = options;
  if (quorum === undefined && timeoutMs === undefined) return undefined;
  if (quorum !== undefined && (!Number.isSafeInteger(quorum) || quorum < 1)) throw bad(`quorum must be a positive integer, got ${describeValue(quorum)}`);
  if (timeoutMs !== undefined && (!Number.isSafeInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > MAX_FINALITY_TIMEOUT_MS)) {
    throw bad(`timeoutMs must be a whole number of ms in 1..${MAX_FINALITY_TIMEOUT_MS}, got ${describeValue(timeoutMs)}`);
  }
  return { quorum, timeoutMs: timeoutMs ?? DEFAULT_FINALITY_TIMEOUT_MS };
}

/** `FINALITY_TIMEOUT`: the anchor is durable but not yet `FINAL`; `proof` is its provisional proof. */
export class FinalityTimeoutError extends TemporalError {
  readonly proof: AnchorProof;
  constructor(proof: AnchorProof, quorum: number | undefined, timeoutMs: number) {
    const needed = quorum === undefined ? "a quorum of" : String(quorum);
    super(
      "FINALITY_TIMEOUT",
      `receipt ${proof.receipt_hash} is anchored (tile ${proof.tile_id}, leaf ${proof.leaf_index}) but no checkpoint covering it had ${needed} cosignatures within ${timeoutMs} ms; its proof is PROVISIONAL`,
    );
    this.name = "FinalityTimeoutError";
    this.proof = proof;
  }
}
