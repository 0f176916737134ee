import { verifyInclusion } from "../core/anchor-proof.js";
import { receiptHash, receiptIssues, verifyReceipt } from "../core/receipt.js";
import type { VerifyResult } from "../core/service-types.js";
import { signedCheckpointHash, verifySignedCheckpoint } from "../core/signed-checkpoint.js";
import type { AnchorProof, Receipt, SignedCheckpoint } from "../core/types.js";
import type { LogKeys } from "./log-keys.js";

/**
 * Checks a receipt and its anchor proof against one authority: its keys
 * (the current one and those it rotated from: a receipt and a checkpoint are
 * each checked with the key that signed them, named by the receipt's
 * `key_id` and the note's signature line) and `headHashAt`, the
 * `checkpointHash` of the checkpoint its clockchain holds at a sequence.
 * Every argument may be arbitrary client JSON: malformed parts make the
 * checks that need them false, and nothing throws on account of them.
 */
export async function verifyAnchored(receipt: Receipt, proof: AnchorProof, keys: LogKeys, headHashAt: (sequence: number) => Promise<string | undefined>): Promise<VerifyResult> {
  // A well-formed receipt holds only strings and integers, so hashing it cannot throw.
  const wellFormed = receiptIssues(receipt).length === 0;
  const receiptKey = wellFormed ? keys.byId(receipt.key_id) : undefined;
  const signature = receiptKey !== undefined && (await verifyReceipt(receipt, receiptKey));
  const inclusion = wellFormed && verifyInclusion(proof) && proof.receipt_hash === receiptHash(receipt) && proof.tile_id === receipt.tile_id;
  // verifySignedCheckpoint judges the checkpoint's shape; this only reaches into the proof safely.
  const checkpoint: unknown = typeof proof === "object" && proof !== null ? proof.checkpoint : undefined;
  const chain =
    (await signedByOneOf(checkpoint as SignedCheckpoint, keys)) &&
    isCheckpointOf(proof, checkpoint as SignedCheckpoint) &&
    (await headHashAt((checkpoint as SignedCheckpoint).sequence)) === signedCheckpointHash(checkpoint as SignedCheckpoint);
  return { signature, inclusion, chain, valid: signature && inclusion && chain };
}

/** A key whose signature line the note does not carry is rejected before any signature check, so trying each costs a hash. */
async function signedByOneOf(checkpoint: SignedCheckpoint, keys: LogKeys): Promise<boolean> {
  for (const key of keys.all) if (await verifySignedCheckpoint(checkpoint, key)) return true;
  return false;
}

/** The proof states the checkpoint's tile, size and root: the checkpoint covers the root the path leads to. */
function isCheckpointOf(proof: AnchorProof, checkpoint: SignedCheckpoint): boolean {
  return proof.tile_id === checkpoint.tile_id && proof.tree_size === checkpoint.tree_size && proof.root_hash === checkpoint.root_hash;
}
