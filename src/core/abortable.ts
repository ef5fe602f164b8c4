// Waiting on something that cannot itself be cancelled (a shared load, a dialog) without making the caller wait
// past its own cancellation: the work goes on, the caller stops waiting.

/** Resolves like `promise`, or rejects with `reason()` (default: the signal's reason) as soon as `signal` aborts. */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal, reason: () => unknown = () => signal.reason): Promise<T> {
  if (signal.aborted) return Promise.reject(reason());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(reason());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}
