import { canonicalJson } from "./canonical-json.js";
import { HASH_RULE, KEY_ID_RULE, RecordShape, SIGNATURE_RULE, UNIX_MS_RULE, exactly, integerIn, withoutSignature } from "./fields.js";
import { sha256Hex } from "./sha256.js";
import type { SignedHead } from "./types.js";
import { MAX_ABS_DAY_INDEX, ZONE_COUNT } from "./units.js";
import { VerifyingKey, type PublicKeyInput } from "./verifying-key.js";

export const HEAD_VERSION = 1;

/** `prev_head_hash` of the first head of a clockchain. */
export const GENESIS_HEAD_HASH = "0".repeat(64);

const HEAD_SHAPE = new RecordShape({
  head_version: exactly(HEAD_VERSION),
  tile_id: integerIn(0, MAX_ABS_DAY_INDEX * ZONE_COUNT - 1),
  tree_size: integerIn(1, Number.MAX_SAFE_INTEGER),
  root_hash: HASH_RULE,
  prev_head_hash: HASH_RULE,
  sequence: integerIn(0, Number.MAX_SAFE_INTEGER),
  issued_unix_ms: UNIX_MS_RULE,
  key_id: KEY_ID_RULE,
  signature: SIGNATURE_RULE,
} satisfies Record<keyof SignedHead, unknown>);

export function isSignedHead(value: unknown): value is SignedHead {
  return HEAD_SHAPE.issues(value).length === 0;
}

export function headSigningPayload(head: Omit<SignedHead, "signature"> | SignedHead): string {
  return canonicalJson("signature" in head ? withoutSignature(head) : head);
}

/** SHA-256 hex of the canonical JSON of the whole head; the next head's `prev_head_hash`. */
export function headHash(head: SignedHead): string {
  return sha256Hex(canonicalJson(head));
}

/** True when `head` is well formed and signed by `publicKey`. Pure (WebCrypto) and asynchronous. */
export async function verifySignedHead(head: SignedHead, publicKey: PublicKeyInput): Promise<boolean> {
  const key = await VerifyingKey.from(publicKey);
  if (!isSignedHead(head) || head.key_id !== key.key_id) return false;
  return key.verify(head.signature, headSigningPayload(head));
}
