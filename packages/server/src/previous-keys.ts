import { VerifyingKey, type PublicKeyJwk } from "@temporal/agent-sdk";
import { readVerifyingKeyFile } from "@temporal/agent-sdk/node";
import { ConfigError } from "./config.js";
import type { PreviousKey } from "./node-settings.js";

/**
 * The retired keys of `previous_keys` as verifying keys. A file may hold the
 * old private key or only its public half (PEM); a JWK is taken as it is
 * (`GET keys` of the old deployment prints them). A key that cannot be read
 * is a config error naming it.
 */
export async function loadPreviousKeys(keys: readonly PreviousKey[], configPath: string): Promise<VerifyingKey[]> {
  return Promise.all(
    keys.map((key, index) =>
      loadPreviousKey(key).catch((error: unknown) => {
        throw new ConfigError(
          `config ${configPath} is invalid: previous_keys/${index} ${typeof key === "string" ? `(${key}) ` : ""}is not an Ed25519 public key: ${(error as Error).message}`,
        );
      }),
    ),
  );
}

async function loadPreviousKey(key: PreviousKey): Promise<VerifyingKey> {
  // A JWK's kid is optional here; when given, VerifyingKey checks it matches the key.
  return typeof key === "string" ? readVerifyingKeyFile(key) : VerifyingKey.from(key as PublicKeyJwk);
}
