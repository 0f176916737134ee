import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import { HttpError, commonHeaders, jsonHeaders } from "@temporal/agent-sdk/service";

/** Answers a request Node's HTTP parser refused (oversized headers, a bad header name, Content-Length with chunked) in the error shape, then closes. */
export function rejectMalformedRequest(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const reply =
    error.code === "HPE_HEADER_OVERFLOW"
      ? new HttpError(431, "HEADERS_TOO_LARGE", "the request headers are over the size limit")
      : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? new HttpError(408, "REQUEST_TIMEOUT", "the request did not arrive in time")
        : new HttpError(400, "MALFORMED_REQUEST", "the request is not valid HTTP/1.1");
  const body = JSON.stringify(reply.body);
  if (socket.writable) {
    const headers = commonHeaders();
    jsonHeaders(headers, body);
    headers.push("connection", "close");
    let head = `HTTP/1.1 ${reply.status} ${STATUS_CODES[reply.status]}\r\n`;
    for (let i = 0; i < headers.length; i += 2) head += `${headers[i]}: ${headers[i + 1]}\r\n`;
    socket.write(`${head}\r\n${body}`);
  }
  socket.destroy();
}
