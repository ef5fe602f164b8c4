// Waiting between retries: exponential backoff and a sleep that ends early when the turn is cancelled.
import { ProviderError } from '../provider';

export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

export interface BackoffSettings {
  backoffBaseMs: number;
  backoffMaxMs: number;
}

/** Delay before retry number `retry` (0-based): base, 2×base, 4×base … capped. */
export function backoffDelay(retry: number, settings: BackoffSettings): number {
  return Math.min(settings.backoffMaxMs, settings.backoffBaseMs * 2 ** retry);
}

export const abortableSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    const cancelled = () => new ProviderError('aborted', 'The request was cancelled.', { retryable: false });
    if (signal.aborted) {
      reject(cancelled());
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(cancelled());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
