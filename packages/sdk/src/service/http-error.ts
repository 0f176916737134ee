/** One problem with one field of a request, as listed in `error.details`. */
export interface FieldProblem {
  readonly field: string;
  readonly problem: string;
}

/**
 * An error the service answers with: the status and the stable code of the
 * `{ "error": { code, message, details? } }` body.
 */
export class HttpError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: readonly FieldProblem[] | undefined;
  readonly headers: Readonly<Record<string, string>>;
  /** More members of the error object, for a client to act on (`next_open_unix_ms` of `ZTT_WINDOW_CLOSED`); ERROR_BODY lists each. */
  readonly extra: Readonly<Record<string, unknown>>;

  constructor(
    status: number,
    code: string,
    message: string,
    options: { details?: readonly FieldProblem[]; headers?: Record<string, string>; extra?: Readonly<Record<string, unknown>> } = {},
  ) {
    super(message);
    this.name = "HttpError";
    this.status = status;
    this.code = code;
    this.details = options.details;
    this.headers = options.headers ?? {};
    this.extra = options.extra ?? {};
  }

  get body(): { error: { code: string; message: string; details?: readonly FieldProblem[] } } {
    const error = { code: this.code, message: this.message, ...this.extra };
    return { error: this.details === undefined ? error : { ...error, details: this.details } };
  }
}
