import { verifyCheckpointByAnyKey, verifyInclusion } from "./anchor-proof.js";
import { receiptHash, verifyReceipt } from "./receipt.js";
import type { AnchorProof, PublicKeyJwk, Receipt } from "./types.js";

export type ReceiptCheckName = "receipt_signature" | "inclusion" | "checkpoint_signature";

/** One named check of a receipt and its anchor proof; `reason` says in words why it fails, and is absent when it holds. */
export interface ReceiptCheck {
  readonly name: ReceiptCheckName;
  readonly ok: boolean;
  readonly reason?: string;
}

/**
 * What `temporalc verify` and the playground report for a receipt, its anchor proof, or both, with only the
 * authority's public keys (by key id, as `GET keys` gives them): `receipt_signature` (the key the receipt names
 * signed it), `inclusion` (the proof's leaf is the receipt's hash, under the proof's root and checkpoint) and
 * `checkpoint_signature` (one of the keys signed the checkpoint). `keysLabel` names the keys in reasons
 * ("the keys file"). Never throws on a receipt that cannot be hashed: `inclusion` fails instead.
 */
export async function checkReceiptAndProof(
  receipt: Receipt | undefined,
  proof: AnchorProof | undefined,
  keys: Readonly<Record<string, PublicKeyJwk>>,
  keysLabel: string,
): Promise<ReceiptCheck[]> {
  const checks: ReceiptCheck[] = [];
  if (receipt !== undefined) {
    const jwk = Object.hasOwn(keys, String(receipt.key_id)) ? keys[receipt.key_id] : undefined;
    const signed = jwk !== undefined && (await verifyReceipt(receipt, jwk));
    checks.push(named("receipt_signature", signed, jwk === undefined ? `no key with id ${JSON.stringify(receipt.key_id)} in ${keysLabel}` : "the signature does not match the receipt"));
  }
  if (proof === undefined) return checks;
  const leafIsReceipt = receipt === undefined || (proof.receipt_hash === hashOf(receipt) && proof.tile_id === receipt.tile_id);
  checks.push(
    named(
      "inclusion",
      leafIsReceipt && verifyInclusion(proof),
      leafIsReceipt ? "the leaf is not under the proof's root and checkpoint" : "the proof's receipt_hash or tile_id is not the receipt's",
    ),
  );
  checks.push(named("checkpoint_signature", await verifyCheckpointByAnyKey(proof.checkpoint, Object.values(keys)), `no key in ${keysLabel} signed the proof's checkpoint`));
  return checks;
}

/** The receipt's hash, or undefined for a receipt that cannot be hashed (a lone surrogate in a string). */
function hashOf(receipt: Receipt): string | undefined {
  try {
    return receiptHash(receipt);
  } catch {
    return undefined;
  }
}

function named(name: ReceiptCheckName, ok: boolean, reason: string): ReceiptCheck {
  return ok ? { name, ok } : { name, ok, reason };
}
