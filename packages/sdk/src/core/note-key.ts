/**
 * Keys of C2SP signed notes (c2sp.org/signed-note@v1.0.0): key names, key
 * IDs, verifier key strings ("vkeys"), and the Ed25519 signer and verifier
 * that `signNote` and `openNote` use. Only Ed25519 (signature type 0x01) is
 * implemented; a vkey of another type parses but cannot verify.
 */

import { TemporalError, describeValue } from "./errors.js";
import { base64ToBytes, bytesToBase64, bytesToHex } from "./encoding.js";
import { sha256 } from "./sha256.js";
import type { PublicKeyJwk } from "./types.js";
import { VerifyingKey, rawPublicKey } from "./verifying-key.js";

/** The signature type byte of Ed25519 note signatures. */
export const ED25519_SIGNATURE_TYPE = 0x01;
const ED25519_SIGNATURE_BYTES = 64;

/** Key ID recipes the specs make mandatory: Ed25519 (0x01) and the tlog-cosignature types (0x04, 0x06). */
const HASHED_KEY_ID_TYPES: ReadonlySet<number> = new Set([0x01, 0x04, 0x06]);

const utf8 = new TextEncoder();
// Key names sit between spaces in a signature line and before a plus in a vkey; a note has no
// control characters; and a lone surrogate (the only surrogates a `u` pattern sees) has no UTF-8.
const NAME_FORBIDDEN = /[\p{White_Space}+\u0000-\u001f\ud800-\udfff]/u;
const KEY_ID_HEX = /^[0-9a-f]{8}$/;

/** A note key as a vkey describes it. `keyId` is the uint32 of the spec. */
export interface NoteVerifierKey {
  readonly name: string;
  readonly keyId: number;
  readonly signatureType: number;
  readonly publicKey: Uint8Array;
}

/** Checks one signature of a note; `signNote`/`openNote` match it to signature lines by name and key ID. */
export interface NoteVerifier {
  readonly name: string;
  readonly keyId: number;
  /** False, never an exception, for a signature that does not verify. */
  verify(text: string, signature: Uint8Array): Promise<boolean>;
}

/** Makes one signature of a note; the private key stays wherever `sign` keeps it. */
export interface NoteSigner {
  readonly name: string;
  readonly keyId: number;
  sign(text: Uint8Array): Promise<Uint8Array>;
}

/** Signs a message with an Ed25519 private key held by the caller (a KMS, WebCrypto, `node:crypto`...). */
export type Ed25519Sign = (message: Uint8Array) => Promise<Uint8Array>;

/** True for a non-empty name with no Unicode space, no `+` and no control character. */
export function isNoteKeyName(name: unknown): name is string {
  return typeof name === "string" && name.length > 0 && !NAME_FORBIDDEN.test(name);
}

export function assertNoteKeyName(name: unknown): asserts name is string {
  if (!isNoteKeyName(name)) {
    throw new TemporalError("INVALID_NOTE_KEY", `a note key name is non-empty text without spaces, "+" or control characters, got ${describeValue(name)}`);
  }
}

/** `SHA-256(name || 0x0A || signature type || public key)[:4]`, big-endian. */
export function noteKeyId(name: string, signatureType: number, publicKey: Uint8Array): number {
  assertNoteKeyName(name);
  const nameBytes = utf8.encode(name);
  const input = new Uint8Array(nameBytes.length + 2 + publicKey.length);
  input.set(nameBytes);
  input[nameBytes.length] = 0x0a;
  input[nameBytes.length + 1] = signatureType;
  input.set(publicKey, nameBytes.length + 2);
  const digest = sha256(input);
  return new DataView(digest.buffer, digest.byteOffset, 4).getUint32(0);
}

/** The fixed-length lowercase hex of a key ID, as vkeys write it. */
export function noteKeyIdHex(keyId: number): string {
  return keyId.toString(16).padStart(8, "0");
}

/** `<name>+<hex key ID>+<base64(0x01 || public key)>` of an Ed25519 key. */
export function formatVerifierKey(name: string, publicKey: PublicKeyJwk | Uint8Array): string {
  const raw = rawPublicKey(publicKey);
  const material = new Uint8Array(1 + raw.length);
  material[0] = ED25519_SIGNATURE_TYPE;
  material.set(raw, 1);
  return `${name}+${noteKeyIdHex(noteKeyId(name, ED25519_SIGNATURE_TYPE, raw))}+${bytesToBase64(material)}`;
}

/**
 * Parses a vkey of any signature type, checking the key ID wherever a spec
 * fixes how it is computed. Throws `INVALID_NOTE_KEY`.
 */
export function parseVerifierKey(vkey: string): NoteVerifierKey {
  const bad = (problem: string): TemporalError => new TemporalError("INVALID_NOTE_KEY", `verifier key ${describeValue(vkey)} ${problem}`);
  if (typeof vkey !== "string") throw bad("is not a string");
  const firstPlus = vkey.indexOf("+");
  const name = vkey.slice(0, firstPlus);
  const idHex = vkey.slice(firstPlus + 1, firstPlus + 9);
  if (firstPlus < 0 || vkey[firstPlus + 9] !== "+") throw bad("is not <name>+<8 hex digits>+<base64 key>");
  if (!isNoteKeyName(name)) throw bad('has an invalid key name (empty, or with a space, "+" or a control character)');
  if (!KEY_ID_HEX.test(idHex)) throw bad("has a key ID that is not 8 lowercase hex digits");
  const material = base64ToBytes(vkey.slice(firstPlus + 10));
  if (material === undefined || material.length < 2) throw bad("has a key that is not canonical padded base64 of a type byte and a key");
  const key: NoteVerifierKey = { name, keyId: Number.parseInt(idHex, 16), signatureType: material[0] as number, publicKey: material.subarray(1) };
  if (key.signatureType === ED25519_SIGNATURE_TYPE && key.publicKey.length !== 32) throw bad(`has an Ed25519 key of ${key.publicKey.length} bytes, not 32`);
  if (HASHED_KEY_ID_TYPES.has(key.signatureType) && noteKeyId(name, key.signatureType, key.publicKey) !== key.keyId) {
    throw bad(`has key ID ${idHex}, but its name and key give ${noteKeyIdHex(noteKeyId(name, key.signatureType, key.publicKey))}`);
  }
  return key;
}

/** True when `parseVerifierKey` accepts `value`. */
export function isVerifierKey(value: unknown): value is string {
  try {
    parseVerifierKey(value as string);
    return true;
  } catch {
    return false;
  }
}

/** A verifier for an Ed25519 vkey (WebCrypto). Throws `INVALID_NOTE_KEY` for a malformed vkey or another signature type. */
export async function noteVerifier(vkey: string): Promise<NoteVerifier> {
  const key = parseVerifierKey(vkey);
  if (key.signatureType !== ED25519_SIGNATURE_TYPE) {
    throw new TemporalError("INVALID_NOTE_KEY", `verifier key of ${key.name} has signature type 0x${key.signatureType.toString(16).padStart(2, "0")}; only Ed25519 (0x01) is supported`);
  }
  const verifyingKey = await VerifyingKey.from(key.publicKey);
  return {
    name: key.name,
    keyId: key.keyId,
    verify: (text, signature) => verifyingKey.verify(bytesToHex(signature), text),
  };
}

/** A signer under `name` for the Ed25519 key whose public half is `publicKey` and whose private half `sign` uses. */
export function ed25519NoteSigner(name: string, publicKey: PublicKeyJwk | Uint8Array, sign: Ed25519Sign): NoteSigner {
  const keyId = noteKeyId(name, ED25519_SIGNATURE_TYPE, rawPublicKey(publicKey));
  return {
    name,
    keyId,
    async sign(text) {
      const signature = await sign(text);
      if (!(signature instanceof Uint8Array) || signature.length !== ED25519_SIGNATURE_BYTES) {
        const got = signature instanceof Uint8Array ? `${signature.length} bytes` : describeValue(signature);
        throw new TemporalError("INVALID_NOTE_KEY", `the Ed25519 signer of ${name} returned ${got}, not ${ED25519_SIGNATURE_BYTES} bytes`);
      }
      return signature;
    },
  };
}
