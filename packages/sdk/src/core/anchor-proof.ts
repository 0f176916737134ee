import { isHash, hexToBytes } from "./encoding.js";
import { leafHash, verifyMerklePath } from "./merkle.js";
import { isSignedHead, verifySignedHead } from "./signed-head.js";
import type { AnchorProof } from "./types.js";
import type { PublicKeyInput } from "./verifying-key.js";

/**
 * Pure and synchronous: true when the receipt hash is leaf `leaf_index` of a
 * tree of `tree_size` leaves with root `root_hash` (RFC 9162 inclusion, leaf
 * data = the 32 bytes of the receipt hash) and the signed head states the
 * same tile, size and root. It does not check the head's signature; see
 * `verifyAnchorProof`. Malformed proofs yield false.
 */
export function verifyInclusion(proof: AnchorProof): boolean {
  if (typeof proof !== "object" || proof === null) return false;
  const { receipt_hash, tile_id, leaf_index, tree_size, root_hash, inclusion_proof, signed_head } = proof;
  if (!isHash(receipt_hash) || !isHash(root_hash) || !Array.isArray(inclusion_proof) || !inclusion_proof.every(isHash)) return false;
  if (!isSignedHead(signed_head) || signed_head.tile_id !== tile_id || signed_head.tree_size !== tree_size || signed_head.root_hash !== root_hash) {
    return false;
  }
  return verifyMerklePath(leaf_index, tree_size, leafHash(hexToBytes(receipt_hash)), inclusion_proof.map(hexToBytes), hexToBytes(root_hash));
}

/** `verifyInclusion` plus the signature of the signed head. */
export async function verifyAnchorProof(proof: AnchorProof, publicKey: PublicKeyInput): Promise<boolean> {
  return verifyInclusion(proof) && (await verifySignedHead(proof.signed_head, publicKey));
}
