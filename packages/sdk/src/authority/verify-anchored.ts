import { verifyInclusion } from "../core/anchor-proof.js";
import { receiptHash, receiptIssues, verifyReceipt } from "../core/receipt.js";
import type { VerifyResult } from "../core/service-types.js";
import { signedCheckpointHash, verifySignedCheckpoint } from "../core/signed-checkpoint.js";
import type { AnchorProof, Receipt, SignedCheckpoint } from "../core/types.js";
import type { VerifyingKey } from "../core/verifying-key.js";

/**
 * Checks a receipt and its anchor proof against one authority: its key and
 * `headHashAt`, the `checkpointHash` of the checkpoint its clockchain holds
 * at a sequence. Every argument may be arbitrary client JSON: malformed
 * parts make the checks that need them false, and nothing throws on
 * account of them.
 */
export async function verifyAnchored(receipt: Receipt, proof: AnchorProof, key: VerifyingKey, headHashAt: (sequence: number) => Promise<string | undefined>): Promise<VerifyResult> {
  // A well-formed receipt holds only strings and integers, so hashing it cannot throw.
  const wellFormed = receiptIssues(receipt).length === 0;
  const signature = wellFormed && (await verifyReceipt(receipt, key));
  const inclusion = wellFormed && verifyInclusion(proof) && proof.receipt_hash === receiptHash(receipt) && proof.tile_id === receipt.tile_id;
  // verifySignedCheckpoint judges the checkpoint's shape; this only reaches into the proof safely.
  const checkpoint: unknown = typeof proof === "object" && proof !== null ? proof.checkpoint : undefined;
  const chain =
    (await verifySignedCheckpoint(checkpoint as SignedCheckpoint, key)) &&
    isCheckpointOf(proof, checkpoint as SignedCheckpoint) &&
    (await headHashAt((checkpoint as SignedCheckpoint).sequence)) === signedCheckpointHash(checkpoint as SignedCheckpoint);
  return { signature, inclusion, chain, valid: signature && inclusion && chain };
}

/** The proof states the checkpoint's tile, size and root: the checkpoint covers the root the path leads to. */
function isCheckpointOf(proof: AnchorProof, checkpoint: SignedCheckpoint): boolean {
  return proof.tile_id === checkpoint.tile_id && proof.tree_size === checkpoint.tree_size && proof.root_hash === checkpoint.root_hash;
}
