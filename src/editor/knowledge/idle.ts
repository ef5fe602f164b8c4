// Indexing shares the model server with the chat: before each model call it waits until no chat turn runs.
// Pure: the chat's busy flag and its change event are passed in (the chat store's).

export function waitUntilIdle(busy: () => boolean, onChange: (listener: () => void) => () => void, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason);
  if (!busy()) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const finish = (err?: unknown) => {
      off();
      signal.removeEventListener('abort', onAbort);
      if (err === undefined) resolve();
      else reject(err);
    };
    const onAbort = () => finish(signal.reason ?? new DOMException('Indexing was cancelled.', 'AbortError'));
    const off = onChange(() => {
      if (!busy()) finish();
    });
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
