import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { RequestOutcome } from "@temporal/agent-sdk/service";
import { pino, type DestinationStream, type Logger } from "pino";

/** `--log-level` values, most severe first; `silent` logs nothing. */
export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Where and how much the service logs: one JSON line per request at `info`. */
export interface RequestLogOptions {
  readonly level: LogLevel;
  /** Default: standard output. */
  readonly destination?: DestinationStream;
}

/**
 * Where a request's id is kept: on the request itself, since a WeakMap of every request costs the garbage
 * collector more than the rest of the log line (measured: about 3 µs a request against under 1 µs).
 */
const REQUEST_ID = Symbol("temporal.requestId");
type IdentifiedRequest = IncomingMessage & { [REQUEST_ID]?: string };

/** An incoming X-Request-Id is kept when it is 1-128 visible ASCII characters other than `"` and `\`; otherwise one is generated. */
const VALID_REQUEST_ID = /^[!#-[\]-~]{1,128}$/;

/**
 * The request log: one JSON object per line, one line per reply, with the request id the reply carries in `X-Request-Id`.
 * Never logs headers, so neither the API key nor `Authorization` can appear.
 */
export class RequestLog {
  readonly #logger: Logger;

  readonly #stdout: StdoutBatch | undefined;

  constructor(options: RequestLogOptions) {
    this.#stdout = options.destination === undefined ? new StdoutBatch() : undefined;
    // pino's own line format (numeric level, Unix ms time): the cheapest it writes, and what pino-pretty and log collectors read.
    this.#logger = pino({ level: options.level, base: { pid: process.pid } }, options.destination ?? this.#stdout);
  }

  /** The request's id: its valid `X-Request-Id`, else a new UUID; the same for every call about one request. */
  requestId(request: IdentifiedRequest): string {
    let id = request[REQUEST_ID];
    if (id === undefined) {
      const given = request.headers["x-request-id"];
      id = typeof given === "string" && VALID_REQUEST_ID.test(given) ? given : randomUUID();
      request[REQUEST_ID] = id;
    }
    return id;
  }

  /** Logs one reply; `route` is the route template (never the raw path, whose query could hold anything). */
  reply(request: IncomingMessage, outcome: RequestOutcome): void {
    if (!this.#logger.isLevelEnabled("info")) return;
    this.#logger.info(
      {
        req_id: this.requestId(request),
        method: request.method,
        route: outcome.route ?? null,
        status: outcome.status,
        // Microseconds are enough, and a short number is cheaper to write.
        duration_ms: Math.round(outcome.durationMs * 1000) / 1000,
        tier: outcome.tier,
        key_id: outcome.keyId,
        code: outcome.errorCode,
        rate_limited: outcome.rateLimited,
      },
      "request",
    );
  }

  /** Writes out what is buffered, at once. */
  flush(): void {
    this.#stdout?.flush();
  }
}

/** Flushed at once when this much is pending, so a long event-loop turn cannot hold much in memory. */
const BATCH_LIMIT_CHARS = 256 * 1024;

/**
 * Standard output, written once per event-loop turn: a busy service answers many requests in one turn, and one
 * write for all their lines costs a fraction of a write each (a write per line cost about as much as the rest of a
 * request's handling). Lines leave at the end of the turn that answered the requests, through process.stdout, so
 * they stay in order with the service's other lines there (`listening on`, SIGTERM).
 */
class StdoutBatch implements DestinationStream {
  #pending = "";
  #scheduled = false;

  constructor() {
    watchStdout();
  }

  write(line: string): void {
    if (stdoutFailed) return;
    this.#pending += line;
    if (this.#pending.length >= BATCH_LIMIT_CHARS) this.flush();
    else if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  flush(): void {
    this.#scheduled = false;
    if (this.#pending === "" || stdoutFailed) {
      this.#pending = "";
      return;
    }
    process.stdout.write(this.#pending);
    this.#pending = "";
  }
}

let stdoutFailed = false;
let stdoutWatched = false;

/**
 * A reader that goes away (a log collector restarting, `| head`) must not take the service down with an unhandled
 * EPIPE: the request log stops, saying so once on stderr, and requests are still served. One listener per process.
 */
function watchStdout(): void {
  if (stdoutWatched) return;
  stdoutWatched = true;
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (stdoutFailed) return;
    stdoutFailed = true;
    process.stderr.write(`temporal-service: the request log stopped: stdout failed (${error.code ?? error.message}); requests are still served\n`);
  });
}
