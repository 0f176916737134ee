import { TemporalTypeError, describeValue } from "./errors.js";
import { base64UrlToBytes, bytesToBase64Url, hexToBytes } from "./encoding.js";
import { sha256Hex } from "./sha256.js";
import { ED25519, ed25519Subtle } from "./webcrypto.js";
import type { PublicKeyJwk } from "./types.js";

const SIGNATURE_HEX = /^[0-9a-f]{128}$/;
const utf8 = new TextEncoder();

/** A key id is the first 16 hex digits of SHA-256 over the raw 32-byte public key. */
export function keyIdOf(rawPublicKey: Uint8Array): string {
  return sha256Hex(rawPublicKey).slice(0, 16);
}

/** An Ed25519 public key imported once into WebCrypto, for verifying many signatures. */
export class VerifyingKey {
  readonly key_id: string;
  readonly jwk: PublicKeyJwk;
  readonly #cryptoKey: unknown;

  private constructor(jwk: PublicKeyJwk, cryptoKey: unknown) {
    this.key_id = jwk.kid;
    this.jwk = jwk;
    this.#cryptoKey = cryptoKey;
  }

  /** Accepts a JWK (`kty: "OKP", crv: "Ed25519"`; a `kid`, if present, must match) or the raw 32 bytes. */
  static async from(input: PublicKeyInput): Promise<VerifyingKey> {
    if (input instanceof VerifyingKey) return input;
    const raw = rawPublicKey(input);
    const jwk: PublicKeyJwk = { kty: "OKP", crv: "Ed25519", x: bytesToBase64Url(raw), kid: keyIdOf(raw) };
    return new VerifyingKey(jwk, await ed25519Subtle("signature verification").importKey("raw", raw, ED25519, false, ["verify"]));
  }

  /** False, never an exception, for a malformed signature. */
  async verify(signatureHex: string, message: string): Promise<boolean> {
    if (typeof signatureHex !== "string" || !SIGNATURE_HEX.test(signatureHex)) return false;
    return ed25519Subtle("signature verification").verify(ED25519, this.#cryptoKey, hexToBytes(signatureHex), utf8.encode(message));
  }
}

export type PublicKeyInput = PublicKeyJwk | Uint8Array | VerifyingKey;

export function importVerifyingKey(input: PublicKeyInput): Promise<VerifyingKey> {
  return VerifyingKey.from(input);
}

/** The raw 32 bytes of an Ed25519 public key given as a JWK or as those bytes; a coded error otherwise. */
export function rawPublicKey(input: PublicKeyJwk | Uint8Array): Uint8Array {
  if (input instanceof Uint8Array) {
    if (input.length === 32) return input;
    throw new TemporalTypeError("INVALID_PUBLIC_KEY", `a raw Ed25519 public key has 32 bytes, got ${input.length}`);
  }
  const jwk: Partial<PublicKeyJwk> | null = typeof input === "object" ? input : null;
  const raw = jwk?.kty === "OKP" && jwk.crv === "Ed25519" && typeof jwk.x === "string" ? base64UrlToBytes(jwk.x) : undefined;
  if (raw === undefined || raw.length !== 32) {
    throw new TemporalTypeError("INVALID_PUBLIC_KEY", `expected an Ed25519 JWK { kty: "OKP", crv: "Ed25519", x }, got ${describeValue(input)}`);
  }
  if (jwk?.kid !== undefined && jwk.kid !== keyIdOf(raw)) {
    throw new TemporalTypeError("INVALID_PUBLIC_KEY", `JWK kid ${describeValue(jwk.kid)} does not match its key (key id ${keyIdOf(raw)})`);
  }
  return raw;
}
