/**
 * C2SP tlog-cosignature v1.0.1, `cosignature/v1`: a witness's timestamped
 * Ed25519 signature on a checkpoint, written as one more signed-note
 * signature line. Its key ID uses signature type 0x04 and the signed
 * message is `cosignature/v1\ntime <seconds>\n` followed by the checkpoint's
 * note text. Platform-free: signing goes through an `Ed25519Sign` the
 * caller provides, verifying through WebCrypto.
 */

import { bytesToBase64, bytesToHex } from "./encoding.js";
import { TemporalError } from "./errors.js";
import { noteKeyId, noteKeyIdHex, parseVerifierKey, type Ed25519Sign, type NoteVerifier, type NoteVerifierKey } from "./note-key.js";
import type { NoteSignature } from "./signed-note.js";
import { VerifyingKey } from "./verifying-key.js";

/** The signed-note signature type of Ed25519 cosignature/v1 keys. */
export const COSIGNATURE_V1_TYPE = 0x04;

const TIMESTAMP_BYTES = 8;
const SIGNATURE_BYTES = 64;
const TIMESTAMPED_SIGNATURE_BYTES = TIMESTAMP_BYTES + SIGNATURE_BYTES;

/** One cosignature as read from its signature line. `timestamp` is POSIX seconds. */
export interface Cosignature {
  readonly name: string;
  readonly keyId: number;
  readonly timestamp: number;
  readonly signature: Uint8Array;
}

/** A witness key that cosigns checkpoint note texts. */
export interface Cosigner {
  readonly name: string;
  readonly keyId: number;
  /** `<name>+<key ID>+base64(0x04 || public key)`: what logs and clients configure to trust this witness. */
  readonly vkey: string;
  /** The cosignature of `noteText` (a checkpoint note's text, final newline included) at `timestamp` seconds. */
  cosign(noteText: string, timestamp: number): Promise<NoteSignature>;
}

/**
 * The message a cosignature/v1 signs. Timestamps are whole seconds in
 * 1..2^53-1: the spec allows up to 2^63-1 and lets verifiers refuse
 * timestamps in the future, which everything past 2^53 s is by far.
 */
export function cosignedMessage(noteText: string, timestamp: number): string {
  if (!isTimestamp(timestamp)) throw new TemporalError("INVALID_COSIGNATURE", `a cosignature timestamp is a whole number of seconds from 1 to 2^53 - 1, got ${String(timestamp)}`);
  return `cosignature/v1\ntime ${timestamp}\n${noteText}`;
}

/** The cosignature/v1 key ID: `SHA-256(name || 0x0A || 0x04 || public key)[:4]`. */
export function cosignerKeyId(name: string, publicKey: Uint8Array): number {
  return noteKeyId(name, COSIGNATURE_V1_TYPE, publicKey);
}

/** The vkey of a cosignature/v1 key: signature type 0x04 and the 32-byte Ed25519 public key. */
export function formatCosignerVerifierKey(name: string, publicKey: Uint8Array): string {
  checkPublicKey(publicKey);
  const material = new Uint8Array(1 + publicKey.length);
  material[0] = COSIGNATURE_V1_TYPE;
  material.set(publicKey, 1);
  return `${name}+${noteKeyIdHex(cosignerKeyId(name, publicKey))}+${bytesToBase64(material)}`;
}

/** A cosigner for the Ed25519 key whose public half is `publicKey` and whose private half `sign` uses. */
export function createCosigner(name: string, publicKey: Uint8Array, sign: Ed25519Sign): Cosigner {
  const vkey = formatCosignerVerifierKey(name, publicKey);
  const keyId = cosignerKeyId(name, publicKey);
  return {
    name,
    keyId,
    vkey,
    async cosign(noteText, timestamp) {
      const signature = await sign(new TextEncoder().encode(cosignedMessage(noteText, timestamp)));
      if (signature.length !== SIGNATURE_BYTES) throw new TemporalError("INVALID_COSIGNATURE", `the Ed25519 signer of ${name} returned ${signature.length} bytes, not ${SIGNATURE_BYTES}`);
      const bytes = new Uint8Array(TIMESTAMPED_SIGNATURE_BYTES);
      new DataView(bytes.buffer).setBigUint64(0, BigInt(timestamp));
      bytes.set(signature, TIMESTAMP_BYTES);
      return { name, keyId, signature: bytes };
    },
  };
}

/**
 * Reads the `timestamped_signature` of a signature line (the bytes after
 * the key ID): 8-byte big-endian timestamp then the 64-byte signature.
 * Undefined when it has another length or a timestamp outside 1..2^53-1.
 */
export function readCosignature(line: NoteSignature): Cosignature | undefined {
  if (line.signature.length !== TIMESTAMPED_SIGNATURE_BYTES) return undefined;
  const view = new DataView(line.signature.buffer, line.signature.byteOffset, line.signature.byteLength);
  const timestamp = Number(view.getBigUint64(0));
  if (!isTimestamp(timestamp) || BigInt(timestamp) !== view.getBigUint64(0)) return undefined;
  return { name: line.name, keyId: line.keyId, timestamp, signature: line.signature.subarray(TIMESTAMP_BYTES) };
}

/**
 * A `NoteVerifier` for a cosignature/v1 vkey, so `openNote` checks
 * cosignatures like any other note signature: concatenate a checkpoint
 * note and a witness's signature lines and open it with these verifiers.
 * Throws `INVALID_COSIGNATURE` for a vkey of another type.
 */
export async function cosignatureVerifier(vkey: string): Promise<NoteVerifier> {
  return cosignatureKeyVerifier(cosignatureKey(vkey));
}

/**
 * `vkey` parsed and checked to be a cosignature/v1 Ed25519 key, for callers that need the key itself as well as its
 * verifier (a verifier that counts distinct witnesses) without parsing it twice. Throws `INVALID_NOTE_KEY` or `INVALID_COSIGNATURE`.
 */
export function cosignatureKey(vkey: string): NoteVerifierKey {
  const key = parseVerifierKey(vkey);
  if (key.signatureType !== COSIGNATURE_V1_TYPE) {
    throw new TemporalError("INVALID_COSIGNATURE", `verifier key of ${key.name} has signature type 0x${key.signatureType.toString(16).padStart(2, "0")}, not 0x04 (cosignature/v1)`);
  }
  checkPublicKey(key.publicKey);
  return key;
}

/** The `NoteVerifier` of a key `cosignatureKey` returned. */
export async function cosignatureKeyVerifier(key: NoteVerifierKey): Promise<NoteVerifier> {
  const verifying = await VerifyingKey.from(key.publicKey);
  return {
    name: key.name,
    keyId: key.keyId,
    async verify(text, signature) {
      const cosignature = readCosignature({ name: key.name, keyId: key.keyId, signature });
      if (cosignature === undefined) return false;
      return verifying.verify(bytesToHex(cosignature.signature), cosignedMessage(text, cosignature.timestamp));
    },
  };
}

/**
 * The cosignature of `text` by `verifier` among `lines` (a note's or a witness reply's signature lines): a line with
 * its name and key ID whose cosignature/v1 verifies with its key, not merely the first line naming it. Undefined when
 * none does.
 */
export async function findCosignature(text: string, lines: readonly NoteSignature[], verifier: NoteVerifier): Promise<{ line: NoteSignature; timestamp: number } | undefined> {
  for (const line of lines) {
    if (line.name !== verifier.name || line.keyId !== verifier.keyId) continue;
    const cosignature = readCosignature(line);
    if (cosignature !== undefined && (await verifier.verify(text, line.signature))) return { line, timestamp: cosignature.timestamp };
  }
  return undefined;
}

function isTimestamp(value: number): boolean {
  return Number.isSafeInteger(value) && value > 0;
}

function checkPublicKey(publicKey: Uint8Array): void {
  if (!(publicKey instanceof Uint8Array) || publicKey.length !== 32) {
    throw new TemporalError("INVALID_COSIGNATURE", `an Ed25519 cosigner public key has 32 bytes, got ${publicKey instanceof Uint8Array ? publicKey.length : typeof publicKey}`);
  }
}
