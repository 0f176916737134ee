import type { ApiErrorBody } from "../core/service-types.js";

export type ApiErrorDetails = NonNullable<ApiErrorBody["error"]["details"]>;

export interface TemporalApiErrorInit {
  readonly status: number;
  readonly code: string;
  readonly message: string;
  readonly method: string;
  readonly url: string;
  readonly details?: ApiErrorDetails;
  readonly retryAfterMs?: number;
  readonly nextOpenUnixMs?: number;
  readonly cause?: unknown;
}

/**
 * A request to the service that did not produce the expected reply.
 *
 * - An error reply (`{ "error": { code, message, details? } }`): `status` is
 *   the HTTP status and `code` the service's code (`"ANCHOR_NOT_FOUND"`,
 *   `"RATE_LIMITED"`, ...).
 * - A reply of any other shape with a non-2xx status: `code` is
 *   `HTTP_<status>`, for example `HTTP_502` from a proxy.
 * - A 2xx reply whose body is not the JSON expected: `INVALID_RESPONSE`.
 * - No reply at all: `status` 0 and `code` `NETWORK_ERROR` or `TIMEOUT`,
 *   with the underlying error as `cause`.
 */
export class TemporalApiError extends Error {
  /** HTTP status, or 0 when no reply arrived. */
  readonly status: number;
  readonly code: string;
  /** The request, for example `GET` and `http://127.0.0.1:8787/api/v1/core/state`. */
  readonly method: string;
  readonly url: string;
  /** Field problems of a 400 reply, when the service lists them. */
  readonly details?: ApiErrorDetails;
  /** The reply's `Retry-After`, in milliseconds, when it had one (429, 503). */
  readonly retryAfterMs?: number;
  /** The reply's `next_open_unix_ms` (409 `ZTT_WINDOW_CLOSED`): when the ZTT window opens next, by the service's clock. */
  readonly nextOpenUnixMs?: number;

  constructor(init: TemporalApiErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = "TemporalApiError";
    this.status = init.status;
    this.code = init.code;
    this.method = init.method;
    this.url = init.url;
    if (init.details !== undefined) this.details = init.details;
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs;
    if (init.nextOpenUnixMs !== undefined) this.nextOpenUnixMs = init.nextOpenUnixMs;
  }
}
