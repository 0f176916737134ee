/**
 * A clockchain tile head as a C2SP checkpoint: the tile's origin, tree size
 * and root, then two extension lines that chain it to the head signed
 * before it, across tiles:
 *
 *     temporal-chain <sequence> <base64 SHA-256 of the previous checkpoint body>
 *     temporal-issued <unix ms>
 *
 * The chain hashes checkpoint bodies only, never signature lines, so
 * witnesses' cosignatures can be added to a checkpoint later without
 * changing any hash. docs/checkpoints.md explains the choice.
 */

import { TemporalError, describeValue } from "./errors.js";
import { base64ToBytes, bytesToBase64, bytesToHex, hexToBytes, isHash } from "./encoding.js";
import { formatCheckpoint, openCheckpoint, parseCheckpoint, type VerifiedCheckpoint } from "./checkpoint.js";
import { parseNote } from "./signed-note.js";
import { sha256Hex } from "./sha256.js";
import { noteVerifier } from "./note-key.js";
import { parseTileOrigin, tileVerifierKey } from "./tile-origin.js";
import { MAX_ABS_UNIX_MS } from "./units.js";

/** `prev_checkpoint_hash` of the first checkpoint of a clockchain. */
export const GENESIS_CHECKPOINT_HASH = "0".repeat(64);

/** What the ledger keeps of a tile head, in the SDK's usual shapes (hex hashes, Unix milliseconds). */
export interface TileCheckpoint {
  /** `tileOrigin(authority name, tile id)`. */
  readonly origin: string;
  readonly tree_size: number;
  readonly root_hash: string;
  /** Position of this head in the clockchain, across tiles, from 0. */
  readonly sequence: number;
  /** `checkpointHash` of the previous head's body; `GENESIS_CHECKPOINT_HASH` for sequence 0. */
  readonly prev_checkpoint_hash: string;
  readonly issued_unix_ms: number;
}

const CHAIN = "temporal-chain";
const ISSUED = "temporal-issued";
const DECIMAL = /^(?:0|[1-9][0-9]*)$/;
// No "-0", so that every number has one spelling.
const SIGNED_DECIMAL = /^(?:0|-?[1-9][0-9]*)$/;

/** SHA-256 (hex) of a checkpoint body's UTF-8: what the next head's `prev_checkpoint_hash` holds. */
export function checkpointHash(body: string): string {
  return sha256Hex(body);
}

/** The checkpoint body of a tile head. Throws `INVALID_CHECKPOINT` (or `INVALID_ORIGIN`) for a field `parseTileCheckpoint` would refuse. */
export function formatTileCheckpoint(head: TileCheckpoint): string {
  parseTileOrigin(head.origin);
  checkChain(head.sequence, head.prev_checkpoint_hash, head.issued_unix_ms);
  const extensions = [`${CHAIN} ${head.sequence} ${bytesToBase64(hexToBytes(head.prev_checkpoint_hash))}`, `${ISSUED} ${head.issued_unix_ms}`];
  return formatCheckpoint({ origin: head.origin, tree_size: head.tree_size, root_hash: head.root_hash, extensions });
}

/** A tile head from its checkpoint body: a tile origin and exactly the two chain lines. Throws `INVALID_CHECKPOINT` or `INVALID_ORIGIN`. */
export function parseTileCheckpoint(body: string): TileCheckpoint {
  const { origin, tree_size, root_hash, extensions } = parseCheckpoint(body);
  parseTileOrigin(origin);
  const [chain, issued, ...extra] = extensions;
  const chainFields = chain?.split(" ") ?? [];
  const issuedFields = issued?.split(" ") ?? [];
  const chainWellFormed = chainFields.length === 3 && chainFields[0] === CHAIN && DECIMAL.test(chainFields[1] as string);
  const issuedWellFormed = issuedFields.length === 2 && issuedFields[0] === ISSUED && SIGNED_DECIMAL.test(issuedFields[1] as string);
  if (!chainWellFormed || !issuedWellFormed || extra.length > 0) {
    throw invalidTileCheckpoint(`has extension lines ${describeValue(extensions)}, not "${CHAIN} <sequence> <base64 hash>" then "${ISSUED} <unix ms>"`);
  }
  const prev = base64ToBytes(chainFields[2] as string);
  if (prev?.length !== 32) throw invalidTileCheckpoint(`previous checkpoint hash ${describeValue(chainFields[2])} is not canonical padded base64 of 32 bytes`);
  const head: TileCheckpoint = {
    origin,
    tree_size,
    root_hash,
    sequence: Number(chainFields[1]),
    prev_checkpoint_hash: bytesToHex(prev),
    issued_unix_ms: Number(issuedFields[1]),
  };
  checkChain(head.sequence, head.prev_checkpoint_hash, head.issued_unix_ms);
  return head;
}

/**
 * Verifies a tile's signed checkpoint with nothing but the authority vkeys
 * (as `GET keys` gives them): the tile's vkey is derived from the one whose
 * name is the origin's authority name. Throws like `openCheckpoint`, and
 * `INVALID_CHECKPOINT`/`INVALID_ORIGIN` when the body is not a tile head.
 */
export async function openTileCheckpoint(note: string | Uint8Array, authorityVkeys: readonly string[]): Promise<VerifiedCheckpoint & { readonly head: TileCheckpoint }> {
  const head = parseTileCheckpoint(parseNote(note).text);
  const { authority_name, tile_id } = parseTileOrigin(head.origin);
  const mine = authorityVkeys.filter((vkey) => vkey.startsWith(`${authority_name}+`));
  const verifiers = await Promise.all(mine.map((vkey) => noteVerifier(tileVerifierKey(vkey, tile_id))));
  return { ...(await openCheckpoint(note, verifiers)), head };
}

function checkChain(sequence: number, prevCheckpointHash: string, issuedUnixMs: number): void {
  if (!Number.isSafeInteger(sequence) || sequence < 0) throw invalidTileCheckpoint(`sequence ${describeValue(sequence)} is not a non-negative safe integer`);
  if (!isHash(prevCheckpointHash)) throw invalidTileCheckpoint(`previous checkpoint hash ${describeValue(prevCheckpointHash)} is not 32 bytes`);
  if ((sequence === 0) !== (prevCheckpointHash === GENESIS_CHECKPOINT_HASH)) {
    throw invalidTileCheckpoint(`has sequence ${sequence} and previous hash ${prevCheckpointHash}: only the first head (sequence 0) has the genesis hash`);
  }
  if (!Number.isInteger(issuedUnixMs) || Math.abs(issuedUnixMs) > MAX_ABS_UNIX_MS) {
    throw invalidTileCheckpoint(`issued time ${describeValue(issuedUnixMs)} is not an integer Unix millisecond within ±${MAX_ABS_UNIX_MS}`);
  }
}

function invalidTileCheckpoint(problem: string): TemporalError {
  return new TemporalError("INVALID_CHECKPOINT", `tile checkpoint ${problem}`);
}
