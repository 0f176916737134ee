import type { IncomingMessage } from "node:http";
import { parseJson, tooLarge, unsupportedEncoding, unsupportedType, type BodyDone } from "@temporal/agent-sdk/service";

/**
 * The JSON body of a Node request, read up to `limitBytes` with the SDK pipeline's rules (its json-body.ts);
 * 413 from `Content-Length` before anything is read, or as a chunked body grows past it; undefined for a
 * request with neither a body nor a `Content-Type`, which the route's schema then refuses.
 *
 * Whatever is left unread after an error is drained by Node, so the connection stays usable.
 * A callback rather than a promise: this runs for every POST, and the promise and its reactions
 * cost measurable throughput. `done` is called at most once; never for a client that goes away mid-body
 * (Node then ends nothing and, with no `error` listener here, emits no error: there is no one left to answer).
 */
export function readJsonBody(request: IncomingMessage, limitBytes: number, done: BodyDone): void {
  const type = request.headers["content-type"];
  const declared = request.headers["content-length"];
  const chunked = request.headers["transfer-encoding"] !== undefined;
  if (type === undefined && !chunked && (declared === undefined || declared === "0")) {
    done(undefined, undefined);
    return;
  }
  const unsupported = unsupportedType(type) ?? unsupportedEncoding(request.headers["content-encoding"]);
  if (unsupported !== undefined) {
    done(unsupported);
    return;
  }
  // With a Content-Length the body is whole once that many bytes came (Node's parser never passes more), so it is
  // answered at once rather than after the stream's "end", which Node emits a tick later through its stream machinery.
  const length = declared === undefined || chunked ? undefined : Number(declared);
  if (length !== undefined && length > limitBytes) {
    done(tooLarge(limitBytes));
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  const finish = () => {
    let body: unknown;
    try {
      body = parseJson(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
    } catch (error) {
      done(error as Parameters<BodyDone>[0]);
      return;
    }
    done(undefined, body);
  };
  if (length === 0) {
    // Nothing will come: Node ends the stream by itself.
    finish();
    return;
  }
  const onData = (chunk: Buffer) => {
    size += chunk.length;
    if (size <= limitBytes) {
      chunks.push(chunk);
      if (size === length) finish();
      return;
    }
    // Stop collecting but keep the stream flowing, so the rest is discarded and the reply can go out now.
    request.removeListener("data", onData);
    request.removeListener("end", finish);
    request.resume();
    done(tooLarge(limitBytes));
  };
  request.on("data", onData);
  if (length === undefined) request.on("end", finish);
}
