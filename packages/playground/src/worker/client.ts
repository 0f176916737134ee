import { PROTOCOL_VERSION, SELF_CONTAINED_METHODS, type Method, type RequestMessage, type Requests, type ResponseMessage, type SelfContainedMethod } from "./protocol.js";

/**
 * The page's side of the protocol: typed requests to the language worker,
 * matched to their answers by id. A request answers `undefined` when it is
 * stale (the document changed since it was asked), so callers simply drop it;
 * one that carries its own text (`SelfContainedMethod`) is never stale.
 * A worker that fails (it could not load, or crashed) rejects every request
 * waiting and every later one, and tells `onFailure` once.
 */
export interface LanguageClient {
  /** The version the next `update` will carry; every other request asks about this version. */
  readonly version: number;
  update(text: string, filename: string): Promise<Requests["update"]["result"] | undefined>;
  request<M extends Exclude<Method, "update">>(method: M, params: Requests[M]["params"]): Promise<Answer<M>>;
}

/** What a request resolves to: its result, or `undefined` when stale, which a self-contained request never is. */
type Answer<M extends Method> = M extends SelfContainedMethod ? Requests[M]["result"] : Requests[M]["result"] | undefined;

export function createLanguageClient(worker: Worker, onFailure: (error: Error) => void = () => {}): LanguageClient {
  let nextId = 1;
  let version = 0;
  let failure: Error | undefined;
  const pending = new Map<number, { resolve: (result: unknown) => void; reject: (error: Error) => void; versioned: boolean }>();

  worker.addEventListener("error", (event: ErrorEvent) => {
    // Without this, every request would wait forever for a worker that will never answer.
    event.preventDefault();
    if (failure !== undefined) return;
    failure = new Error(`the language worker stopped: ${event.message || "it could not start"}`);
    for (const waiting of pending.values()) waiting.reject(failure);
    pending.clear();
    onFailure(failure);
  });

  worker.addEventListener("message", (event: MessageEvent<ResponseMessage>) => {
    const response = event.data;
    const waiting = pending.get(response.id);
    if (waiting === undefined) return;
    pending.delete(response.id);
    if (response.outcome === "error") waiting.reject(new Error(response.message));
    else waiting.resolve(response.outcome === "stale" || (waiting.versioned && response.version !== version) ? undefined : response.result);
  });

  function send(message: RequestMessage): Promise<unknown> {
    if (failure !== undefined) return Promise.reject(failure);
    return new Promise((resolve, reject) => {
      pending.set(message.id, { resolve, reject, versioned: !SELF_CONTAINED_METHODS.has(message.method) });
      worker.postMessage(message);
    });
  }

  return {
    get version() {
      return version;
    },
    update(text, filename) {
      version += 1;
      return send({ protocol: PROTOCOL_VERSION, id: nextId++, version, method: "update", params: { text, filename } }) as Promise<Requests["update"]["result"] | undefined>;
    },
    request(method, params) {
      return send({ protocol: PROTOCOL_VERSION, id: nextId++, version, method, params } as RequestMessage) as Promise<never>;
    },
  };
}
