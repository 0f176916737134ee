import type { RecordBody, StoredAnchor } from "../authority/clockchain-state.js";
import { isSignedHead } from "../core/signed-head.js";
import type { SignedHead } from "../core/types.js";

export type { RecordBody, StoredAnchor } from "../authority/clockchain-state.js";

/** UTF-8 JSON; it need not be canonical, because replay re-hashes each receipt canonically. */
export function encodeRecordBody(body: RecordBody): Buffer {
  return Buffer.from(JSON.stringify(body), "utf8");
}

/** The body, or undefined when it is not JSON of the expected shape. */
export function parseRecordBody(body: Buffer): RecordBody | undefined {
  let value: unknown;
  try {
    value = JSON.parse(body.toString("utf8"));
  } catch {
    return undefined;
  }
  if (!isObjectWithKeys(value, ["anchors", "heads"])) return undefined;
  const { anchors, heads } = value as Record<string, unknown>;
  if (!Array.isArray(anchors) || !Array.isArray(heads) || !heads.every(isSignedHead)) return undefined;
  const valid = anchors.every(
    (anchor: unknown) =>
      isObjectWithKeys(anchor, ["leaf_index", "receipt", "tile_id"]) &&
      Number.isSafeInteger(anchor.tile_id) &&
      Number.isSafeInteger(anchor.leaf_index) &&
      isObjectWithKeys(anchor.receipt, null) &&
      anchor.receipt.tile_id === anchor.tile_id,
  );
  return valid ? { anchors: anchors as StoredAnchor[], heads: heads as SignedHead[] } : undefined;
}

/** A plain object, with exactly `keys` (sorted) unless `keys` is null. */
function isObjectWithKeys(value: unknown, keys: readonly string[] | null): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  return keys === null || Object.keys(value).sort().join() === keys.join();
}
