/// <reference lib="webworker" />
import { compileForPage } from "./load-missions.js";
import type { CompileReply, CompileRequest } from "./compile-client.js";

/**
 * The time panel's compile worker: the compiler runs here, off the main
 * thread, so a slow compile (a cold JIT on the first edits, a long file)
 * never delays a keystroke. One request at a time, answered in order.
 */
declare const self: DedicatedWorkerGlobalScope;

self.addEventListener("message", (event: MessageEvent<CompileRequest>) => {
  const { id, source, filename } = event.data;
  let reply: CompileReply;
  try {
    reply = { id, compiled: compileForPage(source, filename) };
  } catch (error) {
    reply = { id, failure: error instanceof Error ? error.message : String(error) };
  }
  self.postMessage(reply);
});
