// Waits for the first item of a stream with a deadline. Local servers load the model on the first
// request, which can take minutes: after a short delay we report "loading model…" (once), and give up
// with a clear error when the deadline passes. Where the deadline allows for a long prompt read (readingTime.ts),
// the status is an estimate of the reading instead, renewed until the first byte.
import { ProviderError, type ReadingProgress } from '../core/provider';
import type { ProviderClock, TimerHandle } from './clock';
import { readingMessage, type ReadingPlan } from './readingTime';

export interface FirstByteOptions {
  timeoutMs: number;
  statusDelayMs: number;
  clock: ProviderClock;
  /** Aborts the underlying request; called on timeout. */
  abort: () => void;
  /** For the timeout message, e.g. "LM Studio at http://127.0.0.1:1234/v1". */
  serverLabel: string;
  /** The read this request needs, when the speed is known: the status estimates its progress. */
  reading?: ReadingPlan;
  /** Told how long the first item took (a server that reports no reading time is timed by it). */
  onFirstItem?: (waitedMs: number) => void;
}

export type Guarded<T> = { kind: 'status'; message: string; reading?: ReadingProgress } | { kind: 'item'; value: T };

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
  const started = options.clock.now();
  const timeout = after(options.timeoutMs, 'timeout' as const);
  let status: Promise<'status'> = after(options.statusDelayMs, 'status' as const);
  const never = new Promise<never>(() => undefined);

  let result: IteratorResult<T>;
  try {
    let statusShown = false;
    for (;;) {
      const winner = await Promise.race([first.then((r) => ({ r })), timeout, statusShown ? never : status]);
      if (winner === 'status') {
        const plan = options.reading;
        if (!plan) {
          statusShown = true;
          yield { kind: 'status', message: LOADING_STATUS };
          continue;
        }
        const progress = estimatedProgress(plan, options.clock.now() - started);
        // Renewed until the estimate says the read is done; then the last word stands.
        if (progress.processed < progress.total) status = after(options.statusDelayMs, 'status' as const);
        else statusShown = true;
        yield { kind: 'status', message: readingMessage(progress), reading: progress };
        continue;
      }
      if (winner === 'timeout') {
        options.abort();
        throw new ProviderError(
          'first_byte_timeout',
          `${options.serverLabel} sent nothing for ${formatDuration(options.timeoutMs)}. ` +
            (options.reading
              ? `That allowed for reading about ${options.reading.tokens} prompt tokens at the ${Math.round(options.reading.tokensPerSecond)} tokens/s measured earlier. `
              : '') +
            'The model may still be loading or too large for this machine; try again, pick a smaller model, ' +
            'or raise the first-byte timeout.',
          { retryable: true },
        );
      }
      result = winner.r;
      options.onFirstItem?.(options.clock.now() - started);
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

function estimatedProgress(plan: ReadingPlan, elapsedMs: number): ReadingProgress {
  const processed = Math.min(plan.tokens, Math.floor((elapsedMs * plan.tokensPerSecond) / 1000));
  return { processed, total: plan.tokens, estimated: true };
}

function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 120_000) return `${Math.round(ms / 1000)} s`;
  return `${Math.round(ms / 60_000)} min`;
}
