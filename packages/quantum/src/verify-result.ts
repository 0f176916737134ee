/**
 * End-to-end check of an anchored quantum result with the authority's public
 * key only: no ledger, no network. Platform-free.
 */

import { receiptHash, verifyAnchorProof, verifyReceipt, type AnchorProof, type PublicKeyInput, type Receipt } from "@temporal/agent-sdk";
import { quantumResultHash } from "./orchestrate.js";

export interface QuantumVerification {
  /** The result's canonical-JSON SHA-256 is the receipt's `action_hash_hex`, and the scope is `quantum.<purpose>.v1` of the result's purpose. */
  readonly hash: boolean;
  /** The receipt's Ed25519 signature holds under the key. */
  readonly signature: boolean;
  /** The proof includes this receipt in a tile tree whose checkpoint the key signed. */
  readonly inclusion: boolean;
  readonly valid: boolean;
}

/**
 * Which links hold from the result to the signed checkpoint. Arbitrary JSON
 * may be passed (it is what a client sends): malformed parts make the checks
 * that need them false and nothing throws on their account. That the
 * checkpoint belongs to the authority's head chain needs its ledger: the
 * service's `POST quantum/verify` checks that too.
 */
export async function verifyQuantumResult(result: unknown, receipt: Receipt, proof: AnchorProof, key: PublicKeyInput): Promise<QuantumVerification> {
  const hash = resultMatches(result, receipt);
  const signature = await verifyReceipt(receipt, key).catch(() => false);
  const inclusion = (await verifyAnchorProof(proof, key).catch(() => false)) && proofIsOf(proof, receipt);
  return { hash, signature, inclusion, valid: hash && signature && inclusion };
}

function resultMatches(result: unknown, receipt: Receipt): boolean {
  if (typeof receipt !== "object" || receipt === null || typeof result !== "object" || result === null) return false;
  const purpose = (result as { purpose?: unknown }).purpose;
  if (typeof purpose !== "string" || receipt.scope !== `quantum.${purpose}.v1`) return false;
  try {
    return quantumResultHash(result) === receipt.action_hash_hex;
  } catch {
    return false; // not canonicalisable JSON, so not what was hashed
  }
}

function proofIsOf(proof: AnchorProof, receipt: Receipt): boolean {
  try {
    return proof.receipt_hash === receiptHash(receipt) && proof.tile_id === receipt.tile_id;
  } catch {
    return false;
  }
}
