import { TemporalError } from "./errors.js";

/** The part of WebCrypto the SDK uses for Ed25519, typed here so the core needs no Node or DOM typings. */
export interface Ed25519Subtle {
  generateKey(algorithm: { name: "Ed25519" }, extractable: boolean, usages: string[]): Promise<{ privateKey: unknown; publicKey: unknown }>;
  importKey(format: "raw" | "pkcs8" | "jwk", keyData: unknown, algorithm: { name: "Ed25519" }, extractable: boolean, usages: string[]): Promise<unknown>;
  exportKey(format: "raw", key: unknown): Promise<ArrayBuffer>;
  exportKey(format: "jwk", key: unknown): Promise<{ x?: string }>;
  sign(algorithm: { name: "Ed25519" }, key: unknown, data: Uint8Array): Promise<ArrayBuffer>;
  verify(algorithm: { name: "Ed25519" }, key: unknown, signature: Uint8Array, data: Uint8Array): Promise<boolean>;
}

export const ED25519 = { name: "Ed25519" } as const;

/** This runtime's WebCrypto; `WEBCRYPTO_UNAVAILABLE` says that `user` (e.g. "the ZTT signer") needs it. */
export function ed25519Subtle(user: string): Ed25519Subtle {
  const crypto = (globalThis as { crypto?: { subtle?: Ed25519Subtle } }).crypto;
  if (crypto?.subtle === undefined) throw new TemporalError("WEBCRYPTO_UNAVAILABLE", `${user} needs WebCrypto (globalThis.crypto.subtle), which this runtime does not provide`);
  return crypto.subtle;
}
