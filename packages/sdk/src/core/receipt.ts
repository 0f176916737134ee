import { canonicalJson } from "./canonical-json.js";
import type { FieldIssue } from "./errors.js";
import { KEY_ID_RULE, RecordShape, SIGNATURE_RULE, UNIX_MS_RULE, exactly, withoutSignature } from "./fields.js";
import { sha256Hex } from "./sha256.js";
import { REQUEST_RULES, requestIssues } from "./tsae.js";
import type { Receipt } from "./types.js";
import { VerifyingKey, type PublicKeyInput } from "./verifying-key.js";

export const RECEIPT_VERSION = 1;

const RECEIPT_SHAPE = new RecordShape({
  ...REQUEST_RULES,
  receipt_version: exactly(RECEIPT_VERSION),
  issued_unix_ms: UNIX_MS_RULE,
  key_id: KEY_ID_RULE,
  signature: SIGNATURE_RULE,
} satisfies Record<keyof Receipt, unknown>);

/** Every problem with the shape of a receipt (not its signature). */
export function receiptIssues(value: unknown): FieldIssue[] {
  return requestIssues(value, RECEIPT_SHAPE);
}

/** The bytes the receipt signature covers: the canonical JSON of every field but `signature`. */
export function receiptSigningPayload(receipt: Omit<Receipt, "signature"> | Receipt): string {
  return canonicalJson("signature" in receipt ? withoutSignature(receipt) : receipt);
}

/** The receipt hash: SHA-256 hex of the canonical JSON of the whole receipt, signature included. */
export function receiptHash(receipt: Receipt): string {
  return sha256Hex(canonicalJson(receipt));
}

/**
 * True when `receipt` is well formed, names the key's id and carries a valid
 * Ed25519 signature by it. Pure (WebCrypto) and asynchronous.
 */
export async function verifyReceipt(receipt: Receipt, publicKey: PublicKeyInput): Promise<boolean> {
  const key = await VerifyingKey.from(publicKey);
  if (receiptIssues(receipt).length > 0 || receipt.key_id !== key.key_id) return false;
  return key.verify(receipt.signature, receiptSigningPayload(receipt));
}
