/**
 * Runs `make` on the first call and gives its promise to every later call,
 * unless it rejects: then the next call runs `make` again. What opening a
 * key or a log needs: done once, but a failure (a locked home, a missing
 * file) is not remembered forever.
 */
export function onceUnlessRejected<T>(make: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () =>
    (pending ??= make().catch((error: unknown) => {
      pending = undefined;
      throw error;
    }));
}
