import type { IncomingMessage } from "node:http";
import { HttpError } from "./http-error.js";

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * The JSON body of a request, read up to `limitBytes`:
 * - 415 unless `Content-Type` is `application/json` (any parameters; the body is read as UTF-8 whatever the charset says);
 * - 413 over the limit, from `Content-Length` before anything is read, or as a chunked body grows past it;
 * - 400 `INVALID_JSON` for an empty body, invalid UTF-8 or invalid JSON;
 * - undefined for a request with neither a body nor a `Content-Type`, which the route's schema then refuses.
 *
 * Whatever is left unread after an error is drained by Node, so the connection stays usable.
 * A callback rather than a promise: this runs for every POST, and the promise and its reactions
 * cost measurable throughput. `done` is called at most once; never for a client that goes away mid-body
 * (Node then ends nothing and, with no `error` listener here, emits no error: there is no one left to answer).
 */
export function readJsonBody(request: IncomingMessage, limitBytes: number, done: (error: HttpError | undefined, body?: unknown) => void): void {
  const type = request.headers["content-type"];
  const declared = request.headers["content-length"];
  const chunked = request.headers["transfer-encoding"] !== undefined;
  if (type === undefined && !chunked && (declared === undefined || declared === "0")) {
    done(undefined, undefined);
    return;
  }
  const unsupported = unsupportedType(type);
  if (unsupported !== undefined) {
    done(unsupported);
    return;
  }
  if (declared !== undefined && Number(declared) > limitBytes) {
    done(tooLarge(limitBytes));
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  const onData = (chunk: Buffer) => {
    size += chunk.length;
    if (size <= limitBytes) {
      chunks.push(chunk);
      return;
    }
    // Stop collecting but keep the stream flowing, so the rest is discarded and the reply can go out now.
    request.removeListener("data", onData);
    request.removeListener("end", onEnd);
    request.resume();
    done(tooLarge(limitBytes));
  };
  const onEnd = () => {
    let body: unknown;
    try {
      body = parseJson(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
    } catch (error) {
      done(error as HttpError);
      return;
    }
    done(undefined, body);
  };
  request.on("data", onData);
  request.on("end", onEnd);
}

/**
 * The same rules for a body already read whole (the in-process transport), where an empty `bytes` is no body.
 * Throws the HttpError to answer.
 */
export function parseJsonBody(type: string | undefined, bytes: Buffer, limitBytes: number): unknown {
  if (type === undefined && bytes.length === 0) return undefined;
  const unsupported = unsupportedType(type);
  if (unsupported !== undefined) throw unsupported;
  if (bytes.length > limitBytes) throw tooLarge(limitBytes);
  return parseJson(bytes);
}

function unsupportedType(type: string | undefined): HttpError | undefined {
  if (type !== undefined && mediaType(type) === "application/json") return undefined;
  return new HttpError(415, "UNSUPPORTED_MEDIA_TYPE", `send the body as application/json (got ${JSON.stringify(type ?? "none")})`);
}

function parseJson(bytes: Buffer): unknown {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new HttpError(400, "INVALID_JSON", "the body is not valid UTF-8");
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new HttpError(400, "INVALID_JSON", text.trim() === "" ? "the body is empty; send a JSON object" : `the body is not valid JSON: ${(error as Error).message}`);
  }
}

/** `type/subtype` of a Content-Type, lowercased, without parameters. */
function mediaType(contentType: string): string {
  const end = contentType.indexOf(";");
  return (end === -1 ? contentType : contentType.slice(0, end)).trim().toLowerCase();
}

function tooLarge(limitBytes: number): HttpError {
  return new HttpError(413, "PAYLOAD_TOO_LARGE", `the body is over ${limitBytes} bytes`);
}
