import { createPrivateKey, createPublicKey, generateKeyPair, sign, type KeyObject } from "node:crypto";
import { open, readFile, rename } from "node:fs/promises";
import { dirname } from "node:path";
import { promisify } from "node:util";
import { TemporalError } from "../core/errors.js";
import { VerifyingKey } from "../core/verifying-key.js";
import { isErrno } from "./errors.js";
import { syncDirectory } from "./sync-directory.js";

const generateEd25519 = promisify(generateKeyPair);
const signAsync = promisify(sign);

/** The authority's Ed25519 key. Signing runs on libuv's thread pool so concurrent callers overlap. */
export interface SigningKey {
  readonly verifying: VerifyingKey;
  /** Ed25519 signature of the UTF-8 message, as 128 lowercase hex digits. */
  sign(message: string): Promise<string>;
}

/**
 * Loads the PKCS#8 PEM private key at `path`, creating it (mode 0600) when it
 * does not exist and `create` is set. A missing key next to an existing
 * ledger is an error rather than a reason to mint a new key, because a new
 * key could not verify the ledger's signed heads.
 */
export async function loadSigningKey(path: string, create: boolean): Promise<SigningKey> {
  let pem: string;
  try {
    pem = await readFile(path, "utf8");
  } catch (error) {
    if (!isErrno(error, "ENOENT")) throw error;
    if (!create) {
      throw new TemporalError("KEY_MISSING", `signing key ${path} is missing but the ledger next to it has records; restore the key file`);
    }
    pem = await createKeyFile(path);
  }
  return signingKeyFrom(path, pem);
}

async function createKeyFile(path: string): Promise<string> {
  const { privateKey } = await generateEd25519("ed25519");
  const pem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  // Written aside and renamed so a crash never leaves a half-written key behind.
  const pending = `${path}.pending`;
  const handle = await open(pending, "w", 0o600);
  try {
    await handle.chmod(0o600);
    await handle.writeFile(pem);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(pending, path);
  await syncDirectory(dirname(path));
  return pem;
}

async function signingKeyFrom(path: string, pem: string): Promise<SigningKey> {
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(pem);
  } catch (error) {
    throw new TemporalError("KEY_INVALID", `signing key ${path} is not a readable PEM private key`, { cause: error });
  }
  if (privateKey.asymmetricKeyType !== "ed25519") {
    throw new TemporalError("KEY_INVALID", `signing key ${path} is an ${String(privateKey.asymmetricKeyType)} key, not Ed25519`);
  }
  const { x } = createPublicKey(privateKey).export({ format: "jwk" });
  const verifying = await VerifyingKey.from(new Uint8Array(Buffer.from(x ?? "", "base64url")));
  return {
    verifying,
    async sign(message: string): Promise<string> {
      return (await signAsync(null, Buffer.from(message, "utf8"), privateKey)).toString("hex");
    },
  };
}
