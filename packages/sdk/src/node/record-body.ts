import type { RecordBody, StoredAnchor } from "../authority/clockchain-state.js";
import { signedCheckpointOf } from "../core/signed-checkpoint.js";
import type { SignedCheckpoint } from "../core/types.js";

export type { RecordBody, StoredAnchor } from "../authority/clockchain-state.js";

/**
 * UTF-8 JSON `{ anchors, checkpoints }`, each checkpoint its signed note
 * (format 2; format 1 had JSON heads under `heads`). It need not be
 * canonical, because replay re-hashes each receipt canonically and the notes
 * are kept byte for byte.
 */
export function encodeRecordBody(body: RecordBody): Buffer {
  return Buffer.from(JSON.stringify({ anchors: body.anchors, checkpoints: body.heads.map((head) => head.note) }), "utf8");
}

/** The body, or undefined when it is not JSON of the expected shape (a format-1 body included). */
export function parseRecordBody(body: Buffer): RecordBody | undefined {
  const value = parseJson(body);
  if (!isObjectWithKeys(value, ["anchors", "checkpoints"])) return undefined;
  const anchors = parseAnchors(value.anchors);
  const heads = parseCheckpoints(value.checkpoints);
  return anchors === undefined || heads === undefined ? undefined : { anchors, heads };
}

/** The JSON value of a record body, or undefined when it is not JSON. */
export function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString("utf8"));
  } catch {
    return undefined;
  }
}

/** The anchors of a record body (the same in every format), or undefined when malformed. */
export function parseAnchors(anchors: unknown): StoredAnchor[] | undefined {
  if (!Array.isArray(anchors)) return undefined;
  const valid = anchors.every(
    (anchor: unknown) =>
      isObjectWithKeys(anchor, ["leaf_index", "receipt", "tile_id"]) &&
      Number.isSafeInteger(anchor.tile_id) &&
      Number.isSafeInteger(anchor.leaf_index) &&
      isObjectWithKeys(anchor.receipt, null) &&
      anchor.receipt.tile_id === anchor.tile_id,
  );
  return valid ? (anchors as StoredAnchor[]) : undefined;
}

function parseCheckpoints(notes: unknown): SignedCheckpoint[] | undefined {
  if (!Array.isArray(notes) || !notes.every((note) => typeof note === "string")) return undefined;
  try {
    return notes.map(signedCheckpointOf);
  } catch {
    return undefined;
  }
}

/** A plain object, with exactly `keys` (sorted) unless `keys` is null. */
export function isObjectWithKeys(value: unknown, keys: readonly string[] | null): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  return keys === null || Object.keys(value).sort().join() === keys.join();
}
