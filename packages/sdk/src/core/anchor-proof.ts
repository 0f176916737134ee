import { isHash, hexToBytes } from "./encoding.js";
import { leafHash, verifyMerklePath } from "./merkle.js";
import { isSignedCheckpoint, verifySignedCheckpoint } from "./signed-checkpoint.js";
import type { KeySet } from "./service-types.js";
import type { AnchorProof, SignedCheckpoint } from "./types.js";
import type { PublicKeyInput } from "./verifying-key.js";

/** A log key as `verifySignedCheckpoint` takes it: the authority's public key (JWK, raw, `VerifyingKey`) or its authority vkey. */
export type LogKeyInput = PublicKeyInput | string;

/** The log keys a verifier trusts: one key, a list (after a rotation, the current and the retired ones still trusted), or the `GET keys` reply. */
export type LogKeySetInput = LogKeyInput | readonly LogKeyInput[] | KeySet;

/**
 * Pure and synchronous: true when the receipt hash is leaf `leaf_index` of a
 * tree of `tree_size` leaves with root `root_hash` (RFC 9162 inclusion, leaf
 * data = the 32 bytes of the receipt hash) and the signed checkpoint's note
 * states the same tile, size and root. It does not check the checkpoint's
 * signature; see `verifyAnchorProof`. Malformed proofs yield false.
 */
export function verifyInclusion(proof: AnchorProof): boolean {
  if (typeof proof !== "object" || proof === null) return false;
  const { receipt_hash, tile_id, leaf_index, tree_size, root_hash, inclusion_proof, checkpoint } = proof;
  if (!isHash(receipt_hash) || !isHash(root_hash) || !Array.isArray(inclusion_proof) || !inclusion_proof.every(isHash)) return false;
  if (!isSignedCheckpoint(checkpoint) || checkpoint.tile_id !== tile_id || checkpoint.tree_size !== tree_size || checkpoint.root_hash !== root_hash) {
    return false;
  }
  return verifyMerklePath(leaf_index, tree_size, leafHash(hexToBytes(receipt_hash)), inclusion_proof.map(hexToBytes), hexToBytes(root_hash));
}

/**
 * `verifyInclusion` plus the checkpoint's signature, with the authority's
 * public key (JWK, raw bytes, `VerifyingKey`), its authority vkey, or the
 * whole `GET keys` reply: after a key rotation the checkpoint may be signed
 * by the current key or a retired one, and its signature line names which.
 */
export async function verifyAnchorProof(proof: AnchorProof, key: PublicKeyInput | string | KeySet): Promise<boolean> {
  return verifyInclusion(proof) && (await verifyCheckpointByAnyKey(proof.checkpoint, key));
}

/**
 * True when one of `keys` signed the checkpoint under its origin (`verifySignedCheckpoint` with each in turn): the one
 * check of a checkpoint against a key set, for proofs, finality, ZTT anchors and `temporalc verify`. Pure (WebCrypto);
 * never throws for bad input.
 */
export async function verifyCheckpointByAnyKey(checkpoint: SignedCheckpoint, keys: LogKeySetInput): Promise<boolean> {
  // A key whose key ID the signature line does not carry is passed over before any signature check.
  for (const key of logKeyList(keys)) if (await verifySignedCheckpoint(checkpoint, key)) return true;
  return false;
}

function logKeyList(keys: LogKeySetInput): readonly LogKeyInput[] {
  if (Array.isArray(keys)) return keys as readonly LogKeyInput[];
  return isKeySet(keys) ? Object.values(keys.keys) : [keys as LogKeyInput];
}

/** True for a `GET keys` reply rather than one key (internal: `verifyFinality` takes the same inputs). */
export function isKeySet(key: unknown): key is KeySet {
  return typeof key === "object" && key !== null && !(key instanceof Uint8Array) && "keys" in key && typeof key.keys === "object" && key.keys !== null;
}
