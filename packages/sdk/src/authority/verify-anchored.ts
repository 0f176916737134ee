import { verifyInclusion } from "../core/anchor-proof.js";
import { receiptHash, receiptIssues, verifyReceipt } from "../core/receipt.js";
import type { VerifyResult } from "../core/service-types.js";
import { headHash, verifySignedHead } from "../core/signed-head.js";
import type { AnchorProof, Receipt, SignedHead } from "../core/types.js";
import type { VerifyingKey } from "../core/verifying-key.js";

/**
 * Checks a receipt and its anchor proof against one authority: its key and
 * `headHashAt`, the hash of the head its clockchain holds at a sequence.
 * Every argument may be arbitrary client JSON: malformed parts make the
 * checks that need them false, and nothing throws on account of them.
 */
export async function verifyAnchored(
  receipt: Receipt,
  proof: AnchorProof,
  key: VerifyingKey,
  headHashAt: (sequence: number) => Promise<string | undefined>,
): Promise<VerifyResult> {
  // A well-formed receipt holds only strings and integers, so hashing it cannot throw.
  const wellFormed = receiptIssues(receipt).length === 0;
  const signature = wellFormed && (await verifyReceipt(receipt, key));
  const inclusion =
    wellFormed && verifyInclusion(proof) && proof.receipt_hash === receiptHash(receipt) && proof.tile_id === receipt.tile_id;
  // verifySignedHead judges the head's shape; this only reaches into the proof safely.
  const head: unknown = typeof proof === "object" && proof !== null ? proof.signed_head : undefined;
  const chain =
    (await verifySignedHead(head as SignedHead, key)) &&
    isHeadOf(proof, head as SignedHead) &&
    (await headHashAt((head as SignedHead).sequence)) === headHash(head as SignedHead);
  return { signature, inclusion, chain, valid: signature && inclusion && chain };
}

/** The proof states the head's tile, size and root: the head covers the root the path leads to. */
function isHeadOf(proof: AnchorProof, head: SignedHead): boolean {
  return proof.tile_id === head.tile_id && proof.tree_size === head.tree_size && proof.root_hash === head.root_hash;
}
