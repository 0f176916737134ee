import { hexToBytes, isHash } from "./encoding.js";
import { verifyConsistency } from "./merkle.js";
import type { ConsistencyProof } from "./service-types.js";

/**
 * Pure and synchronous: true when `proof.proof` shows that the tile's tree of
 * `first` leaves (root `first_root`) is a prefix of its tree of `second`
 * leaves (root `second_root`), RFC 9162 section 2.1.4.2. Equal sizes need an
 * empty proof and equal roots. Malformed input yields false.
 *
 * What it proves is that the two roots are consistent. The sizes are bound
 * only as far as the path's shape: as with inclusion proofs, RFC 9162
 * verification cannot tell apart size pairs whose paths are hashed the same
 * way. So take each size together with its root from a signed head you
 * trust (for example one kept from an earlier anchor proof, and the latest).
 */
export function verifyConsistencyProof(proof: ConsistencyProof): boolean {
  if (typeof proof !== "object" || proof === null) return false;
  const { tile_id, first, second, first_root, second_root, proof: path } = proof;
  if (!Number.isSafeInteger(tile_id) || tile_id < 0) return false;
  if (!isHash(first_root) || !isHash(second_root) || !Array.isArray(path) || !path.every(isHash)) return false;
  return verifyConsistency(first, second, hexToBytes(first_root), hexToBytes(second_root), path.map(hexToBytes));
}
