/**
 * A clockchain head on the wire and in the ledger: a tile's C2SP
 * tlog-checkpoint in a C2SP signed note (docs/checkpoints.md). The note is
 * what is signed and verified; `SignedCheckpoint` carries its parsed body
 * beside it for readers, and every check first makes sure the two agree.
 */

import { bytesToHex } from "./encoding.js";
import { ED25519_SIGNATURE_TYPE, noteKeyId, parseVerifierKey } from "./note-key.js";
import { parseNote, type Note } from "./signed-note.js";
import { checkpointHash, parseTileCheckpoint } from "./tile-checkpoint.js";
import { parseTileOrigin } from "./tile-origin.js";
import type { SignedCheckpoint } from "./types.js";
import { VerifyingKey, rawPublicKey, type PublicKeyInput } from "./verifying-key.js";

const VIEW_KEYS = ["issued_unix_ms", "note", "origin", "prev_checkpoint_hash", "root_hash", "sequence", "tile_id", "tree_size"].join();

/** The parsed view of a signed tile checkpoint note. Throws `INVALID_NOTE`, `INVALID_CHECKPOINT` or `INVALID_ORIGIN`; verifies nothing. */
export function signedCheckpointOf(note: string): SignedCheckpoint {
  return viewOf(note, parseNote(note));
}

/** The view of `note`, whose parse is `parsed`. */
function viewOf(note: string, parsed: Note): SignedCheckpoint {
  const head = parseTileCheckpoint(parsed.text);
  return { tile_id: parseTileOrigin(head.origin).tile_id, ...head, note };
}

/** True when `value` is a signed checkpoint whose fields are exactly its note's parsed body. Signatures are not checked. */
export function isSignedCheckpoint(value: unknown): value is SignedCheckpoint {
  return checkedNote(value) !== undefined;
}

/** The parsed note of `value` when `value` is a signed checkpoint whose fields are exactly that note's body, else undefined. */
function checkedNote(value: unknown): Note | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  if (Object.keys(value).sort().join() !== VIEW_KEYS) return undefined;
  const claimed = value as Record<string, unknown>;
  if (typeof claimed.note !== "string") return undefined;
  try {
    const note = parseNote(claimed.note);
    return Object.entries(viewOf(claimed.note, note)).every(([key, field]) => claimed[key] === field) ? note : undefined;
  } catch {
    return undefined;
  }
}

/** The checkpoint body (the note's text): what the signature covers and the chain hashes. */
export function checkpointBody(checkpoint: Pick<SignedCheckpoint, "note">): string {
  return parseNote(checkpoint.note).text;
}

/** `checkpointHash` of the checkpoint's body: the next head's `prev_checkpoint_hash`. */
export function signedCheckpointHash(checkpoint: Pick<SignedCheckpoint, "note">): string {
  return checkpointHash(checkpointBody(checkpoint));
}

/**
 * The signature line of `publicKey` under the checkpoint's origin, as a
 * message and hex signature `VerifyingKey.verify` takes, or undefined when
 * the note has no line with that key name and key ID (other lines, such as
 * witnesses' cosignatures, are ignored).
 */
export function originSignature(note: Note, origin: string, publicKey: Uint8Array): { message: string; signatureHex: string } | undefined {
  const keyId = noteKeyId(origin, ED25519_SIGNATURE_TYPE, publicKey);
  const line = note.signatures.find((signature) => signature.name === origin && signature.keyId === keyId);
  return line === undefined ? undefined : { message: note.text, signatureHex: bytesToHex(line.signature) };
}

/**
 * True when `checkpoint` is well formed (its fields are its note's body)
 * and its note carries a valid Ed25519 signature by the key under the
 * checkpoint's origin. `key` is the authority's public key (JWK, raw bytes
 * or `VerifyingKey`), which signs whatever the authority's name, or its
 * authority vkey (`GET keys` `note_verifier_keys`), whose name must then be
 * the origin's authority name. Pure (WebCrypto); never throws for bad input.
 */
export async function verifySignedCheckpoint(checkpoint: SignedCheckpoint, key: PublicKeyInput | string): Promise<boolean> {
  const note = checkedNote(checkpoint);
  if (note === undefined) return false;
  try {
    const verifying = await verifyingKeyFor(key, parseTileOrigin(checkpoint.origin).authority_name);
    if (verifying === undefined) return false;
    const signed = originSignature(note, checkpoint.origin, rawPublicKey(verifying.jwk));
    return signed !== undefined && (await verifying.verify(signed.signatureHex, signed.message));
  } catch {
    return false;
  }
}

async function verifyingKeyFor(key: PublicKeyInput | string, authorityName: string): Promise<VerifyingKey | undefined> {
  if (typeof key !== "string") return VerifyingKey.from(key);
  const vkey = parseVerifierKey(key);
  if (vkey.signatureType !== ED25519_SIGNATURE_TYPE || vkey.name !== authorityName) return undefined;
  return VerifyingKey.from(vkey.publicKey);
}
