import { base64UrlToBytes, bytesToHex } from "../core/encoding.js";
import { ED25519, ed25519Subtle, type Ed25519Subtle } from "../core/webcrypto.js";
import { TemporalError, TemporalTypeError, describeValue } from "../core/errors.js";
import { VerifyingKey } from "../core/verifying-key.js";
import { onceUnlessRejected } from "./once-unless-rejected.js";
import type { Signer, SigningKey } from "./seams.js";

/** An Ed25519 private key as a JSON Web Key (`d` is the 32-byte seed, `x` the public key, both base64url). */
export interface PrivateKeyJwk {
  readonly kty: "OKP";
  readonly crv: "Ed25519";
  readonly d: string;
  readonly x: string;
}

export interface MemorySignerOptions {
  /**
   * The key to sign with: PKCS#8 DER bytes or a JWK. Without it a new key is
   * generated on first use, which lives as long as the signer.
   */
  readonly privateKey?: Uint8Array | PrivateKeyJwk;
}

const utf8 = new TextEncoder();

/**
 * A signer whose key lives in memory only, through WebCrypto, so it works
 * in browsers, Deno, edge runtimes and Node.js alike. The private key is
 * never extractable once loaded.
 */
export class MemorySigner implements Signer {
  readonly #privateKey: Uint8Array | PrivateKeyJwk | undefined;
  readonly #load = onceUnlessRejected(() => this.#loadKey());

  constructor(options: MemorySignerOptions = {}) {
    this.#privateKey = options.privateKey;
  }

  load(): Promise<SigningKey> {
    return this.#load();
  }

  async #loadKey(): Promise<SigningKey> {
    const crypto = ed25519Subtle("the in-memory signer");
    let privateKey: unknown;
    let rawPublic: Uint8Array;
    if (this.#privateKey === undefined) {
      const pair = await crypto.generateKey(ED25519, false, ["sign", "verify"]);
      privateKey = pair.privateKey;
      rawPublic = new Uint8Array(await crypto.exportKey("raw", pair.publicKey));
    } else {
      ({ privateKey, rawPublic } = await importPrivateKey(crypto, this.#privateKey));
    }
    const verifying = await VerifyingKey.from(rawPublic);
    return {
      verifying,
      async sign(message: string): Promise<string> {
        return bytesToHex(new Uint8Array(await crypto.sign(ED25519, privateKey, utf8.encode(message))));
      },
    };
  }
}

export function createMemorySigner(options: MemorySignerOptions = {}): MemorySigner {
  return new MemorySigner(options);
}

/** WebCrypto cannot derive a public key from a private one, so the key is imported extractable once to read `x`, then again not extractable. */
async function importPrivateKey(crypto: Ed25519Subtle, input: Uint8Array | PrivateKeyJwk): Promise<{ privateKey: unknown; rawPublic: Uint8Array }> {
  const format = input instanceof Uint8Array ? "pkcs8" : "jwk";
  if (format === "jwk" && !isPrivateKeyJwk(input)) {
    throw new TemporalTypeError("KEY_INVALID", `expected an Ed25519 private JWK { kty: "OKP", crv: "Ed25519", d, x } or PKCS#8 bytes, got ${describeValue(input)}`);
  }
  try {
    const readable = await crypto.importKey(format, input, ED25519, true, ["sign"]);
    const { x } = await crypto.exportKey("jwk", readable);
    const rawPublic = base64UrlToBytes(x ?? "");
    if (rawPublic === undefined || rawPublic.length !== 32) throw new Error("the key has no 32-byte public part");
    return { privateKey: await crypto.importKey(format, input, ED25519, false, ["sign"]), rawPublic };
  } catch (error) {
    throw new TemporalError("KEY_INVALID", `the private key given to the in-memory signer is not a usable Ed25519 key (${String(error)})`, { cause: error });
  }
}

function isPrivateKeyJwk(value: unknown): value is PrivateKeyJwk {
  const jwk = value as Partial<PrivateKeyJwk> | null;
  return typeof jwk === "object" && jwk !== null && jwk.kty === "OKP" && jwk.crv === "Ed25519" && typeof jwk.d === "string" && typeof jwk.x === "string";
}
