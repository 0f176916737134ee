import { HASH_RULE, KEY_ID_RULE, RecordShape, SIGNATURE_RULE, UNIX_MS_RULE, exactly, integerIn } from "./fields.js";
import { recordHash, verifySignedRecord } from "./signed-record.js";
import type { SignedHead } from "./types.js";
import { MAX_ABS_DAY_INDEX, ZONE_COUNT } from "./units.js";
import type { PublicKeyInput } from "./verifying-key.js";

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

/** SHA-256 hex of the canonical JSON of the whole head; the next head's `prev_head_hash`. */
export function headHash(head: SignedHead): string {
  return recordHash(head);
}

/** True when `head` is well formed and signed by `publicKey`. Pure (WebCrypto) and asynchronous. */
export function verifySignedHead(head: SignedHead, publicKey: PublicKeyInput): Promise<boolean> {
  return verifySignedRecord(head, publicKey, isSignedHead);
}
