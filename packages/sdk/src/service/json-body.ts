import { duplicateKeyPointer } from "./duplicate-keys.js";
import { HttpError } from "./http-error.js";

/**
 * The rules for a request's JSON body, whichever transport read it:
 * - 415 unless `Content-Type` is `application/json` (any parameters; the body is read as UTF-8 whatever the charset says),
 *   and for a `Content-Encoding` other than `identity` (the transport's, which sees the headers);
 * - 413 over the limit;
 * - 400 `INVALID_JSON` for an empty body, invalid UTF-8 or invalid JSON;
 * - 400 `DUPLICATE_KEY` for an object with a key twice, at any depth (JSON.parse would keep the last silently).
 */

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * A body already read whole (the in-process transport), where an empty `bytes` without a `Content-Type` is no body.
 * Throws the HttpError to answer.
 */
export function parseJsonBody(type: string | undefined, bytes: Uint8Array, limitBytes: number): unknown {
  if (type === undefined && bytes.length === 0) return undefined;
  const unsupported = unsupportedType(type);
  if (unsupported !== undefined) throw unsupported;
  if (bytes.length > limitBytes) throw tooLarge(limitBytes);
  return parseJson(bytes);
}

/** The 415 to answer for a `Content-Type` that is not JSON, or undefined. */
export function unsupportedType(type: string | undefined): HttpError | undefined {
  // What clients send, checked before the case-folding parse.
  if (type === "application/json" || (type !== undefined && mediaType(type) === "application/json")) return undefined;
  return new HttpError(415, "UNSUPPORTED_MEDIA_TYPE", `send the body as application/json (got ${JSON.stringify(type ?? "none")})`);
}

/** The JSON value of a whole body; throws 400 INVALID_JSON or DUPLICATE_KEY. */
export function parseJson(bytes: Uint8Array): unknown {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new HttpError(400, "INVALID_JSON", "the body is not valid UTF-8");
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new HttpError(400, "INVALID_JSON", text.trim() === "" ? "the body is empty; send a JSON object" : `the body is not valid JSON: ${(error as Error).message}`);
  }
  const duplicate = duplicateKeyPointer(text, value);
  if (duplicate !== undefined) throw new HttpError(400, "DUPLICATE_KEY", `the body has the key at ${duplicate} more than once; send each key once`);
  return value;
}

/**
 * The 415 to answer for a body sent with a `Content-Encoding` (gzip, br, ...), or undefined for none or `identity`:
 * the service reads bodies as they come, and compressed JSON read as text is only "not valid UTF-8".
 */
export function unsupportedEncoding(encoding: string | undefined): HttpError | undefined {
  const coding = encoding?.trim().toLowerCase();
  if (coding === undefined || coding === "" || coding === "identity") return undefined;
  return new HttpError(415, "UNSUPPORTED_MEDIA_TYPE", `the body is sent with Content-Encoding ${JSON.stringify(encoding)}; send it uncompressed, without Content-Encoding`);
}

/** `type/subtype` of a Content-Type, lowercased, without parameters. */
function mediaType(contentType: string): string {
  const end = contentType.indexOf(";");
  return (end === -1 ? contentType : contentType.slice(0, end)).trim().toLowerCase();
}

export function tooLarge(limitBytes: number): HttpError {
  return new HttpError(413, "PAYLOAD_TOO_LARGE", `the body is over ${limitBytes} bytes`);
}
