// A small LSP client for the tests: the server runs as a real subprocess (the bin, as an editor starts it) and this
// client frames JSON-RPC on its stdin and parses its stdout itself, so it can check that the server writes nothing
// but well-formed `Content-Length` frames there, and write several messages in one chunk (a request and its
// cancellation) when a test needs them to arrive together.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { fileURLToPath } from "node:url";

export const serverBin = fileURLToPath(new URL("../bin/temporal-language-server.js", import.meta.url));

export interface RpcError {
  code: number;
  message: string;
}

interface Message {
  jsonrpc: "2.0";
  id?: number | string;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: RpcError;
}

export class LspProcess {
  /** Everything on stdout that is not a well-formed LSP frame (the tests expect none). */
  readonly stdoutProblems: string[] = [];
  readonly notifications: Message[] = [];
  stderr = "";
  readonly exited: Promise<number | null>;
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #pending = new Map<number | string, { resolve: (value: unknown) => void; reject: (error: RpcError) => void }>();
  readonly #waiters: { method: string; accept: (params: any) => boolean; resolve: (params: any) => void }[] = [];
  #buffer = Buffer.alloc(0);
  #nextId = 1;

  /** Starts `node <script> --stdio`: the bin by default, or another build of the server (the .vsix's bundle). */
  constructor(script = serverBin) {
    this.#child = spawn(process.execPath, [script, "--stdio"], { stdio: ["pipe", "pipe", "pipe"] });
    this.#child.stdout.on("data", (chunk: Buffer) => this.#read(chunk));
    this.#child.stderr.on("data", (chunk: Buffer) => (this.stderr += chunk.toString("utf8")));
    this.exited = new Promise((resolve) => this.#child.on("exit", resolve));
  }

  /** Sends a request and resolves with its result, or rejects with its JSON-RPC error. */
  request<T = any>(method: string, params: unknown): Promise<T> {
    const id = this.#nextId++;
    this.write([{ jsonrpc: "2.0", id, method, params }]);
    return this.response<T>(id);
  }

  response<T = any>(id: number | string): Promise<T> {
    return new Promise((resolve, reject) => this.#pending.set(id, { resolve: resolve as (value: unknown) => void, reject }));
  }

  /** The id the next request will get, for a test that writes the request itself. */
  takeId(): number {
    return this.#nextId++;
  }

  notify(method: string, params: unknown): void {
    this.write([{ jsonrpc: "2.0", method, params }]);
  }

  /** Writes the messages as frames in a single chunk, so the server reads them together. */
  write(messages: Message[]): void {
    this.#child.stdin.write(Buffer.concat(messages.map(frame)));
  }

  /** The next notification of `method` (already received or still to come) whose params `accept`. */
  notification<T = any>(method: string, accept: (params: T) => boolean = () => true): Promise<T> {
    const seen = this.notifications.find((message) => message.method === method && accept(message.params as T));
    if (seen !== undefined) return Promise.resolve(seen.params as T);
    return new Promise((resolve) => this.#waiters.push({ method, accept, resolve }));
  }

  kill(): void {
    this.#child.kill();
  }

  #read(chunk: Buffer): void {
    this.#buffer = Buffer.concat([this.#buffer, chunk]);
    for (;;) {
      const headerEnd = this.#buffer.indexOf("\r\n\r\n");
      if (headerEnd < 0) return;
      const header = this.#buffer.subarray(0, headerEnd).toString("ascii");
      const length = /^Content-Length: (\d+)(\r\nContent-Type: application\/vscode-jsonrpc; charset=utf-8)?$/.exec(header)?.[1];
      if (length === undefined) {
        this.stdoutProblems.push(`not an LSP header: ${JSON.stringify(header)}`);
        this.#buffer = this.#buffer.subarray(headerEnd + 4);
        continue;
      }
      const end = headerEnd + 4 + Number(length);
      if (this.#buffer.length < end) return;
      const body = this.#buffer.subarray(headerEnd + 4, end).toString("utf8");
      this.#buffer = this.#buffer.subarray(end);
      try {
        this.#dispatch(JSON.parse(body) as Message);
      } catch {
        this.stdoutProblems.push(`not JSON: ${JSON.stringify(body)}`);
      }
    }
  }

  #dispatch(message: Message): void {
    if (message.method !== undefined && message.id !== undefined) {
      // A request from the server (registerCapability, workDoneProgress/create, ...): accepted with null.
      this.write([{ jsonrpc: "2.0", id: message.id, result: null }]);
    } else if (message.method !== undefined) {
      this.notifications.push(message);
      for (const waiter of this.#waiters.filter((w) => w.method === message.method && w.accept(message.params))) {
        this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
        waiter.resolve(message.params);
      }
    } else if (message.id !== undefined) {
      const pending = this.#pending.get(message.id);
      this.#pending.delete(message.id);
      if (message.error !== undefined) pending?.reject(message.error);
      else pending?.resolve(message.result ?? null);
    }
  }
}

function frame(message: Message): Buffer {
  const body = Buffer.from(JSON.stringify(message), "utf8");
  return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, "ascii"), body]);
}
