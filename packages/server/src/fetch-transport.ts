import { STATUS_CODES } from "node:http";
import type { HttpError } from "./http-error.js";
import type { Pipeline, RequestHead, Transport } from "./pipeline.js";
import type { HeaderList } from "./reply.js";
import { parseJsonBody } from "./request-body.js";

/** `globalThis.fetch`'s call shape, answered in this process. */
export type InProcessFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** A request as the in-process transport hands it to the pipeline: the head as Node would see it, and the whole body. */
interface BufferedRequest extends RequestHead {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
  readonly remoteAddress: string;
}

/** Where the pipeline's reply goes: the promise `fetch` returned. */
interface PendingReply {
  replied: boolean;
  readonly resolve: (response: Response) => void;
  readonly reject: (error: unknown) => void;
}

const NO_BODY = Buffer.alloc(0);

const IN_PROCESS_TRANSPORT: Transport<BufferedRequest, PendingReply> = {
  remoteAddress: (request) => request.remoteAddress,
  readJsonBody(request, limitBytes, done) {
    let body: unknown;
    try {
      body = parseJsonBody(request.headers["content-type"], request.body, limitBytes);
    } catch (error) {
      done(error as HttpError);
      return;
    }
    done(undefined, body);
  },
  send(reply, status, headers, body) {
    reply.replied = true;
    reply.resolve(new Response(body ?? null, { status, statusText: STATUS_CODES[status] ?? "", headers: headerPairs(headers) }));
  },
  replied: (reply) => reply.replied,
  abort(reply) {
    reply.replied = true;
    reply.reject(new TypeError("fetch failed: the service dropped the exchange"));
  },
};

export interface InProcessFetchOptions {
  /** The origin it answers, e.g. `http://temporal-service.test`; a request to any other is refused as a network error. */
  readonly origin: string;
  /** The peer address the pipeline sees (rate limits count per address). */
  readonly remoteAddress: string;
}

export interface InProcessEndpoint {
  readonly fetch: InProcessFetch;
  /** Resolves once every request made so far is answered. */
  idle(): Promise<void>;
}

/**
 * A `fetch` that runs `pipeline` in this process, without sockets: the request is built as `fetch` would send
 * it (`new Request`, so the same default headers), its body read whole, and the pipeline's reply returned as a `Response`.
 * Failures that would be network errors (another origin, an aborted signal, a dropped exchange) reject with a `TypeError`, as `fetch` does.
 */
export function inProcessFetch(pipeline: Pipeline, options: InProcessFetchOptions): InProcessEndpoint {
  const serve = pipeline.handler(IN_PROCESS_TRANSPORT);
  const inFlight = new Set<Promise<unknown>>();

  /** Synchronous up to the pipeline for a string body or none (what the SDK's client sends), so a request made before `close()` is one in flight. */
  function exchange(input: string | URL | Request, init: RequestInit | undefined): Promise<Response> {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.origin !== options.origin) throw new TypeError(`fetch failed: this in-process service answers only ${options.origin}, not ${url.origin}`);
    request.signal.throwIfAborted();
    const text = init?.body;
    if (typeof text === "string") return answer(request, url, Buffer.from(text));
    if (request.body === null) return answer(request, url, NO_BODY);
    return request.arrayBuffer().then((bytes) => answer(request, url, Buffer.from(bytes)));
  }

  function answer(request: Request, url: URL, body: Buffer): Promise<Response> {
    const head: BufferedRequest = {
      method: request.method,
      url: `${url.pathname}${url.search}`,
      headers: Object.fromEntries(request.headers),
      body,
      remoteAddress: options.remoteAddress,
    };
    const { signal } = request;
    return new Promise<Response>((resolve, reject) => {
      const onAbort = () => reject(signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
      const settle = <T>(then: (value: T) => void) => (value: T) => {
        signal.removeEventListener("abort", onAbort);
        then(value);
      };
      serve(head, { replied: false, resolve: settle(resolve), reject: settle(reject) });
    });
  }

  return {
    fetch(input, init) {
      let reply: Promise<Response>;
      try {
        reply = exchange(input, init);
      } catch (error) {
        // `fetch` reports every failure by rejecting, never by throwing.
        return Promise.reject(error);
      }
      inFlight.add(reply);
      const forget = () => inFlight.delete(reply);
      reply.then(forget, forget);
      return reply;
    },
    async idle() {
      await Promise.allSettled([...inFlight]);
    },
  };
}

/** The pipeline's flat header list as `[name, value]` pairs for `Response`. */
function headerPairs(headers: HeaderList): [string, string][] {
  const pairs: [string, string][] = [];
  for (let i = 0; i < headers.length; i += 2) pairs.push([headers[i] as string, headers[i + 1] as string]);
  return pairs;
}
