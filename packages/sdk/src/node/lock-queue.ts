interface Waiter {
  readonly grant: () => void;
}

/**
 * One lock's turn within this process: a FIFO of the acquisitions waiting
 * for it, so that they wait in memory, in call order, instead of all polling
 * the lock file. Only the acquisition whose turn it is goes to the file.
 */
export class TurnQueue {
  #busy = false;
  /** When the current turn was given, Unix ms. */
  #turnSince = 0;
  readonly #waiting: Waiter[] = [];
  readonly #onIdle: () => void;

  /** `onIdle` runs when the queue has no turn taken and nobody waiting, so its owner can forget it. */
  constructor(onIdle: () => void) {
    this.#onIdle = onIdle;
  }

  get turnSince(): number {
    return this.#turnSince;
  }

  /**
   * Resolves true when it is the caller's turn, false if `timeoutMs` passes
   * first; rejects with the signal's reason if it aborts first. Joins the
   * queue synchronously, so calls are served in the order they were made.
   */
  wait(timeoutMs: number, signal: AbortSignal | undefined): Promise<boolean> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (!this.#busy && this.#waiting.length === 0) {
      this.#busy = true;
      this.#turnSince = Date.now();
      return Promise.resolve(true);
    }
    return new Promise<boolean>((resolve, reject) => {
      const settle = (outcome: () => void) => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        outcome();
      };
      const waiter: Waiter = { grant: () => settle(() => resolve(true)) };
      const leave = (outcome: () => void) => {
        const index = this.#waiting.indexOf(waiter);
        if (index === -1) return;
        this.#waiting.splice(index, 1);
        settle(outcome);
        if (!this.#busy && this.#waiting.length === 0) this.#onIdle();
      };
      const onAbort = () => leave(() => reject(signal?.reason));
      const timer = setTimeout(() => leave(() => resolve(false)), timeoutMs);
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#waiting.push(waiter);
    });
  }

  /** Ends the current turn and gives the next one to the longest waiter. */
  done(): void {
    const next = this.#waiting.shift();
    if (next !== undefined) {
      this.#turnSince = Date.now();
      next.grant();
      return;
    }
    this.#busy = false;
    this.#onIdle();
  }
}
