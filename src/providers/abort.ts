// One AbortController per request, tied to the caller's signal, so that we can also abort on our own
// (first-byte timeout, the consumer breaking out of the stream) without touching the caller's signal.

export interface RequestAbort {
  readonly signal: AbortSignal;
  abort(reason?: unknown): void;
  /** Unhooks from the caller's signal; call when the request is over. */
  dispose(): void;
}

export function linkAbort(parent: AbortSignal): RequestAbort {
  const controller = new AbortController();
  const onAbort = () => controller.abort(parent.reason);
  if (parent.aborted) controller.abort(parent.reason);
  else parent.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    abort: (reason) => controller.abort(reason),
    dispose: () => parent.removeEventListener('abort', onAbort),
  };
}

/** A fetch that always uses `signal`, whatever the library passes (ollama-js passes none for GETs). */
export function fetchWithSignal(base: typeof fetch, signal: AbortSignal): typeof fetch {
  return (input, init) => base(input, { ...init, signal });
}
