/**
 * Runs tasks one at a time, in the order they were queued: what keeps an
 * append's read-stage-sign-publish sequence from interleaving with another's.
 */
export class SerialQueue {
  #tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(task);
    // The next task waits for this one to settle either way.
    this.#tail = result.catch(() => undefined);
    return result;
  }

  /** Settles once every task queued so far has. */
  idle(): Promise<void> {
    return this.#tail.then(() => undefined);
  }
}
