/**
 * Thrown while reading derived state (leaf hashes, the receipt index, ...
 * kept on disk beside the records) that fails its checks: a block's
 * checksum, or a proof that does not verify against the signed root. A
 * store never answers from such state: it catches this, forgets the
 * derived state and rebuilds it from its records. Internal to stores.
 */
export class DerivedStateDamaged extends Error {
  override readonly name = "DerivedStateDamaged";
}
