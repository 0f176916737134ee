import type { FieldIssue } from "./errors.js";
import { HASH_RULE, KEY_ID_RULE, RecordShape, SIGNATURE_RULE, UNIX_MS_RULE, exactly } from "./fields.js";
import type { Challenge } from "./service-types.js";
import { verifySignedRecord } from "./signed-record.js";
import type { PublicKeyInput } from "./verifying-key.js";

export const CHALLENGE_VERSION = 1;

const CHALLENGE_SHAPE = new RecordShape({
  challenge_version: exactly(CHALLENGE_VERSION),
  nonce: HASH_RULE,
  issued_unix_ms: UNIX_MS_RULE,
  expires_unix_ms: UNIX_MS_RULE,
  key_id: KEY_ID_RULE,
  signature: SIGNATURE_RULE,
} satisfies Record<keyof Challenge, unknown>);

/** Every problem with the shape of a challenge (not its signature): missing, invalid or unknown fields, or an expiry not after issuance. */
export function challengeIssues(value: unknown): FieldIssue[] {
  const issues = CHALLENGE_SHAPE.issues(value);
  if (issues.length > 0) return issues;
  const { issued_unix_ms, expires_unix_ms } = value as Challenge;
  if (expires_unix_ms <= issued_unix_ms) {
    issues.push({ field: "expires_unix_ms", value: expires_unix_ms, reason: `is not after issued_unix_ms ${issued_unix_ms}` });
  }
  return issues;
}

/**
 * True when `challenge` is well formed, names the key's id and carries a
 * valid Ed25519 signature by it. Pure (WebCrypto) and asynchronous. Whether
 * it has expired or was already used is for its issuer to judge: that needs
 * the issuer's clock and its record of outstanding nonces.
 */
export function verifyChallenge(challenge: Challenge, publicKey: PublicKeyInput): Promise<boolean> {
  return verifySignedRecord(challenge, publicKey, (c) => challengeIssues(c).length === 0);
}
