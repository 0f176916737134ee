import { VerifyingKey, type AnchorProof, type KeySet, type PublicKeyJwk, type Receipt, type ZttBundle } from "@temporal/agent-sdk";
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
    const offset = jsonErrorOffset(text);
    const where = offset === undefined ? path : `${path}:${lineColumn(text, offset)}`;
    // V8's message may name a position, which the location above already gives as line:column.
    const reason = messageOf(error)
      .replace(/ in JSON at position \d+.*$/, "")
      .replace(/, "[\s\S]*" is not valid JSON$/, "");
    throw new VerifyUsageError("INVALID_JSON", `${where}: ${what} is not valid JSON: ${reason}`);
  }
}

/** 1-based `line:column` of `offset`, counting columns in UTF-16 code units as editors do. */
function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  return `${line}:${offset - (before.lastIndexOf("\n") + 1) + 1}`;
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const LITERAL = /true|false|null/y;

/**
 * Where `text` stops being JSON (RFC 8259): the offset of the token that breaks it, for the message's location.
 * JSON.parse decides whether the text is JSON; this only says where, since V8 does not always. Undefined when it
 * cannot tell (nesting too deep to walk).
 */
export function jsonErrorOffset(text: string): number | undefined {
  let at = 0;
  const space = () => {
    while (at < text.length && " \t\n\r".includes(text[at] as string)) at++;
  };
  const token = (pattern: RegExp): boolean => {
    pattern.lastIndex = at;
    if (!pattern.test(text)) return false;
    at = pattern.lastIndex;
    return true;
  };
  /** Past the opening bracket: members separated by commas up to `close`, which it steps over. */
  const members = (close: string, member: () => boolean): boolean => {
    at++;
    space();
    for (let first = true; ; first = false) {
      if (text[at] === close && first) break;
      if (!member()) return false;
      space();
      if (text[at] === close) break;
      if (text[at] !== ",") return false;
      at++;
      space();
    }
    at++;
    return true;
  };
  const value = (): boolean => {
    space();
    const first = text[at];
    if (first === "{") {
      return members("}", () => {
        if (!token(STRING)) return false;
        space();
        if (text[at] !== ":") return false;
        at++;
        return value();
      });
    }
    if (first === "[") return members("]", value);
    return token(STRING) || token(NUMBER) || token(LITERAL);
  };
  try {
    if (!value()) return at;
    space();
    return at < text.length ? at : undefined;
  } catch {
    return undefined; // a stack overflow: the location is not worth the depth
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
