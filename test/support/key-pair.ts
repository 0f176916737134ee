import { webcrypto } from "node:crypto";

/** A fresh Ed25519 key pair from WebCrypto, whose `generateKey` is typed to give a pair or a single key. */
export async function ed25519KeyPair(extractable: boolean): Promise<webcrypto.CryptoKeyPair> {
  const generated = await webcrypto.subtle.generateKey({ name: "Ed25519" }, extractable, ["sign", "verify"]);
  if (!("privateKey" in generated)) throw new Error("Ed25519 generateKey gave one key, not a pair");
  return generated;
}
