import { parseJsonBody, type HeaderList, type HttpError, type Pipeline, type RequestHead, type Transport } from "../service/index.js";

/** `globalThis.fetch`'s call shape, answered in this process. */
export type InProcessFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** A request as the in-process transport hands it to the pipeline: the head as Node would see it, and the whole body. */
interface BufferedRequest extends RequestHead {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
  readonly remoteAddress: string;
}

/** Where the pipeline's reply goes: the promise `fetch` returned. */
interface PendingReply {
  replied: boolean;
  readonly resolve: (response: Response) => void;
  readonly reject: (error: unknown) => void;
}

const NO_BODY = new Uint8Array(0);
const utf8 = new TextEncoder();

/** The reason phrases of the statuses the pipeline answers with, as node:http words them. */
const STATUS_TEXT: Readonly<Record<number, string>> = {
  200: "OK",
  201: "Created",
  204: "No Content",
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  408: "Request Timeout",
  413: "Payload Too Large",
  415: "Unsupported Media Type",
  429: "Too Many Requests",
  431: "Request Header Fields Too Large",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

const UTF8 = new TextEncoder();

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
    const bytes = body === undefined ? null : UTF8.encode(body);
    const pairs = headerPairs(headers);
    if (bytes !== null) pairs.push(["content-length", String(bytes.length)]);
    reply.resolve(new Response(bytes, { status, statusText: STATUS_TEXT[status] ?? "", headers: pairs }));
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
    if (url.origin !== options.origin) throw new TypeError(`fetch failed: this stand-in answers only ${options.origin}, not ${url.origin}`);
    request.signal.throwIfAborted();
    const text = init?.body;
    if (typeof text === "string") return answer(request, url, utf8.encode(text));
    if (request.body === null) return answer(request, url, NO_BODY);
    return request.arrayBuffer().then((bytes) => answer(request, url, new Uint8Array(bytes)));
  }

  function answer(request: Request, url: URL, body: Uint8Array): Promise<Response> {
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
      const settle =
        <T>(then: (value: T) => void) =>
        (value: T) => {
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
