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

/** An incoming X-Request-Id is kept when it is 1-128 visible ASCII characters other than `"` and `\`; otherwise one is generated. */
const VALID_REQUEST_ID = /^[!#-[\]-~]{1,128}$/;

/**
 * The request log: one JSON object per line, one line per reply, with the request id the reply carries in `X-Request-Id`.
 * Never logs headers, so neither the API key nor `Authorization` can appear.
 */
export class RequestLog {
  readonly #logger: Logger;
  readonly #ids = new WeakMap<IncomingMessage, string>();

  constructor(options: RequestLogOptions) {
    // Synchronous writes: a line is out before the reply's effects are visible, and nothing is lost when the process dies.
    const destination = options.destination ?? pino.destination({ dest: 1, sync: true });
    this.#logger = pino(
      // Level names rather than pino's numbers, so a line reads on its own.
      { level: options.level, base: { pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime, formatters: { level: (label) => ({ level: label }) } },
      destination,
    );
  }

  /** The request's id: its valid `X-Request-Id`, else a new UUID; the same for every call about one request. */
  requestId(request: IncomingMessage): string {
    let id = this.#ids.get(request);
    if (id === undefined) {
      const given = request.headers["x-request-id"];
      id = typeof given === "string" && VALID_REQUEST_ID.test(given) ? given : randomUUID();
      this.#ids.set(request, id);
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
        duration_ms: Math.round(outcome.durationMs * 1000) / 1000,
        tier: outcome.tier,
        key_id: outcome.keyId,
        code: outcome.errorCode,
        rate_limited: outcome.rateLimited,
      },
      "request",
    );
  }

  flush(): void {
    this.#logger.flush();
  }
}
