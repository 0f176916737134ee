import { createPrivateKey, createPublicKey, generateKeyPair, sign, type KeyObject } from "node:crypto";
import { chmod, stat } from "node:fs/promises";
import { promisify } from "node:util";
import { onceUnlessRejected } from "../authority/once-unless-rejected.js";
import type { Signer, SigningKey } from "../authority/seams.js";
import { TemporalError } from "../core/errors.js";
import { VerifyingKey } from "../core/verifying-key.js";
import { describeErrno, errnoCode } from "./describe-errno.js";
import { isErrno } from "./errors.js";
import { ensureHome, ignoreHomeInGit, type HomePaths } from "./home.js";
import { acquireHomeLock } from "./home-lock.js";
import { readSmallFile, FileTooLargeError } from "./read-small-file.js";
import { writeFileDurably } from "./write-durably.js";

export type { SigningKey } from "../authority/seams.js";

const generateEd25519 = promisify(generateKeyPair);

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
    const existing = await readIfPresent(path);
    if (existing !== undefined) await makeOwnerOnly(path);
    return signingKeyFrom(path, existing ?? (await this.#create()));
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
      const pem = await createKeyFile(path);
      await ignoreHomeInGit(this.#paths);
      return pem;
    } finally {
      await lock.release();
    }
  }
}

/**
 * An Ed25519 key file made elsewhere and never created here: the one key
 * several service nodes share (`temporal-service --signing-key`). A missing
 * file is `KEY_MISSING`, since a key minted by one node would not be the
 * others'; a file that is not such a key is `KEY_INVALID`.
 */
export class KeyFileSigner implements Signer {
  readonly path: string;
  readonly #load = onceUnlessRejected(() => this.#loadKey());

  constructor(path: string) {
    this.path = path;
  }

  load(): Promise<SigningKey> {
    return this.#load();
  }

  async #loadKey(): Promise<SigningKey> {
    const pem = await readIfPresent(this.path);
    if (pem === undefined)
      throw new TemporalError("KEY_MISSING", `signing key ${this.path} does not exist; create it once (temporal-service signing-key create ${this.path}) and give every node the same file`);
    await makeOwnerOnly(this.path);
    return signingKeyFrom(this.path, pem);
  }
}

/** Creates a new PKCS#8 PEM Ed25519 key file (mode 0600) at `path`; `EEXIST` if a file is there already, which is never replaced. */
export async function createSigningKeyFile(path: string): Promise<SigningKey> {
  const pem = await createKeyFile(path, { useExisting: false });
  return signingKeyFrom(path, pem);
}

/**
 * A key file others can read (copied in, or made by a tool with a wide
 * umask) is tightened to 0600 rather than refused: refusing would stop every
 * mission over something the owner can fix, and the key is already exposed.
 * Either way Node's warning channel says so (`TEMPORAL_KEY_MODE`), since
 * the key may have been read. Not on Windows, whose modes say nothing.
 */
async function makeOwnerOnly(path: string): Promise<void> {
  if (process.platform === "win32") return;
  const mode = (await stat(path)).mode & 0o777;
  if ((mode & 0o077) === 0) return;
  const was = `signing key ${path} was readable by others (mode 0${mode.toString(8)})`;
  try {
    await chmod(path, 0o600);
    process.emitWarning(`${was}; it is now 0600; if others did read it, treat the key as exposed.`, { code: "TEMPORAL_KEY_MODE" });
  } catch (error) {
    process.emitWarning(`${was} and could not be made 0600 (${errnoCode(error) ?? String(error)}); restrict it yourself: chmod 600 ${path}`, {
      code: "TEMPORAL_KEY_MODE",
    });
  }
}

/** The most read of a key file (`readSmallFile`): a PEM Ed25519 key is some 120 bytes, so a larger file is no key. */
export const KEY_FILE_LIMIT_BYTES = 65_536;

async function readIfPresent(path: string): Promise<string | undefined> {
  try {
    return await readKeyText(path);
  } catch (error) {
    if (isErrno(error, "ENOENT")) return undefined;
    throw error;
  }
}

/** The text of a key file; `KEY_INVALID` for one too large to be a key (a device such as /dev/zero would be read without end). */
async function readKeyText(path: string): Promise<string> {
  try {
    return (await readSmallFile(path, KEY_FILE_LIMIT_BYTES)).toString("utf8");
  } catch (error) {
    if (error instanceof FileTooLargeError) throw new TemporalError("KEY_INVALID", `key file ${path} is not a key: ${error.message}`);
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

/**
 * Writes the new key aside and links it into place (`writeFileDurably`'s
 * `replace: false`): a crash never leaves half a key, and an existing key is
 * never replaced. With `useExisting` (the home's key) a key already there is
 * used; without, it is `EEXIST`.
 */
async function createKeyFile(path: string, options: { useExisting: boolean } = { useExisting: true }): Promise<string> {
  const { privateKey } = await generateEd25519("ed25519");
  const pem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  try {
    await writeFileDurably(path, pem, { mode: 0o600, replace: false });
  } catch (error) {
    if (!isErrno(error, "EEXIST") || !options.useExisting) throw error;
    // Made by a process that did not take the lock (an older SDK): use that key.
    return readKeyText(path);
  }
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
      // Synchronous on purpose: an Ed25519 signature takes ~35 µs, less than handing it to libuv's thread pool and
      // back; under the PostgreSQL bench the callback form cost the main thread ~3x the CPU of signing in place.
      return sign(null, Buffer.from(message, "utf8"), privateKey).toString("hex");
    },
  };
}

/**
 * A key file that cannot be read (`KEY_MISSING`): it does not exist, it may not be read, or it is a folder. The
 * message names the file, says why in words and what to do; `reason` carries the errno code apart.
 */
export class KeyFileUnreadableError extends TemporalError {
  declare readonly code: "KEY_MISSING";
  /** The key file as the caller gave it (not resolved against the working directory). */
  readonly path: string;
  /** The file system's errno code: `ENOENT`, `EACCES` or `EISDIR`. */
  readonly reason: KeyFileUnreadableReason;
  constructor(path: string, reason: KeyFileUnreadableReason, cause?: unknown) {
    super("KEY_MISSING", `key file ${path} cannot be read: ${describeErrno(reason)}; ${KEY_FILE_REMEDY[reason]}`, { cause });
    this.name = "KeyFileUnreadableError";
    this.path = path;
    this.reason = reason;
  }
}

/** The errno codes that make a key file unreadable rather than invalid, and what the user does about each. */
const KEY_FILE_REMEDY = {
  ENOENT: "give the path of the key's PEM file",
  EISDIR: "give the path of the key's PEM file, not of a folder",
  EACCES: "let this process read it (check the file's owner and permissions)",
} as const;

export type KeyFileUnreadableReason = keyof typeof KEY_FILE_REMEDY;

function isKeyFileUnreadableReason(code: string | undefined): code is KeyFileUnreadableReason {
  return code !== undefined && Object.hasOwn(KEY_FILE_REMEDY, code);
}

/**
 * The Ed25519 public key in a PEM file holding the private key or only its
 * public half: how a retired key (`previousKeys`) is given to a service or
 * to `temporalc ledger verify`. `KEY_MISSING` (`KeyFileUnreadableError`, naming
 * the file) when it cannot be read, `KEY_INVALID` for anything else.
 */
export async function readVerifyingKeyFile(path: string): Promise<VerifyingKey> {
  let jwk: { crv?: string; kty?: string; x?: string };
  try {
    // createPublicKey takes a private key too and gives its public half.
    jwk = createPublicKey(await readKeyText(path)).export({ format: "jwk" });
  } catch (error) {
    if (error instanceof TemporalError) throw error;
    const code = errnoCode(error);
    if (isKeyFileUnreadableReason(code)) throw new KeyFileUnreadableError(path, code, error);
    throw new TemporalError("KEY_INVALID", `key file ${path} is not a readable PEM key`, { cause: error });
  }
  if (jwk.crv !== "Ed25519" || jwk.x === undefined) throw new TemporalError("KEY_INVALID", `key file ${path} holds a ${String(jwk.crv ?? jwk.kty)} key, not Ed25519`);
  return VerifyingKey.from(new Uint8Array(Buffer.from(jwk.x, "base64url")));
}
