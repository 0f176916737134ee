/// <reference lib="webworker" />
import { createWorkerHandlers } from "./handlers.js";
import type { RequestMessage } from "./protocol.js";

/**
 * The language worker's entry: every request is answered by the handlers
 * off the page's main thread, so analysing, formatting and compiling never
 * block typing.
 */
const scope = self as unknown as DedicatedWorkerGlobalScope;
const handlers = createWorkerHandlers();

scope.addEventListener("message", (event: MessageEvent<RequestMessage>) => {
  void handlers.handle(event.data).then((response) => scope.postMessage(response));
});
