/**
 * A loopback HTTP server in front of a witness, for tests of the log's side
 * that need a witness to misbehave on cue: down (503), silent (no answer
 * until released), a fork (409 with the submitted checkpoint's own size),
 * its real reply with an extra signature line in front, or a 200 with a given
 * line instead of the real one. It counts requests.
 */

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type ProxyMode = { readonly kind: "forward" | "down" | "fork" | "silent" } | { readonly kind: "prepend" | "replace"; readonly line: string };

export interface WitnessProxy {
  readonly url: string;
  mode: ProxyMode;
  /** Requests received so far. */
  readonly requests: number;
  /** Answers the requests held while silent (with the mode then in force). */
  release(): void;
  close(): Promise<void>;
}

export async function startWitnessProxy(target: string): Promise<WitnessProxy> {
  let requests = 0;
  let held: (() => void)[] = [];
  const state = { mode: { kind: "forward" } as ProxyMode };
  const answer = async (body: string, response: ServerResponse) => {
    const mode = state.mode;
    if (mode.kind === "down") return void response.writeHead(503).end("down for the test\n");
    if (mode.kind === "fork") {
      // The checkpoint's size is the second line of the note, after the `old`, proof and blank lines.
      const note = body.slice(body.indexOf("\n\n") + 2);
      return void response.writeHead(409, { "content-type": "text/x.tlog.size" }).end(`${note.split("\n")[1]}\n`);
    }
    const reply = await fetch(new URL("add-checkpoint", `${target}/`), { method: "POST", body });
    const text = await reply.text();
    response.writeHead(reply.status, { "content-type": reply.headers.get("content-type") ?? "text/plain" });
    if (reply.status === 200 && mode.kind === "replace") return void response.end(mode.line);
    response.end(reply.status === 200 && mode.kind === "prepend" ? mode.line + text : text);
  };
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    requests++;
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const go = () => void answer(Buffer.concat(chunks).toString("utf8"), response).catch(() => response.writeHead(502).end());
      if (state.mode.kind === "silent") held.push(go);
      else go();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get mode() {
      return state.mode;
    },
    set mode(mode: ProxyMode) {
      state.mode = mode;
    },
    get requests() {
      return requests;
    },
    release() {
      const waiting = held;
      held = [];
      for (const go of waiting) go();
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
