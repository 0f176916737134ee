import { canonicalJson } from "./canonical-json.js";
import { withoutSignature } from "./fields.js";
import { sha256Hex } from "./sha256.js";
import { VerifyingKey, type PublicKeyInput } from "./verifying-key.js";

/**
 * What receipts and tile heads share: a record signed by one of the
 * authority's keys over the canonical JSON of its other fields.
 */
export interface SignedRecord {
  readonly key_id: string;
  readonly signature: string;
}

/** The bytes a record's signature covers: the canonical JSON of every field but `signature`. */
export function signingPayload<T extends SignedRecord>(record: Omit<T, "signature"> | T): string {
  return canonicalJson("signature" in record ? withoutSignature(record) : record);
}

/** SHA-256 hex of the canonical JSON of the whole record, signature included. */
export function recordHash(record: SignedRecord): string {
  return sha256Hex(canonicalJson(record));
}

/**
 * True when the record is well formed, names the key's id and carries a
 * valid Ed25519 signature by it. Pure (WebCrypto) and asynchronous.
 */
export async function verifySignedRecord<T extends SignedRecord>(record: T, publicKey: PublicKeyInput, isWellFormed: (record: T) => boolean): Promise<boolean> {
  const key = await VerifyingKey.from(publicKey);
  if (!isWellFormed(record) || record.key_id !== key.key_id) return false;
  return key.verify(record.signature, signingPayload(record));
}
