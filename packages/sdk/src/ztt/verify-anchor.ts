/**
 * The anchor checks of `verifyZtt`: the receipt that wraps the bundle, its inclusion under a checkpoint the log
 * signed, and the witnessed-time bracket of a cosigned checkpoint (docs/ztt.md, "Anchored bundles").
 */

import { verifyCheckpointByAnyKey, verifyInclusion } from "../core/anchor-proof.js";
import { describeValue } from "../core/errors.js";
import { receiptHash, receiptIssues, verifyReceipt } from "../core/receipt.js";
import type { Receipt } from "../core/types.js";
import { MAX_ABS_UNIX_MS } from "../core/units.js";
import type { VerifyingKey } from "../core/verifying-key.js";
import type { NoteVerifier } from "../core/note-key.js";
import { verifyFinalityBy } from "../core/verify-finality.js";
import { ZTT_RECEIPT_SCOPE, zttBundleHash } from "./anchor.js";
import type { ZttBundle } from "./signer.js";
import { check, guarded, type ZttCheck } from "./checks.js";

/** What the caller trusts for the witnessed time: the witnesses (one verifier per distinct key, `witnessVerifiers`), the quorum k and the clock skew allowed. */
export interface WitnessedTimePolicy {
  readonly witnesses: readonly NoteVerifier[];
  readonly quorum: number;
  readonly skewMs: number;
}

/**
 * The receipt is the log's, for this bundle (its hash), at the bundle's signing context, issued (by the log's clock,
 * which it signed) inside the certificate's window plus `skewMs`, and is the leaf the proof proves. The issue time is
 * what dates the signing without witnesses: a bundle signed for a past opening with a stolen key is anchored late.
 */
export function anchorReceipt(bundle: ZttBundle, keys: readonly VerifyingKey[], skewMs: number): Promise<ZttCheck> {
  return guarded("anchor_receipt", () => receiptOfBundle(bundle, keys, skewMs));
}

async function receiptOfBundle(bundle: ZttBundle, keys: readonly VerifyingKey[], skewMs: number): Promise<ZttCheck> {
  const fail = (reason: string) => check("anchor_receipt", false, reason);
  const anchor: unknown = bundle.anchor;
  if (typeof anchor !== "object" || anchor === null || Array.isArray(anchor) || Object.keys(anchor).sort().join(",") !== "proof,receipt") {
    return fail(`anchor must be an object with exactly receipt and proof, got ${describeValue(anchor)}`);
  }
  const receipt: Partial<Receipt> | undefined = bundle.anchor?.receipt;
  const issues = receiptIssues(receipt);
  if (issues.length > 0) return fail(`malformed receipt: ${issues.map((i) => `${i.field} ${i.reason}`).join("; ")}`);
  const signed = receipt as Receipt;
  const key = keys.find((k) => k.key_id === signed.key_id);
  if (key === undefined) return fail(`no public key with id ${signed.key_id}`);
  if (!(await verifyReceipt(signed, key))) return fail("the authority's signature does not match the receipt");
  if (signed.scope !== ZTT_RECEIPT_SCOPE) return fail(`the receipt's scope is ${signed.scope}, not ${ZTT_RECEIPT_SCOPE}`);
  if (signed.action_hash_hex !== zttBundleHash(bundle)) return fail("the receipt's action_hash_hex is not the bundle's hash");
  const context = bundle.context;
  if (signed.day_index !== context?.day_index || signed.phi_action_ticks !== context?.phi_ticks || signed.swt_zone !== context?.swt_zone) {
    return fail("the receipt's day_index, phi_action_ticks and swt_zone are not the signing context's");
  }
  const start: unknown = bundle.certificate?.start_unix_ms;
  const end: unknown = bundle.certificate?.end_unix_ms;
  if (!isInstant(start) || !isInstant(end)) return fail("the certificate's start/end_unix_ms is not an instant");
  if (signed.issued_unix_ms < start) return fail(`the receipt was issued at ${iso(signed.issued_unix_ms)}, before the window opened at ${iso(start)}`);
  if (signed.issued_unix_ms > end + skewMs) return fail(`the receipt was issued at ${iso(signed.issued_unix_ms)}, after the window closed at ${iso(end)} (skew ${skewMs} ms)`);
  const proof = bundle.anchor?.proof;
  return check(
    "anchor_receipt",
    proof?.receipt_hash === receiptHash(signed) && proof?.tile_id === signed.tile_id,
    "the anchor proof's receipt_hash and tile_id are not the receipt's hash and tile",
  );
}

/** The proof's receipt hash is a leaf of its tile's tree under the proof's checkpoint, which one of the log's keys signed. */
export function anchorInclusion(bundle: ZttBundle, keys: readonly VerifyingKey[]): Promise<ZttCheck> {
  return guarded("anchor_inclusion", async () => {
    const proof = bundle.anchor?.proof;
    if (proof === undefined || !verifyInclusion(proof)) return check("anchor_inclusion", false, "the receipt hash is not the leaf at leaf_index under the proof's root_hash and checkpoint");
    return check("anchor_inclusion", await verifyCheckpointByAnyKey(proof.checkpoint, keys), "no given public key signed the proof's checkpoint");
  });
}

/**
 * The anchor proof is `FINAL` for the caller's witnesses and quorum (`verifyFinality`), and its witnessed time W
 * (POSIX seconds, the k-th smallest valid cosignature timestamp) brackets the signing inside the window, in ms:
 * `start <= t <= W * 1000 + 999 + skew` and `W * 1000 <= end + skew`, where t is the context's `unix_ms`. A
 * cosignature timestamp is truncated to the second, so W stands for [W * 1000, W * 1000 + 999] ms; the skew covers
 * the witnesses' clocks against the signer's and the time from signing to cosigning.
 */
export async function witnessedTime(bundle: ZttBundle, keys: readonly VerifyingKey[], policy: WitnessedTimePolicy): Promise<{ check: ZttCheck; witnessed_unix_s?: number }> {
  const fail = (reason: string) => ({ check: check("witnessed_time", false, reason) });
  const proof = bundle?.anchor?.proof;
  if (proof === undefined) return fail("the bundle carries no anchor; witnessed time needs a FINAL anchor proof");
  const finality = await verifyFinalityBy(proof, keys, policy.witnesses, policy.quorum);
  if (!finality.valid || finality.witnessed_unix_s === null) {
    return fail(`the anchor proof is not FINAL for the given witnesses and quorum ${policy.quorum}: ${finality.checks.flatMap((c) => (c.ok ? [] : [`${c.name}: ${c.detail}`])).join("; ")}`);
  }
  const witnessedS = finality.witnessed_unix_s;
  const start: unknown = bundle.certificate?.start_unix_ms;
  const end: unknown = bundle.certificate?.end_unix_ms;
  const signedMs: unknown = bundle.context?.unix_ms;
  if (!isInstant(start) || !isInstant(end) || !isInstant(signedMs)) return fail("the certificate's start/end_unix_ms or the context's unix_ms is not an instant");
  const witnessedFromMs = witnessedS * 1000;
  const reason =
    signedMs < start
      ? `signed at ${iso(signedMs)}, before the window opened at ${iso(start)}`
      : signedMs > witnessedFromMs + 999 + policy.skewMs
        ? `signed at ${iso(signedMs)}, after the witnessed time ${iso(witnessedFromMs)} (skew ${policy.skewMs} ms)`
        : witnessedFromMs > end + policy.skewMs
          ? `witnessed at ${iso(witnessedFromMs)}, after the window closed at ${iso(end)} (skew ${policy.skewMs} ms)`
          : undefined;
  return { check: check("witnessed_time", reason === undefined, reason ?? ""), witnessed_unix_s: witnessedS };
}

/** A witness may sign a timestamp far past what `Date` renders (up to 2^53 - 1 s): such a time is shown as a number. */
function iso(ms: number): string {
  return isInstant(ms) ? new Date(ms).toISOString() : `${String(ms)} ms`;
}

/** An integer millisecond count that `Date` can render. */
function isInstant(value: unknown): value is number {
  return Number.isSafeInteger(value) && Math.abs(value as number) <= MAX_ABS_UNIX_MS;
}
