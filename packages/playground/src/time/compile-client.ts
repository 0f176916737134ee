import type { CompiledForPage } from "./load-missions.js";

/** The page's side of the compile worker (compile-worker.ts): one promise per request, matched by id. */
export interface CompileRequest {
  readonly id: number;
  readonly source: string;
  readonly filename: string;
}

export type CompileReply = { readonly id: number; readonly compiled: CompiledForPage } | { readonly id: number; readonly failure: string };

export type CompileInWorker = (source: string, filename: string) => Promise<CompiledForPage>;

export function createCompileClient(worker: Worker): CompileInWorker {
  const waiting = new Map<number, { resolve: (compiled: CompiledForPage) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  worker.addEventListener("message", (event: MessageEvent<CompileReply>) => {
    const reply = event.data;
    const request = waiting.get(reply.id);
    waiting.delete(reply.id);
    if (request === undefined) return;
    if ("compiled" in reply) request.resolve(reply.compiled);
    else request.reject(new Error(`the compiler failed: ${reply.failure}`));
  });
  worker.addEventListener("error", (event) => {
    // A worker that cannot start (or crashed) fails every request still waiting, with what the browser said.
    for (const request of waiting.values()) request.reject(new Error(`the compile worker failed: ${event.message || "it could not start"}`));
    waiting.clear();
  });
  return (source, filename) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      worker.postMessage({ id, source, filename } satisfies CompileRequest);
    });
}
