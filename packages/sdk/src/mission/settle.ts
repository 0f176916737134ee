/** What `settle` resolves to when the deadline passed first. */
export const TIMED_OUT: unique symbol = Symbol("timed out");

export interface SettleOptions {
  /** Stop waiting after this many ms and resolve `TIMED_OUT`. */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
  /** The error to reject with when `signal` aborts (at once if it already has). */
  readonly onAbort: () => unknown;
}

/**
 * Waits for `work`, but no longer than the deadline or the signal allow.
 * The work itself cannot be stopped: it is abandoned, its result ignored
 * (and its rejection handled, so it is never reported as unhandled).
 */
export function settle<T>(work: PromiseLike<T>, options: SettleOptions): Promise<T | typeof TIMED_OUT> {
  const { timeoutMs, signal, onAbort } = options;
  if (signal?.aborted) return Promise.reject(onAbort());
  return new Promise((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const abort = () => finish(() => reject(onAbort()));
    const finish = (outcome: () => void) => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", abort);
      outcome();
    };
    if (timeoutMs !== undefined) timer = setTimeout(() => finish(() => resolve(TIMED_OUT)), timeoutMs);
    signal?.addEventListener("abort", abort, { once: true });
    work.then(
      (value) => finish(() => resolve(value)),
      (error: unknown) => finish(() => reject(error)),
    );
  });
}
