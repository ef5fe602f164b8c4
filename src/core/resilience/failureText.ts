// Plain, fixed wording for model-call failures: what failed, and what to try.
import type { ChatProvider, ProviderError } from '../provider';

export interface ModelEndpoint {
  provider: ChatProvider;
  model: string;
}

export function endpointLabel(endpoint: ModelEndpoint): string {
  const server = endpoint.provider.id === 'ollama' ? 'Ollama' : 'the OpenAI-compatible server';
  return `${endpoint.model} on ${server} at ${endpoint.provider.baseUrl}`;
}

export function failureReason(err: ProviderError): string {
  const base = baseReason(err);
  // A refusal (4xx) or an unreadable reply says why in the server's words (a 400 from a validating server, a JSON
  // error sent with 200). A 5xx keeps its short form here; allFailedMessage adds what the server said.
  const words = serverWords(err);
  return words && !isServerFailure(err) ? `${base}: ${words}` : base;
}

function serverWords(err: ProviderError): string | undefined {
  const words = err.options.serverText;
  return words && words !== 'no error text' ? words : undefined;
}

function isServerFailure(err: ProviderError): boolean {
  return err.kind === 'http' && (err.options.status ?? 0) >= 500;
}

function baseReason(err: ProviderError): string {
  const status = err.options.status;
  switch (err.kind) {
    case 'connection_refused':
      return 'the server could not be reached';
    case 'http':
      if (status === 404) return 'the model or endpoint was not found (HTTP 404)';
      if (status !== undefined && status >= 500) return `the server failed (HTTP ${status})`;
      return `the server refused the request (HTTP ${status ?? 'error'})`;
    case 'stream_error':
      return 'the reply broke off with an error';
    case 'incomplete_stream':
      return 'the reply stream ended before the reply was complete';
    case 'empty_response':
      return 'the server sent an empty reply';
    case 'first_byte_timeout':
      return 'the server did not start answering in time';
    case 'invalid_response':
      return `the server sent a reply that could not be read${status !== undefined ? ` (HTTP ${status})` : ''}`;
    case 'aborted':
      return 'the request was cancelled';
  }
}

function adviceFor(err: ProviderError, endpoint: ModelEndpoint): string {
  const status = err.options.status ?? 0;
  if (err.kind === 'connection_refused') {
    return endpoint.provider.id === 'ollama'
      ? 'Start Ollama (`ollama serve`, or open the Ollama app) or correct the server URL in the settings'
      : 'Start the server (LM Studio: Developer tab → start server, or `lms server start`; llama.cpp: `llama-server -m <model.gguf>`; vLLM: `vllm serve <model>`) or correct the base URL in the settings';
  }
  if (err.kind === 'http' && status === 404) return 'Download or load the model (for Ollama: `ollama pull <model>`), or choose another model';
  if (err.kind === 'http' && status >= 500) return 'The server may have crashed or run out of memory: check its log, or try a smaller model or a smaller context size';
  if (err.kind === 'first_byte_timeout') return 'The model may still be loading: wait a moment, or raise the first-reply timeout';
  if (err.kind === 'http' && status === 429) return 'The server is busy or rate-limited: wait a little';
  if ((err.kind === 'http' || err.kind === 'invalid_response') && err.options.serverText) return "Act on the server's message above, or choose another model";
  return 'Check that the model server is running and the model is loaded, or choose another model';
}

export interface EndpointFailure {
  endpoint: ModelEndpoint;
  error: ProviderError;
  attempts: number;
}

export function allFailedMessage(failures: readonly EndpointFailure[]): string {
  const tried = failures
    .map((f) => `${endpointLabel(f.endpoint)}: ${failureReason(f.error)}${f.attempts > 1 ? ` (${f.attempts} attempts)` : ''}`)
    .join('; ');
  const last = failures[failures.length - 1]!;
  const fallbackHint = failures.length === 1 ? ' You can also add fallback models in the settings.' : '';
  const words = serverWords(last.error);
  const said = words && isServerFailure(last.error) ? ` The server said: ${words}.` : '';
  return `The model did not answer. Tried ${tried}. ${adviceFor(last.error, last.endpoint)}, then send the message again.${fallbackHint}${said}`;
}
