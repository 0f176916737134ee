/**
 * C2SP checkpoints (c2sp.org/tlog-checkpoint@v1.0.0): the note text of a
 * transparency log's tree head, `<origin>\n<tree size>\n<base64 root>\n`
 * then optional extension lines, signed as a note by the key named like the
 * origin.
 */

import { TemporalError, describeValue } from "./errors.js";
import { base64ToBytes, bytesToBase64, bytesToHex, hexToBytes, isHash } from "./encoding.js";
import { isNoteKeyName, type NoteSigner, type NoteVerifier } from "./note-key.js";
import { openNote, parseNote, signNote, type VerifiedNote } from "./signed-note.js";

/** A checkpoint body. Hashes are lowercase hex, as everywhere else in the SDK; the body writes them in base64. */
export interface Checkpoint {
  /** Names the one tree this checkpoint is a head of, and the key that signs it. */
  readonly origin: string;
  readonly tree_size: number;
  /** RFC 6962 root hash at `tree_size`, 64 lowercase hex digits. */
  readonly root_hash: string;
  /** Opaque non-empty lines after the root; the spec does not recommend them, and witnesses make no statement about them. */
  readonly extensions: readonly string[];
}

/** A checkpoint whose note carries a valid signature by the key named like its origin. */
export interface VerifiedCheckpoint {
  readonly checkpoint: Checkpoint;
  readonly note: VerifiedNote;
}

const TREE_SIZE = /^(?:0|[1-9][0-9]*)$/;
// What a note may not hold (control characters but the newline, lone surrogates), and the newline, which ends a line.
const NOT_IN_A_LINE = /[\u0000-\u001f\ud800-\udfff]/u;

/** The checkpoint's note text. Throws `INVALID_CHECKPOINT` for a field `parseCheckpoint` would refuse. */
export function formatCheckpoint(checkpoint: Checkpoint): string {
  const { origin, tree_size, root_hash, extensions } = checkpoint;
  checkOrigin(origin);
  if (!Number.isSafeInteger(tree_size) || tree_size < 0) throw invalidCheckpoint(`tree_size ${describeValue(tree_size)} is not a non-negative safe integer`);
  if (!isHash(root_hash)) throw invalidCheckpoint(`root_hash ${describeValue(root_hash)} is not 64 lowercase hex digits`);
  if (!Array.isArray(extensions)) throw invalidCheckpoint(`extensions ${describeValue(extensions)} is not an array of lines`);
  extensions.forEach((line, i) => checkExtension(line, i));
  return [origin, String(tree_size), bytesToBase64(hexToBytes(root_hash)), ...(extensions as readonly string[])].map((line) => `${line}\n`).join("");
}

/** Parses a checkpoint body (a note's text, not the whole note). Throws `INVALID_CHECKPOINT`. */
export function parseCheckpoint(body: string): Checkpoint {
  if (typeof body !== "string") throw invalidCheckpoint(`body is not a string: ${describeValue(body)}`);
  if (body.includes("\r")) throw invalidCheckpoint("body has a carriage return; its lines end in \\n alone");
  if (!body.endsWith("\n")) throw invalidCheckpoint("body does not end in a newline");
  const [origin, size, root, ...extensions] = body.slice(0, -1).split("\n");
  if (origin === undefined || size === undefined || root === undefined) throw invalidCheckpoint(`body has fewer than three lines: ${describeValue(body)}`);
  checkOrigin(origin);
  if (!TREE_SIZE.test(size)) throw invalidCheckpoint(`tree size ${describeValue(size)} is not a decimal number without leading zeros`);
  const treeSize = Number(size);
  if (!Number.isSafeInteger(treeSize)) throw invalidCheckpoint(`tree size ${size} is beyond 2^53 - 1, the largest this implementation handles`);
  const rootBytes = base64ToBytes(root);
  if (rootBytes === undefined || rootBytes.length !== 32) throw invalidCheckpoint(`root hash ${describeValue(root)} is not canonical padded base64 of 32 bytes`);
  extensions.forEach((line, i) => checkExtension(line, i));
  return { origin, tree_size: treeSize, root_hash: bytesToHex(rootBytes), extensions };
}

/** The checkpoint as a note signed by `signer`, whose key name must be the origin. */
export function signCheckpoint(checkpoint: Checkpoint, signer: NoteSigner): Promise<string> {
  const body = formatCheckpoint(checkpoint);
  if (signer.name !== checkpoint.origin) {
    throw invalidCheckpoint(`is signed under the key name of its origin ${describeValue(checkpoint.origin)}, not ${describeValue(signer.name)}`);
  }
  return signNote(body, [signer]);
}

/**
 * Verifies a signed checkpoint: the note must verify against `verifiers`
 * (see `openNote`) with at least one valid signature by a key named like
 * the origin, so a witness's cosignature alone does not make a log's
 * checkpoint. Throws `INVALID_NOTE`, `INVALID_CHECKPOINT` or `NOTE_NOT_VERIFIED`.
 */
export async function openCheckpoint(note: string | Uint8Array, verifiers: readonly NoteVerifier[]): Promise<VerifiedCheckpoint> {
  const checkpoint = parseCheckpoint(parseNote(note).text);
  const verified = await openNote(note, verifiers);
  if (!verified.verified.some((signature) => signature.name === checkpoint.origin)) {
    throw new TemporalError("NOTE_NOT_VERIFIED", `the checkpoint of ${checkpoint.origin} has no valid signature by a key named like its origin`);
  }
  return { checkpoint, note: verified };
}

function checkOrigin(origin: unknown): void {
  // The spec only recommends this shape, but here the origin is also the signing key's name, which must have it.
  if (!isNoteKeyName(origin)) throw invalidCheckpoint(`origin ${describeValue(origin)} is not a key name: non-empty, no spaces, no "+", no control characters`);
}

function checkExtension(line: unknown, index: number): void {
  if (typeof line !== "string" || line === "" || NOT_IN_A_LINE.test(line)) {
    throw invalidCheckpoint(`extension line ${index + 1} ${describeValue(line)} is not a non-empty line without control characters`);
  }
}

function invalidCheckpoint(problem: string): TemporalError {
  return new TemporalError("INVALID_CHECKPOINT", `checkpoint ${problem}`);
}
