/** Shared by the ZTT anchoring tests: a window open right now, and a FINAL proof cosigned at chosen times by test witnesses. */

import { contextAt, createCosigner, formatSignatureLine, type Cosigner, type CosignedCheckpoint, type Window } from "../src/index.js";
import type { AnchoredZttBundle, ZttCheckName, ZttVerification } from "../src/ztt/index.js";
import { testKey } from "./note-helpers.js";

/** A window of zone `zone` open at `unixMs` with at least 4 minutes (one degree) on either side. */
export function windowAround(unixMs: number, zone: number): Window {
  const phase = Math.floor(contextAt(unixMs, { zone }).phase_deg);
  return [(phase + 359) % 360, (phase + 2) % 360];
}

export function testCosigner(name: string): Cosigner {
  const key = testKey();
  return createCosigner(name, key.publicKey, key.sign);
}

/**
 * The bundle with its (PROVISIONAL, witness-less) anchor proof made FINAL: the proof's own checkpoint cosigned by
 * `cosigners` at `times` (POSIX seconds), as an authority with those witnesses would attach it.
 */
export async function cosignedAt(bundle: AnchoredZttBundle, cosigners: readonly Cosigner[], times: readonly number[]): Promise<AnchoredZttBundle> {
  const head = bundle.anchor.proof.checkpoint;
  const text = head.note.slice(0, head.note.indexOf("\n\n") + 1);
  const lines = await Promise.all(cosigners.map((cosigner, i) => cosigner.cosign(text, times[i] as number)));
  const checkpoint: CosignedCheckpoint = {
    ...head,
    note: head.note + lines.map(formatSignatureLine).join(""),
    cosignatures: cosigners.map((cosigner, i) => ({ witness: cosigner.name, timestamp: times[i] as number })),
  };
  const sorted = [...times].sort((a, b) => a - b);
  const witnessed = { checkpoint, consistency_proof: [], quorum: cosigners.length, witnessed_unix_s: sorted[sorted.length - 1] as number };
  return { ...bundle, anchor: { ...bundle.anchor, proof: { ...bundle.anchor.proof, finality: "FINAL", witnessed } } };
}

/** The checks every bundle gets, in their order. */
export const WINDOW_CHECKS: readonly ZttCheckName[] = ["certificate_signature", "certificate_interval", "ephemeral_signature", "signing_context"];

/** `[name, ok]` of each check, to compare with `passing(...)`. */
export const outcome = (result: ZttVerification): [ZttCheckName, boolean][] => result.checks.map((c) => [c.name, c.ok]);
export const passing = (...names: readonly ZttCheckName[]): [ZttCheckName, boolean][] => names.map((name) => [name, true]);
