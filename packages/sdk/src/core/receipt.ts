import type { FieldIssue } from "./errors.js";
import { HASH_RULE, KEY_ID_RULE, RecordShape, SIGNATURE_RULE, UNIX_MS_RULE, exactly } from "./fields.js";
import { recordHash, verifySignedRecord } from "./signed-record.js";
import { REQUEST_RULES, requestIssues } from "./tsae.js";
import type { Receipt } from "./types.js";
import type { PublicKeyInput } from "./verifying-key.js";

export const RECEIPT_VERSION = 1;

const RECEIPT_SHAPE = new RecordShape(
  {
    ...REQUEST_RULES,
    receipt_version: exactly(RECEIPT_VERSION),
    issued_unix_ms: UNIX_MS_RULE,
    key_id: KEY_ID_RULE,
    // Only in receipts issued against a challenge; receipts without it keep their original ten fields and signatures.
    challenge_nonce: HASH_RULE,
    signature: SIGNATURE_RULE,
  } satisfies Record<keyof Receipt, unknown>,
  ["challenge_nonce"],
);

/** Every problem with the shape of a receipt (not its signature). */
export function receiptIssues(value: unknown): FieldIssue[] {
  return requestIssues(value, RECEIPT_SHAPE);
}

/** The receipt hash: SHA-256 hex of the canonical JSON of the whole receipt, signature included. */
export function receiptHash(receipt: Receipt): string {
  return recordHash(receipt);
}

/**
 * True when `receipt` is well formed, names the key's id and carries a valid
 * Ed25519 signature by it. Pure (WebCrypto) and asynchronous.
 */
export function verifyReceipt(receipt: Receipt, publicKey: PublicKeyInput): Promise<boolean> {
  return verifySignedRecord(receipt, publicKey, (r) => receiptIssues(r).length === 0);
}
