// Waits for the first item of a stream with a deadline. Local servers load the model on the first
// request, which can take minutes: after a short delay we report "loading model…" (once), and give up
// with a clear error when the deadline passes.
import { ProviderError } from '../core/provider';
import type { ProviderClock, TimerHandle } from './clock';

export interface FirstByteOptions {
  timeoutMs: number;
  statusDelayMs: number;
  clock: ProviderClock;
  /** Aborts the underlying request; called on timeout. */
  abort: () => void;
  /** For the timeout message, e.g. "LM Studio at http://127.0.0.1:1234/v1". */
  serverLabel: string;
}

export type Guarded<T> = { kind: 'status'; message: string } | { kind: 'item'; value: T };

export const LOADING_STATUS = 'loading model…';

export async function* guardFirstItem<T>(
  open: () => Promise<AsyncIterator<T>>,
  options: FirstByteOptions,
): AsyncGenerator<Guarded<T>> {
  let iterator: AsyncIterator<T> | undefined;
  const first = (async () => {
    iterator = await open();
    return iterator.next();
  })();
  // Observed through the race below; this keeps an abandoned wait from becoming an unhandled rejection.
  first.catch(() => undefined);

  const timers: TimerHandle[] = [];
  const after = <V>(ms: number, value: V) =>
    new Promise<V>((resolve) => timers.push(options.clock.setTimeout(() => resolve(value), ms)));
  const timeout = after(options.timeoutMs, 'timeout' as const);
  const status = after(options.statusDelayMs, 'status' as const);
  const never = new Promise<never>(() => undefined);

  let result: IteratorResult<T>;
  try {
    let statusShown = false;
    for (;;) {
      const winner = await Promise.race([first.then((r) => ({ r })), timeout, statusShown ? never : status]);
      if (winner === 'status') {
        statusShown = true;
        yield { kind: 'status', message: LOADING_STATUS };
        continue;
      }
      if (winner === 'timeout') {
        options.abort();
        throw new ProviderError(
          'first_byte_timeout',
          `${options.serverLabel} sent nothing for ${formatDuration(options.timeoutMs)}. ` +
            'The model may still be loading or too large for this machine; try again, pick a smaller model, ' +
            'or raise the first-byte timeout.',
          { retryable: true },
        );
      }
      result = winner.r;
      break;
    }
  } finally {
    for (const t of timers) options.clock.clearTimeout(t);
  }

  const source = iterator as AsyncIterator<T>;
  try {
    while (!result.done) {
      yield { kind: 'item', value: result.value };
      result = await source.next();
    }
  } finally {
    // The consumer stopped early: let the source release its reader too.
    if (!result.done) await source.return?.().catch(() => undefined);
  }
}

function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 120_000) return `${Math.round(ms / 1000)} s`;
  return `${Math.round(ms / 60_000)} min`;
}
