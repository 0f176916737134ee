/**
 * The witness over HTTP (node:http): `POST /add-checkpoint` and nothing
 * else, with a body size limit; keep-alive is node's default, as the spec
 * asks. Each outcome of the witness becomes its status code and body.
 */

import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddCheckpointOutcome, Witness } from "./add-checkpoint.js";

export interface WitnessServerOptions {
  readonly witness: Witness;
  readonly maxBodyBytes: number;
  /** Where failures of the witness itself (not of requests) are reported; stderr by default. */
  readonly log?: (line: string) => void;
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** An HTTP server (not yet listening) that serves `POST /add-checkpoint`. */
export function createWitnessServer(options: WitnessServerOptions): Server {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  return createServer((request, response) => {
    handle(request, response, options).catch((error: unknown) => {
      log(`temporal-witness: a request failed inside the witness: ${error instanceof Error ? error.message : String(error)}`);
      if (!response.headersSent) reply(response, 500, "text/plain; charset=utf-8", "the witness failed to process the request; it cosigned nothing\n");
      else response.destroy();
    });
  });
}

async function handle(request: IncomingMessage, response: ServerResponse, options: WitnessServerOptions): Promise<void> {
  const path = requestPath(request.url ?? "/");
  if (path !== "/add-checkpoint") return discard(request, response, 404, `no such endpoint ${path}; this witness serves POST /add-checkpoint\n`);
  if (request.method !== "POST") {
    response.setHeader("Allow", "POST");
    return discard(request, response, 405, "add-checkpoint takes POST\n");
  }
  const body = await readBody(request, options.maxBodyBytes);
  // The client went away mid-body: nobody to answer, and nothing failed in the witness (its failures are logged as such).
  if (body === "aborted") return;
  if (body === "too large") return discard(request, response, 413, `the request body is larger than ${options.maxBodyBytes} bytes\n`);
  let text: string;
  try {
    text = strictUtf8.decode(body);
  } catch {
    return reply(response, 400, "text/plain; charset=utf-8", "the request body is not UTF-8\n");
  }
  write(response, await options.witness.addCheckpoint(text));
}

function write(response: ServerResponse, outcome: AddCheckpointOutcome): void {
  if (outcome.status === 200) return reply(response, 200, "text/plain; charset=utf-8", outcome.cosignatures);
  // The spec fixes this body and type: the size of the latest cosigned checkpoint, so the log can retry with the right proof.
  if (outcome.status === 409) return reply(response, 409, "text/x.tlog.size", `${outcome.size}\n`);
  reply(response, outcome.status, "text/plain; charset=utf-8", `${outcome.message}\n`);
}

/** The whole body, "too large" as soon as it passes `limit` bytes (by its Content-Length or as it arrives), or "aborted" when the connection breaks first. */
function readBody(request: IncomingMessage, limit: number): Promise<Uint8Array | "too large" | "aborted"> {
  if (Number(request.headers["content-length"] ?? 0) > limit) return Promise.resolve("too large");
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const onData = (chunk: Buffer) => {
      length += chunk.length;
      if (length > limit) {
        request.off("data", onData);
        resolve("too large");
        return;
      }
      chunks.push(chunk);
    };
    request.on("data", onData);
    request.once("end", () => resolve(new Uint8Array(Buffer.concat(chunks))));
    request.once("error", () => resolve("aborted"));
  });
}

/** Replies without reading the rest of the body, and closes the connection so the unread bytes cannot be taken for a next request. */
function discard(request: IncomingMessage, response: ServerResponse, status: number, message: string): void {
  response.setHeader("Connection", "close");
  reply(response, status, "text/plain; charset=utf-8", message);
  request.resume();
}

function reply(response: ServerResponse, status: number, contentType: string, body: string): void {
  response.writeHead(status, { "Content-Type": contentType, "Content-Length": Buffer.byteLength(body) });
  response.end(body);
}

/**
 * The path of a request target as sent: origin-form (`/add-checkpoint?x`) is read as text, since a URL parser would
 * take `//add-checkpoint` for a host and name `/` in the 404; absolute-form (`http://w.example/add-checkpoint`), which
 * RFC 9112 3.2.2 says a server must accept, is parsed.
 */
function requestPath(target: string): string {
  if (target.startsWith("/")) return target.split("?", 1)[0] as string;
  try {
    return new URL(target).pathname;
  } catch {
    return target;
  }
}
