import { STATUS_CODES, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { HttpError, commonHeaders, jsonContentType, type HeaderList } from "@temporal/agent-sdk/service";

/** Answers a request Node's HTTP parser refused (oversized headers, a bad header name, Content-Length with chunked) in the error shape, then closes. */
export function rejectMalformedRequest(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const reply =
    error.code === "HPE_HEADER_OVERFLOW"
      ? new HttpError(431, "HEADERS_TOO_LARGE", "the request headers are over the size limit")
      : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? new HttpError(408, "REQUEST_TIMEOUT", "the request did not arrive in time")
        : new HttpError(400, "MALFORMED_REQUEST", "the request is not valid HTTP/1.1");
  if (socket.writable) {
    const { headers, body } = closingReply(reply);
    headers.push("content-length", String(Buffer.byteLength(body)));
    let head = `HTTP/1.1 ${reply.status} ${STATUS_CODES[reply.status]}\r\n`;
    for (let i = 0; i < headers.length; i += 2) head += `${headers[i]}: ${headers[i + 1]}\r\n`;
    socket.write(`${head}\r\n${body}`);
  }
  socket.destroy();
}

/** HTTP/1.1 requires `Host` (RFC 9112 3.2); HTTP/1.0 may leave it out. */
export function lacksHost(request: IncomingMessage): boolean {
  return request.headers.host === undefined && request.httpVersionMajor === 1 && request.httpVersionMinor >= 1;
}

/** 400 MISSING_HOST in the error shape, then closes: Node's own check (turned off in connection-limits.ts) answers a bare 400. */
export function rejectMissingHost(response: ServerResponse): void {
  const { headers, body } = closingReply(new HttpError(400, "MISSING_HOST", "an HTTP/1.1 request needs a Host header"));
  writeReply(response, 400, headers, body);
}

/**
 * How a reply's body is written: as UTF-8; as Latin-1 for a body known to be ASCII (see Transport.send), which is
 * counted by its length and copied as it is, where UTF-8 would count its bytes in one pass and encode them in
 * another; or left out for a HEAD request, which keeps the body's length.
 */
type BodyWriting = "utf8" | "ascii" | "head";

/**
 * Writes a whole reply with its `Content-Length`. The text is handed to Node as it is, which writes the head and
 * the body in one system call without a buffer of its own.
 */
export function writeReply(response: ServerResponse, status: number, headers: HeaderList, body: string | undefined, writing: BodyWriting = "utf8"): void {
  if (body === undefined) {
    response.writeHead(status, headers).end();
    return;
  }
  headers.push("content-length", String(writing === "ascii" ? body.length : Buffer.byteLength(body)));
  if (writing === "head") response.writeHead(status, headers).end();
  else response.writeHead(status, headers).end(body, writing === "ascii" ? "latin1" : "utf8");
}

/** The headers and JSON body of an error reply after which the connection is closed. */
function closingReply(reply: HttpError): { headers: HeaderList; body: string } {
  const body = JSON.stringify(reply.body);
  const headers = commonHeaders();
  jsonContentType(headers);
  headers.push("connection", "close");
  return { headers, body };
}
