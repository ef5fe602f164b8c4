// Short, separate deadlines for the small requests around a chat: model info (`/api/show`, `/api/ps`,
// `/v1/models`, `/props`) and embeddings. A server that accepts connections and never answers must be named
// within seconds, not after the chat's five-minute cold-load allowance. While waiting, the caller hears what
// it is waiting for (`onWaiting`), so the CLI and the chat can say it.
import { ProviderError } from '../core/provider';
import { capitalise } from '../shared/format';
import { linkAbort } from './abort';
import type { ProviderClock } from './clock';

/** Model-info requests answer from metadata: 15 s is generous even for a busy server. */
export const DEFAULT_INFO_TIMEOUT_MS = 15_000;
/** One embedding batch; a cold embedding model loads in seconds, not minutes. */
export const DEFAULT_EMBED_TIMEOUT_MS = 30_000;
/** Say what we are waiting for after this long. */
export const WAIT_NOTICE_DELAY_MS = 2_000;

export interface DeadlineSettings {
  infoTimeoutMs: number;
  embedTimeoutMs: number;
  clock: ProviderClock;
  /** Told once per slow request: "waiting for Ollama at … to answer /api/show (model info)". */
  onWaiting?: (message: string) => void;
  /** Set when a model-info request timed out: the next ones within one deadline fail at once, not after another wait. */
  noAnswer?: { at: number; error: ProviderError };
}

export interface DeadlineCall {
  /** "Ollama at http://…", "the OpenAI-compatible server at …" */
  label: string;
  /** What is being asked, for messages: "/api/show (model info)". */
  what: string;
  kind: 'info' | 'embed';
  signal: AbortSignal;
}

/**
 * Runs `fn` with a signal that also fires at the deadline. A timeout becomes a ProviderError that names
 * the server and the request; the caller's own cancellation stays a cancellation.
 */
export async function withDeadline<T>(settings: DeadlineSettings, call: DeadlineCall, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const ms = call.kind === 'info' ? settings.infoTimeoutMs : settings.embedTimeoutMs;
  call.signal.throwIfAborted();
  const recent = settings.noAnswer;
  if (call.kind === 'info' && recent && settings.clock.now() - recent.at < settings.infoTimeoutMs) throw recent.error;
  const abort = linkAbort(call.signal);
  let timedOut = false;
  const waitTimer = settings.onWaiting
    ? settings.clock.setTimeout(() => notify(settings, `waiting for ${call.label} to answer ${call.what}…`), Math.min(WAIT_NOTICE_DELAY_MS, ms / 2))
    : undefined;
  const deadline = settings.clock.setTimeout(() => {
    timedOut = true;
    abort.abort(new Error('deadline'));
  }, ms);
  try {
    const work = fn(abort.signal);
    // Some client libraries ignore the signal while connecting: the deadline must hold anyway.
    const expired = new Promise<never>((_, reject) => {
      abort.signal.addEventListener('abort', () => reject(abort.signal.reason), { once: true });
    });
    work.catch(() => undefined);
    expired.catch(() => undefined);
    const result = await Promise.race([work, expired]);
    if (call.kind === 'info') settings.noAnswer = undefined;
    return result;
  } catch (err) {
    if (timedOut && !call.signal.aborted) {
      const error = deadlineError(call, ms, err);
      if (call.kind === 'info') settings.noAnswer = { at: settings.clock.now(), error };
      throw error;
    }
    throw err;
  } finally {
    if (waitTimer !== undefined) settings.clock.clearTimeout(waitTimer);
    settings.clock.clearTimeout(deadline);
    abort.dispose();
  }
}

export function deadlineError(call: Pick<DeadlineCall, 'label' | 'what'>, ms: number, cause?: unknown): ProviderError {
  return new ProviderError(
    'first_byte_timeout',
    `${capitalise(call.label)} did not answer ${call.what} within ${formatSeconds(ms)}; the server may be hung or overloaded.`,
    { cause, retryable: false },
  );
}

function notify(settings: DeadlineSettings, message: string): void {
  try {
    settings.onWaiting?.(message);
  } catch {
    // A broken listener must not break the request.
  }
}

function formatSeconds(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
}
