/** Shared by the ZTT anchoring tests: a window open right now, and a FINAL proof cosigned at chosen times by test witnesses. */

import { contextAt, type Cosigner, type Window } from "../src/index.js";
import type { AnchoredZttBundle, ZttCheckName, ZttVerification } from "../src/ztt/index.js";
import { cosignCheckpoint } from "./note-helpers.js";

/** A window of zone `zone` open at `unixMs` with at least 4 minutes (one degree) on either side. */
export function windowAround(unixMs: number, zone: number): Window {
  const phase = Math.floor(contextAt(unixMs, { zone }).phase_deg);
  return [(phase + 359) % 360, (phase + 2) % 360];
}

/**
 * The bundle with its (PROVISIONAL, witness-less) anchor proof made FINAL: the proof's own checkpoint cosigned by
 * `cosigners` at `times` (POSIX seconds), as an authority with those witnesses would attach it.
 */
export async function cosignedAt(bundle: AnchoredZttBundle, cosigners: readonly Cosigner[], times: readonly number[]): Promise<AnchoredZttBundle> {
  const checkpoint = await cosignCheckpoint(bundle.anchor.proof.checkpoint, cosigners, times);
  const sorted = [...times].sort((a, b) => a - b);
  const witnessed = { checkpoint, consistency_proof: [], quorum: cosigners.length, witnessed_unix_s: sorted[sorted.length - 1] as number };
  return { ...bundle, anchor: { ...bundle.anchor, proof: { ...bundle.anchor.proof, finality: "FINAL", witnessed } } };
}

/** The checks every bundle gets, in their order. */
export const WINDOW_CHECKS: readonly ZttCheckName[] = ["certificate_signature", "certificate_interval", "ephemeral_signature", "signing_context"];

/** `[name, ok]` of each check, to compare with `passing(...)`. */
export const outcome = (result: ZttVerification): [ZttCheckName, boolean][] => result.checks.map((c) => [c.name, c.ok]);
export const passing = (...names: readonly ZttCheckName[]): [ZttCheckName, boolean][] => names.map((name) => [name, true]);
