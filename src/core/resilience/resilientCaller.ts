// Calls the model with retries and a fallback chain. Retryable failures (HTTP 5xx, a broken or cut-off
// stream) are retried with backoff; when an endpoint gives up, the next one in the chain takes over for the
// rest of the turn. Streamed text goes through a ReplayGuard so a retry never shows the same text twice, and
// tool calls are only returned from a successful attempt, so they never run twice.
import { ProviderError } from '../provider';
import type { ReplySink } from '../toolProtocol/replyStreamer';
import { abortableSleep, backoffDelay, type Sleep } from './backoff';
import { allFailedMessage, endpointLabel, failureReason, type EndpointFailure, type ModelEndpoint } from './failureText';
import { ReplayGuard } from './replayGuard';

export interface RetrySettings {
  /** Retries per endpoint after the first attempt. */
  maxRetries: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
}

export interface ResilientCallerOptions {
  /** Primary first, then the fallbacks in order. */
  endpoints: readonly ModelEndpoint[];
  retry: RetrySettings;
  /** The real output (the event bus). */
  sink: ReplySink;
  notice: (message: string) => void;
  sleep?: Sleep;
  isRetryable?: (err: ProviderError) => boolean;
}

export type ModelAttempt<T> = (endpoint: ModelEndpoint, sink: ReplySink, signal: AbortSignal) => Promise<T>;

export const RESTART_NOTICE = 'The reply was restarted after a connection problem; the text below replaces the cut-off text above.';

export class ResilientCaller {
  /** The endpoint that answered last; later rounds start there instead of re-trying a dead primary. */
  private active = 0;

  constructor(private readonly options: ResilientCallerOptions) {
    if (options.endpoints.length === 0) throw new Error('at least one model endpoint is required');
  }

  get activeEndpoint(): ModelEndpoint {
    return this.options.endpoints[this.active]!;
  }

  /** Back to the primary (a new turn). */
  reset(): void {
    this.active = 0;
  }

  async call<T>(attempt: ModelAttempt<T>, signal: AbortSignal): Promise<T> {
    const { endpoints, retry, notice } = this.options;
    const sleep = this.options.sleep ?? abortableSleep;
    const isRetryable = this.options.isRetryable ?? ((err: ProviderError) => err.retryable);
    let restartNoticed = false;
    const onDiverge = () => {
      if (restartNoticed) return;
      restartNoticed = true;
      notice(RESTART_NOTICE);
    };
    const text = new ReplayGuard((t) => this.options.sink.text(t), onDiverge);
    const thinking = new ReplayGuard((t) => this.options.sink.thinking(t), onDiverge);
    const guarded: ReplySink = { text: (t) => text.push(t), thinking: (t) => thinking.push(t), status: (m, r) => this.options.sink.status(m, r) };

    const order = endpoints.map((_, i) => (this.active + i) % endpoints.length);
    const failures: EndpointFailure[] = [];
    for (let k = 0; k < order.length; k++) {
      const index = order[k]!;
      const endpoint = endpoints[index]!;
      for (let tryNo = 0; ; tryNo++) {
        restartNoticed = false;
        text.beginAttempt();
        thinking.beginAttempt();
        try {
          const result = await attempt(endpoint, guarded, signal);
          text.finish();
          thinking.finish();
          this.active = index;
          return result;
        } catch (err) {
          if (signal.aborted || !(err instanceof ProviderError) || err.kind === 'aborted') throw err;
          if (isRetryable(err) && tryNo < retry.maxRetries) {
            const asked = err.options.retryAfterMs;
            // The server's Retry-After (429, 503) is honoured, within a bound: a turn never sleeps for minutes.
            const delay = asked !== undefined ? Math.min(Math.max(asked, 0), RETRY_AFTER_MAX_MS) : backoffDelay(tryNo, retry);
            const why = asked !== undefined ? ' as the server asked' : '';
            notice(`${capitalise(failureReason(err))} (${endpointLabel(endpoint)}); retrying in ${seconds(delay)}${why} (attempt ${tryNo + 2} of ${retry.maxRetries + 1}).`);
            await sleep(delay, signal);
            continue;
          }
          failures.push({ endpoint, error: err, attempts: tryNo + 1 });
          break;
        }
      }
      const next = order[k + 1];
      if (next !== undefined) {
        const last = failures[failures.length - 1]!;
        notice(`${endpointLabel(endpoint)} failed: ${failureReason(last.error)}. Continuing with ${endpointLabel(endpoints[next]!)}.`);
      }
    }
    const last = failures[failures.length - 1]!.error;
    throw new ProviderError(last.kind, allFailedMessage(failures), { ...(last.options.status !== undefined && { status: last.options.status }), retryable: false, cause: last });
  }
}

/** Longest Retry-After we wait for; a server asking for more gets this much. */
export const RETRY_AFTER_MAX_MS = 30_000;

function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
