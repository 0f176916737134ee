import { createPrivateKey, createPublicKey, generateKeyPair, randomBytes, sign, type KeyObject } from "node:crypto";
import { link, open, readFile, stat, unlink } from "node:fs/promises";
import { dirname } from "node:path";
import { promisify } from "node:util";
import { onceUnlessRejected } from "../authority/once-unless-rejected.js";
import type { Signer, SigningKey } from "../authority/seams.js";
import { TemporalError } from "../core/errors.js";
import { VerifyingKey } from "../core/verifying-key.js";
import { isErrno } from "./errors.js";
import { ensureHome, type HomePaths } from "./home.js";
import { acquireHomeLock } from "./home-lock.js";
import { syncDirectory } from "./sync-directory.js";

export type { SigningKey } from "../authority/seams.js";

const generateEd25519 = promisify(generateKeyPair);
const signAsync = promisify(sign);

export interface FileSignerOptions {
  /** How long to wait for the home's lock when the key has to be created, ms. */
  readonly lockWaitMs?: number;
}

/**
 * The authority's Ed25519 key as a PKCS#8 PEM file in the home (mode 0600).
 * Signing runs on libuv's thread pool so concurrent callers overlap.
 *
 * The key is created when it does not exist and the ledger next to it is
 * empty. A missing key next to a ledger with records is `KEY_MISSING`
 * rather than a reason to mint a new key, which could not verify the
 * ledger's signed heads. Creation happens under the home's lock and the
 * file is linked into place (which fails if it exists), so of processes
 * racing to create it exactly one key is ever made and all of them load it.
 */
export class FileSigner implements Signer {
  readonly #paths: HomePaths;
  readonly #lockWaitMs: number | undefined;
  readonly #load = onceUnlessRejected(() => this.#loadKey());

  constructor(paths: HomePaths, options: FileSignerOptions = {}) {
    this.#paths = paths;
    this.#lockWaitMs = options.lockWaitMs;
  }

  load(): Promise<SigningKey> {
    return this.#load();
  }

  async #loadKey(): Promise<SigningKey> {
    await ensureHome(this.#paths);
    const path = this.#paths.signingKey;
    const pem = (await readIfPresent(path)) ?? (await this.#create());
    return signingKeyFrom(path, pem);
  }

  async #create(): Promise<string> {
    const path = this.#paths.signingKey;
    const lock = await acquireHomeLock(this.#paths.lock, this.#lockWaitMs);
    try {
      // Another process may have created it while this one waited for the lock.
      const existing = await readIfPresent(path);
      if (existing !== undefined) return existing;
      if (await hasContent(this.#paths.ledger)) {
        throw new TemporalError("KEY_MISSING", `signing key ${path} is missing but the ledger next to it has records; restore the key file`);
      }
      return await createKeyFile(path);
    } finally {
      await lock.release();
    }
  }
}

async function readIfPresent(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    if (isErrno(error, "ENOENT")) return undefined;
    throw error;
  }
}

async function hasContent(path: string): Promise<boolean> {
  try {
    return (await stat(path)).size > 0;
  } catch (error) {
    if (isErrno(error, "ENOENT")) return false;
    throw error;
  }
}

/** Writes the new key aside and links it into place: a crash never leaves half a key, and an existing key is never replaced. */
async function createKeyFile(path: string): Promise<string> {
  const { privateKey } = await generateEd25519("ed25519");
  const pem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  const pending = `${path}.${randomBytes(6).toString("hex")}.pending`;
  const handle = await open(pending, "wx", 0o600);
  try {
    await handle.chmod(0o600);
    await handle.writeFile(pem);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await link(pending, path);
  } catch (error) {
    if (!isErrno(error, "EEXIST")) throw error;
    // Made by a process that did not take the lock (an older SDK): use that key.
    return readFile(path, "utf8");
  } finally {
    await unlink(pending);
  }
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
