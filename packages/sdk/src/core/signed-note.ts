/**
 * C2SP signed notes (c2sp.org/signed-note@v1.0.0): a UTF-8 text ending in a
 * newline, a blank line, then one signature line per key,
 * `— <key name> <base64(key ID || signature)>`. Parsing is strict: anything
 * the spec does not allow is refused with `INVALID_NOTE`, so one note has
 * one reading.
 */

import { TemporalError, describeValue } from "./errors.js";
import { base64ToBytes, bytesToBase64 } from "./encoding.js";
import { assertNoteKeyName, isNoteKeyName, noteKeyIdHex, type NoteSigner, type NoteVerifier } from "./note-key.js";

/**
 * The most signature lines a note may carry. The spec asks verifiers to
 * bound them and to accept at least 16; 100 leaves room for a log's keys
 * and many witnesses' cosignatures, post-quantum ones included.
 */
export const MAX_NOTE_SIGNATURES = 100;

const SIGNATURE_PREFIX = "\u2014 ";
const utf8 = new TextEncoder();
const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
// Every control character but the newline, and lone surrogates (which have no UTF-8).
const FORBIDDEN_CHARACTER = /[\u0000-\u0009\u000b-\u001f\ud800-\udfff]/u;

/** One signature line: the signing key's name and key ID, and the signature bytes after the key ID. */
export interface NoteSignature {
  readonly name: string;
  readonly keyId: number;
  readonly signature: Uint8Array;
}

export interface Note {
  /** The signed text, final newline included. */
  readonly text: string;
  readonly signatures: readonly NoteSignature[];
}

/** A note with at least one signature from a known key, all of which verified. */
export interface VerifiedNote extends Note {
  readonly verified: readonly NoteSignature[];
  /** Signatures from keys the caller did not give, which the spec says to ignore (for example witness cosignatures). */
  readonly unknown: readonly NoteSignature[];
}

/** Parses a note (text or UTF-8 bytes) without verifying it. Throws `INVALID_NOTE`. */
export function parseNote(note: string | Uint8Array): Note {
  const whole = typeof note === "string" ? note : decodeUtf8(note);
  if (typeof whole !== "string") throw invalidNote(`is not text: ${describeValue(note)}`);
  checkCharacters(whole, "note");
  if (!whole.endsWith("\n")) throw invalidNote("does not end in a newline");
  // The text may hold empty lines of its own: the last blank line is the one before the signatures.
  const split = whole.lastIndexOf("\n\n");
  if (split < 0) throw invalidNote("has no blank line between its text and its signatures");
  const lines = whole.slice(split + 2, -1);
  if (lines === "") throw invalidNote("has no signature lines after its blank line");
  const signatures = lines.split("\n").map((line, index) => parseSignatureLine(line, index + 1));
  checkSignatureSet(signatures);
  return { text: whole.slice(0, split + 1), signatures };
}

/** The note's text, blank line and signature lines. Throws `INVALID_NOTE` for what `parseNote` would refuse. */
export function formatNote(note: Note): string {
  checkText(note.text);
  checkSignatureSet(note.signatures);
  return `${note.text}\n${note.signatures.map(formatSignatureLine).join("")}`;
}

/** `— <name> <base64(key ID || signature)>` and its newline. */
export function formatSignatureLine(signature: NoteSignature): string {
  assertNoteKeyName(signature.name);
  if (!Number.isInteger(signature.keyId) || signature.keyId < 0 || signature.keyId > 0xffffffff) {
    throw invalidNote(`signature of ${signature.name} has key ID ${describeValue(signature.keyId)}, not a uint32`);
  }
  if (!(signature.signature instanceof Uint8Array) || signature.signature.length === 0) {
    throw invalidNote(`signature of ${signature.name} is not a non-empty Uint8Array`);
  }
  const bytes = new Uint8Array(4 + signature.signature.length);
  new DataView(bytes.buffer).setUint32(0, signature.keyId);
  bytes.set(signature.signature, 4);
  return `${SIGNATURE_PREFIX}${signature.name} ${bytesToBase64(bytes)}\n`;
}

/** Signs `text` with every signer, in order, and formats the signed note. */
export async function signNote(text: string, signers: readonly NoteSigner[]): Promise<string> {
  checkText(text);
  const message = utf8.encode(text);
  const signatures = await Promise.all(signers.map(async (signer) => ({ name: signer.name, keyId: signer.keyId, signature: await signer.sign(message) })));
  return formatNote({ text, signatures });
}

/**
 * Parses a note and verifies it against `verifiers`, as the spec says:
 * signatures from unknown keys (name and key ID not both matching a
 * verifier) are ignored, every signature from a known key must verify, and
 * at least one must. Throws `INVALID_NOTE` for a malformed note,
 * `NOTE_NOT_VERIFIED` when the signatures do not hold, and
 * `INVALID_NOTE_KEY` when two verifiers claim one name and key ID.
 */
export async function openNote(note: string | Uint8Array, verifiers: readonly NoteVerifier[]): Promise<VerifiedNote> {
  const parsed = parseNote(note);
  const byKey = verifierIndex(verifiers);
  const known = parsed.signatures.filter((s) => byKey.has(keyOf(s)));
  const unknown = parsed.signatures.filter((s) => !byKey.has(keyOf(s)));
  if (known.length === 0) {
    const names = parsed.signatures.map((s) => `${s.name} (key ID ${noteKeyIdHex(s.keyId)})`).join(", ");
    throw new TemporalError("NOTE_NOT_VERIFIED", `the note has no signature from a known key; it is signed by ${names}`);
  }
  const results = await Promise.all(known.map((s) => (byKey.get(keyOf(s)) as NoteVerifier).verify(parsed.text, s.signature)));
  const failed = known.filter((_, i) => results[i] !== true);
  if (failed.length > 0) {
    const names = failed.map((s) => `${s.name} (key ID ${noteKeyIdHex(s.keyId)})`).join(", ");
    throw new TemporalError("NOTE_NOT_VERIFIED", `the note's signature by ${names} does not verify`);
  }
  return { ...parsed, verified: known, unknown };
}

function verifierIndex(verifiers: readonly NoteVerifier[]): Map<string, NoteVerifier> {
  const index = new Map<string, NoteVerifier>();
  for (const verifier of verifiers) {
    const key = keyOf(verifier);
    if (index.has(key) && index.get(key) !== verifier) {
      throw new TemporalError("INVALID_NOTE_KEY", `two verifiers have key name ${verifier.name} and key ID ${noteKeyIdHex(verifier.keyId)}`);
    }
    index.set(key, verifier);
  }
  return index;
}

/** The tuple the spec says identifies a key. A newline cannot be in a key name, so the pair maps to one string. */
function keyOf(key: { readonly name: string; readonly keyId: number }): string {
  return `${key.name}\n${key.keyId}`;
}

function parseSignatureLine(line: string, number: number): NoteSignature {
  const bad = (problem: string): TemporalError => invalidNote(`signature line ${number} ${problem}: ${describeValue(line)}`);
  if (!line.startsWith(SIGNATURE_PREFIX)) throw bad("does not start with an em dash (U+2014) and a space");
  const rest = line.slice(SIGNATURE_PREFIX.length);
  const space = rest.indexOf(" ");
  const name = rest.slice(0, space);
  if (space < 0 || !isNoteKeyName(name)) throw bad('has no valid key name (non-empty, no spaces, no "+") followed by a space');
  const bytes = base64ToBytes(rest.slice(space + 1));
  if (bytes === undefined) throw bad("has a signature that is not canonical padded base64");
  if (bytes.length < 5) throw bad("has a signature shorter than a key ID and one byte");
  return { name, keyId: new DataView(bytes.buffer).getUint32(0), signature: bytes.subarray(4) };
}

function checkText(text: unknown): asserts text is string {
  if (typeof text !== "string") throw invalidNote(`text is not a string: ${describeValue(text)}`);
  checkCharacters(text, "text");
  if (!text.endsWith("\n")) throw invalidNote("text does not end in a newline");
}

function checkSignatureSet(signatures: readonly NoteSignature[]): void {
  if (signatures.length === 0) throw invalidNote("has no signatures");
  if (signatures.length > MAX_NOTE_SIGNATURES) throw invalidNote(`has ${signatures.length} signatures, more than the ${MAX_NOTE_SIGNATURES} accepted`);
  const seen = new Set<string>();
  for (const signature of signatures) {
    // One key signs a text once; a second line from it is redundant at best and ambiguous at worst.
    if (seen.has(keyOf(signature))) throw invalidNote(`has two signatures by ${signature.name} with key ID ${noteKeyIdHex(signature.keyId)}`);
    seen.add(keyOf(signature));
  }
}

function checkCharacters(text: string, what: string): void {
  const found = FORBIDDEN_CHARACTER.exec(text);
  if (found === null) return;
  const code = found[0].codePointAt(0) as number;
  const name = code === 0x0d ? "a carriage return (lines end in \\n alone)" : `character U+${code.toString(16).padStart(4, "0")}`;
  throw invalidNote(`${what} has ${name} at offset ${found.index}; only newline may be a control character, and the text must be valid UTF-8`);
}

function decodeUtf8(bytes: Uint8Array): string | undefined {
  if (!(bytes instanceof Uint8Array)) return undefined;
  try {
    return strictUtf8.decode(bytes);
  } catch {
    throw invalidNote("is not valid UTF-8");
  }
}

function invalidNote(problem: string): TemporalError {
  return new TemporalError("INVALID_NOTE", `signed note ${problem}`);
}
