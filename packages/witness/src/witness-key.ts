/**
 * The witness's Ed25519 key: a PKCS#8 PEM file (mode 0600), as the SDK
 * keeps an authority's key. Signing runs on libuv's thread pool.
 */

import { createPrivateKey, createPublicKey, generateKeyPair, sign, type KeyObject } from "node:crypto";
import { promisify } from "node:util";
import { TemporalError, createCosigner, isNoteKeyName, type Cosigner } from "@temporal/agent-sdk";
import { KEY_FILE_LIMIT_BYTES, describeIoError, errnoCode, readSmallFile, writeFileDurably } from "@temporal/agent-sdk/node";

const generateEd25519 = promisify(generateKeyPair);
const signAsync = promisify(sign);

/**
 * Creates a new key at `path` and returns the cosigner it makes under
 * `name`. Never overwrites: the file is written durably under a temporary
 * name, then linked into place, which fails if `path` exists.
 */
export async function createWitnessKey(path: string, name: string): Promise<Cosigner> {
  checkName(name);
  const { privateKey } = await generateEd25519("ed25519");
  const pem = privateKey.export({ type: "pkcs8", format: "pem" });
  try {
    await writeFileDurably(path, pem, { mode: 0o600, replace: false });
  } catch (error) {
    const why = errnoCode(error) === "EEXIST" ? "it already exists (a witness key is never replaced: logs trust its public key)" : describeIoError(error);
    throw new TemporalError("INVALID_WITNESS_KEY", `cannot create the witness key ${path}: ${why}`, { cause: error });
  }
  return cosignerOf(privateKey, name);
}

/** The cosigner of the key at `path` under `name`. Throws `INVALID_WITNESS_KEY`. */
export async function loadWitnessKey(path: string, name: string): Promise<Cosigner> {
  checkName(name);
  let pem: string;
  try {
    pem = (await readSmallFile(path, KEY_FILE_LIMIT_BYTES)).toString("utf8");
  } catch (error) {
    // Only a missing key is made by key create; any other file there would be refused as existing.
    const advice = errnoCode(error) === "ENOENT" ? `; create one with \`temporal-witness key create ${path} --name ${name}\`` : "";
    throw new TemporalError("INVALID_WITNESS_KEY", `cannot read the witness key ${path}: ${describeIoError(error)}${advice}`, { cause: error });
  }
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(pem);
  } catch (error) {
    throw new TemporalError("INVALID_WITNESS_KEY", `the witness key ${path} is not a PEM private key`, { cause: error });
  }
  if (privateKey.asymmetricKeyType !== "ed25519") throw new TemporalError("INVALID_WITNESS_KEY", `the witness key ${path} is a ${String(privateKey.asymmetricKeyType)} key, not Ed25519`);
  return cosignerOf(privateKey, name);
}

function cosignerOf(privateKey: KeyObject, name: string): Cosigner {
  const { x } = createPublicKey(privateKey).export({ format: "jwk" });
  const publicKey = new Uint8Array(Buffer.from(x as string, "base64url"));
  return createCosigner(name, publicKey, async (message) => new Uint8Array(await signAsync(null, message, privateKey)));
}

function checkName(name: string): void {
  if (!isNoteKeyName(name))
    throw new TemporalError("INVALID_WITNESS_KEY", `a witness name is non-empty, without spaces, "+" or control characters, such as witness.example/w1; got ${JSON.stringify(name)}`);
}
