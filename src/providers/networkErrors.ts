// Turns what fetch and the client libraries throw into ProviderErrors a user can act on.
import { ProviderError } from '../core/provider';
import { capitalise, errorMessage as messageOf } from '../shared/format';

export interface ErrorContext {
  /** e.g. "the OpenAI-compatible server at http://127.0.0.1:1234/v1" */
  serverLabel: string;
  /** What to do when nothing listens there. */
  startHint: string;
  /** The caller's signal: when it fired, whatever was thrown is a cancellation. */
  signal: AbortSignal;
}

/** Library-specific mapping tried before the generic network rules; undefined = not recognised. */
export type SpecificMapper = (err: unknown) => ProviderError | undefined;

const UNREACHABLE = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT']);
const CUT = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_ABORTED']);

export function toProviderError(err: unknown, context: ErrorContext, specific?: SpecificMapper): ProviderError {
  if (err instanceof ProviderError) return err;
  if (context.signal.aborted) return abortedError(err);
  // Our own fetch wrapper's error (serverWords.ts), wrapped by a client library as a "connection error".
  const ours = providerErrorInside(err);
  if (ours) return ours;
  const mapped = specific?.(err);
  if (mapped) return mapped;
  const codes = errorCodes(err);
  if (codes.includes('ECONNREFUSED')) {
    return new ProviderError(
      'connection_refused',
      `Cannot reach ${context.serverLabel}: connection refused (nothing is listening there). ${context.startHint}`,
      { cause: err, retryable: false },
    );
  }
  const unreachable = codes.find((c) => UNREACHABLE.has(c));
  if (unreachable) {
    return new ProviderError(
      'connection_refused',
      `Cannot reach ${context.serverLabel} (${unreachable}). Check the address setting and that the server is running. ${context.startHint}`,
      { cause: err, retryable: false },
    );
  }
  if (codes.some((c) => CUT.has(c)) || messageOf(err) === 'terminated') {
    return incompleteStreamError(context.serverLabel, err);
  }
  if (isAbortError(err)) return abortedError(err);
  if (err instanceof SyntaxError) {
    return new ProviderError('invalid_response', `${capitalise(context.serverLabel)} sent data that is not valid JSON: ${err.message}`, {
      cause: err,
    });
  }
  return new ProviderError('stream_error', `${capitalise(context.serverLabel)} failed: ${messageOf(err)}`, { cause: err });
}

function providerErrorInside(err: unknown): ProviderError | undefined {
  let current: unknown = err;
  for (let depth = 0; current && typeof current === 'object' && depth < 6; depth++) {
    if (current instanceof ProviderError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

export function abortedError(cause?: unknown): ProviderError {
  return new ProviderError('aborted', 'The request was cancelled.', { cause, retryable: false });
}

export function incompleteStreamError(serverLabel: string, cause?: unknown): ProviderError {
  return new ProviderError(
    'incomplete_stream',
    `The reply from ${serverLabel} stopped before it was finished (the connection closed without an end marker). ` +
      'The server may have crashed or run out of memory; try again.',
    { cause },
  );
}

export function emptyResponseError(serverLabel: string): ProviderError {
  return new ProviderError(
    'empty_response',
    `${capitalise(serverLabel)} returned nothing — the prompt may exceed the context length the model was loaded with. ` +
      'Load the model with a larger context, or start a new conversation.',
    { retryable: false },
  );
}

/** Error codes along the `cause` chain (fetch wraps the socket error: TypeError → cause → {code}). */
export function errorCodes(err: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = err;
  for (let depth = 0; current && typeof current === 'object' && depth < 6; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    const nested = (current as { errors?: unknown }).errors;
    if (Array.isArray(nested)) for (const e of nested) codes.push(...errorCodes(e));
    current = (current as { cause?: unknown }).cause;
  }
  return codes;
}

export function isAbortError(err: unknown): boolean {
  return err instanceof Error && (err.name === 'AbortError' || err.name === 'APIUserAbortError');
}

export { messageOf };

/** Appended to HTTP errors that look like "prompt too long", the commonest failure with local models. */
export function contextHint(message: string): string {
  return /context|n_ctx|too long|exceed|token limit/i.test(message)
    ? ' The conversation may be longer than the context the model was loaded with.'
    : '';
}
