import { VerifyingKey, jsonSyntaxProblem, type AnchorProof, type KeySet, type PublicKeyJwk, type Receipt, type ZttBundle } from "@temporal/agent-sdk";
import { UsageError, messageOf } from "../errors.js";
import { readFileOrStop } from "../io-errors.js";

/**
 * What `temporalc verify` reads: the file to verify, recognised by its shape, and the keys file (the body of the
 * service's `GET keys`). Every problem is a usage error (exit 2) with a stable code and where it is: a
 * `VerifyUsageError`, or readFileOrStop's for a file that cannot be read (FILE_NOT_FOUND, FILE_UNREADABLE).
 */

type VerifyUsageCode = "INVALID_JSON" | "UNKNOWN_SHAPE" | "INVALID_KEYS" | "INVALID_WITNESS" | "INVALID_WINDOW" | "INVALID_ZONE";

/** A usage problem of `temporalc verify` (exit 2); reading a file is shared with `run` and `show` (FILE_NOT_FOUND, FILE_UNREADABLE). */
export class VerifyUsageError extends UsageError<VerifyUsageCode> {}

/** The things `temporalc verify` knows how to check, as found in a file. */
export type Verifiable =
  { readonly kind: "ztt"; readonly bundle: ZttBundle; readonly payload?: string } | { readonly kind: "receipt"; readonly receipt?: Receipt; readonly proof?: AnchorProof };

export async function readJsonFile(path: string, what: string): Promise<unknown> {
  const text = new TextDecoder().decode(await readFileOrStop(path, what));
  try {
    return JSON.parse(text);
  } catch (error) {
    const { where, reason } = jsonSyntaxProblem(text, error);
    throw new VerifyUsageError("INVALID_JSON", `${where === undefined ? path : `${path}:${where}`}: ${what} is not valid JSON: ${reason}`);
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Recognises what the file holds: a ZTT bundle (as `POST ztt/sign` returns it), or `{ bundle, payload? }`; a
 * receipt and its proof as `{ receipt, proof }` (the body of `POST quantum/verify`); an anchor proof alone (as
 * `POST clockchain/anchor` and `GET clockchain/proof` return it); or a receipt alone (`POST security/tsae`).
 */
export function recognise(value: unknown, path: string): Verifiable {
  if (isObject(value)) {
    if ("ztt_version" in value && "certificate" in value) return { kind: "ztt", bundle: value as unknown as ZttBundle };
    if (isObject(value.bundle)) {
      if (value.payload !== undefined && typeof value.payload !== "string") throw unknownShape(path, "payload, beside bundle, must be the signed text");
      return { kind: "ztt", bundle: value.bundle as unknown as ZttBundle, ...(value.payload === undefined ? {} : { payload: value.payload }) };
    }
    if (isObject(value.receipt) && isObject(value.proof)) return { kind: "receipt", receipt: value.receipt as unknown as Receipt, proof: value.proof as unknown as AnchorProof };
    if ("receipt_hash" in value && "inclusion_proof" in value && "checkpoint" in value) return { kind: "receipt", proof: value as unknown as AnchorProof };
    if ("receipt_version" in value && "signature" in value) return { kind: "receipt", receipt: value as unknown as Receipt };
  }
  throw unknownShape(
    path,
    "expected a ZTT bundle (ztt_version, certificate, ...), { bundle, payload? }, { receipt, proof }, an anchor proof (receipt_hash, inclusion_proof, checkpoint) or a receipt (receipt_version, signature)",
  );
}

function unknownShape(path: string, problem: string): VerifyUsageError {
  return new VerifyUsageError("UNKNOWN_SHAPE", `${path}: not something temporalc verify knows: ${problem}`);
}

/** The keys file: the body of `GET keys`, `{ "keys": { "<key id>": <Ed25519 JWK>, ... }, ... }`, with at least one key that imports. */
export async function readKeySet(path: string): Promise<KeySet> {
  const value = await readJsonFile(path, "the keys file");
  const keys = isObject(value) ? value.keys : undefined;
  if (!isObject(keys) || Object.keys(keys).length === 0) {
    throw new VerifyUsageError("INVALID_KEYS", `${path}: expected the body of the service's GET keys, { "keys": { "<key id>": { "kty": "OKP", "crv": "Ed25519", "x": ... } } }`);
  }
  for (const [id, jwk] of Object.entries(keys)) {
    try {
      await VerifyingKey.from(jwk as PublicKeyJwk);
    } catch (error) {
      throw new VerifyUsageError("INVALID_KEYS", `${path}: keys[${JSON.stringify(id)}] is not an Ed25519 public key: ${messageOf(error)}`);
    }
  }
  return value as KeySet;
}
