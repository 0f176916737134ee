/** Byte <-> text encodings used by the wire formats, without Buffer so they run in browsers. */

const HEX_64 = /^[0-9a-f]{64}$/;

export function isHash(value: unknown): value is string {
  return typeof value === "string" && HEX_64.test(value);
}

const ascii = new TextDecoder();
let hexDigits: Uint8Array | undefined;

export function bytesToHex(bytes: Uint8Array): string {
  // Hashing-heavy paths call this a lot: filling ASCII codes and decoding once
  // avoids building the string from hundreds of small pieces. The digit table
  // is built on first use, not at import.
  const digits = (hexDigits ??= new TextEncoder().encode(Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0")).join("")));
  const out = new Uint8Array(bytes.length * 2);
  for (let i = 0; i < bytes.length; i++) {
    const at = (bytes[i] as number) * 2;
    out[i * 2] = digits[at] as number;
    out[i * 2 + 1] = digits[at + 1] as number;
  }
  return ascii.decode(out);
}

/** Decodes hex of even length; callers validate the format first. */
export function hexToBytes(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length >>> 1);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (hexDigit(hex.charCodeAt(2 * i)) << 4) | hexDigit(hex.charCodeAt(2 * i + 1));
  return bytes;
}

function hexDigit(code: number): number {
  // '0'-'9' are 48-57; 'a'-'f' and 'A'-'F' have 1-6 in their low bits.
  return code <= 57 ? code - 48 : (code & 7) + 9;
}

const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** Unpadded base64url (RFC 4648 section 5), as JWK uses. */
export function bytesToBase64Url(bytes: Uint8Array): string {
  return encodeBase64(bytes, BASE64URL);
}

/** Returns undefined for anything that is not canonical unpadded base64url. */
export function base64UrlToBytes(text: string): Uint8Array | undefined {
  return decodeBase64(text, BASE64URL);
}

/** Padded standard base64 (RFC 4648 section 4), as signed notes and checkpoints use. */
export function bytesToBase64(bytes: Uint8Array): string {
  const text = encodeBase64(bytes, BASE64);
  return text + "=".repeat((4 - (text.length % 4)) % 4);
}

/** Returns undefined for anything that is not canonical padded standard base64. */
export function base64ToBytes(text: string): Uint8Array | undefined {
  if (text.length % 4 !== 0) return undefined;
  const unpadded = text.endsWith("==") ? text.slice(0, -2) : text.endsWith("=") ? text.slice(0, -1) : text;
  // Padding is only ever what makes the length a multiple of 4, so "AA==" is canonical and "AAA==" or "AAAA====" is not.
  if (text.length - unpadded.length !== (4 - (unpadded.length % 4)) % 4) return undefined;
  return decodeBase64(unpadded, BASE64);
}

function encodeBase64(bytes: Uint8Array, alphabet: string): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const chunk = ((bytes[i] as number) << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = Math.min(4, Math.ceil(((bytes.length - i) * 8) / 6));
    for (let c = 0; c < chars; c++) out += alphabet[(chunk >>> (18 - 6 * c)) & 63];
  }
  return out;
}

function decodeBase64(text: string, alphabet: string): Uint8Array | undefined {
  if (text.length % 4 === 1) return undefined;
  const bytes = new Uint8Array(Math.floor((text.length * 6) / 8));
  let buffer = 0;
  let bits = 0;
  let index = 0;
  for (const char of text) {
    const value = alphabet.indexOf(char);
    if (value < 0) return undefined;
    buffer = ((buffer << 6) | value) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes[index++] = (buffer >>> bits) & 0xff;
    }
  }
  // Leftover bits must be zero, otherwise two texts would decode to the same bytes.
  return (buffer & ((1 << bits) - 1)) === 0 ? bytes : undefined;
}

/**
 * The index of the first lone surrogate in `text` (half of a UTF-16 pair without its other half), or -1. UTF-8
 * cannot encode one: TextEncoder writes U+FFFD in its place, so two different texts would hash and sign alike.
 */
export function loneSurrogateAt(text: string): number {
  // With the u flag a regular expression reads code points: the halves of a pair are one code point outside the range.
  return text.search(/[\uD800-\uDFFF]/u);
}

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] as number) ^ (b[i] as number);
  return diff === 0;
}
