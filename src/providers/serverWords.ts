// The server's own words when a chat request goes wrong, read from the HTTP response before the client library
// sees it: an HTML error page from a proxy, a JSON error body (in any of the shapes servers use, vLLM's
// top-level `message` included) even with status 200, text where a stream was expected, a whole JSON reply to a
// streamed request, and Retry-After on 429/503. The libraries would turn most of these into "empty reply".
import { ProviderError } from '../core/provider';
import { capitalise } from '../shared/format';
import { contextHint } from './networkErrors';

export interface ServerWordsOptions {
  /** "Ollama at http://…", for messages. */
  label: string;
  /** The content type a streamed chat reply has on this wire. */
  wire: 'ollama' | 'openai';
  /** Extra advice for an HTTP error (Ollama: `ollama pull` for an unknown model); '' for none. */
  hint?: (status: number, words: string, model: string | undefined) => string;
}

/** Longest server text quoted in a message. */
const MAX_QUOTE = 300;
/** Most we read of a body that is not a stream. */
const MAX_BODY = 64 * 1024;

/** A fetch that turns bad chat replies into ProviderErrors with the server's message; other requests pass through. */
export function serverWordsFetch(base: typeof fetch, options: ServerWordsOptions): typeof fetch {
  return async (input, init) => {
    const response = await base(input, init);
    if (!isChatRequest(input, init)) return response;
    if (!response.ok) throw await httpError(response, options, modelOf(init));
    if (!streamed(init)) return response;
    const type = (response.headers.get('content-type') ?? '').toLowerCase();
    if (options.wire === 'ollama' && type.startsWith('application/json')) {
      // A one-line JSON reply is a valid Ollama stream of one chunk, unless it is an error.
      const text = await bodyText(response);
      const error = errorMessageOf(parseJson(text));
      if (error !== undefined) throw errorInsteadOfReply(response.status, error, options);
      return new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
    }
    if (looksLikeStream(type, options.wire)) return response;
    throw await notAStreamError(response, type, options);
  };
}

function isChatRequest(input: Parameters<typeof fetch>[0], init: RequestInit | undefined): boolean {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  const method = (init?.method ?? (typeof input === 'object' && 'method' in input ? input.method : 'GET')).toUpperCase();
  return method === 'POST' && /\/(?:chat\/completions|api\/chat)(?:\?|$)/.test(url);
}

function streamed(init: RequestInit | undefined): boolean {
  return typeof init?.body === 'string' && /"stream"\s*:\s*true/.test(init.body);
}

function looksLikeStream(type: string, wire: ServerWordsOptions['wire']): boolean {
  if (wire === 'openai') return type.includes('text/event-stream');
  return type.includes('ndjson') || type === '';
}

function modelOf(init: RequestInit | undefined): string | undefined {
  const match = typeof init?.body === 'string' ? /"model"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(init.body) : null;
  return match?.[1];
}

async function httpError(response: Response, options: ServerWordsOptions, model: string | undefined): Promise<ProviderError> {
  const text = await bodyText(response);
  const words = serverText(text, response.headers.get('content-type'));
  const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), Date.now());
  const status = response.status;
  const hint = options.hint?.(status, words, model) || (status === 404 ? '' : contextHint(words));
  return new ProviderError('http', `${capitalise(options.label)} answered HTTP ${status}: ${words}.${hint}`, {
    status,
    serverText: words,
    ...(retryAfterMs !== undefined && { retryAfterMs }),
  });
}

async function notAStreamError(response: Response, type: string, options: ServerWordsOptions): Promise<ProviderError> {
  const text = await bodyText(response);
  const json = parseJson(text);
  const label = capitalise(options.label);
  const error = json === undefined ? undefined : errorMessageOf(json);
  if (error !== undefined) return errorInsteadOfReply(response.status, error, options);
  if (json !== undefined) {
    return new ProviderError(
      'invalid_response',
      `${label} sent one whole JSON reply instead of the stream that was asked for (HTTP ${response.status}, ${type || 'no content type'}); the server, or a proxy in front of it, does not stream.`,
      { status: response.status, serverText: 'one whole JSON reply instead of a stream (the server, or a proxy in front of it, does not stream)' },
    );
  }
  const words = serverText(text, type);
  const got = `${type || 'no content type'} instead of a stream: ${words}`;
  return new ProviderError('invalid_response', `${label} answered HTTP ${response.status} with ${got}.`, { status: response.status, serverText: got });
}

function errorInsteadOfReply(status: number, error: string, options: ServerWordsOptions): ProviderError {
  const words = quote(error);
  return new ProviderError('invalid_response', `${capitalise(options.label)} answered HTTP ${status} with an error instead of a reply: ${words}.${contextHint(words)}`, {
    status,
    serverText: words,
  });
}

async function bodyText(response: Response): Promise<string> {
  try {
    const text = await response.text();
    return text.length > MAX_BODY ? text.slice(0, MAX_BODY) : text;
  } catch {
    return '';
  }
}

/** The message in a body: JSON error shapes, the text of an HTML page, or the plain text. */
export function serverText(body: string, contentType: string | null): string {
  const trimmed = body.trim();
  if (trimmed === '') return 'no error text';
  const json = parseJson(trimmed);
  if (json !== undefined) return quote(errorMessageOf(json) ?? trimmed);
  if ((contentType ?? '').includes('html') || /^<(?:!doctype|html)/i.test(trimmed)) return quote(htmlText(trimmed)) || 'an HTML page without text';
  return quote(trimmed);
}

/** `{"error":{"message"}}` (OpenAI, llama.cpp), `{"error":"…"}` (Ollama, LM Studio), `{"message"}` (vLLM), `{"detail"}` (FastAPI). */
export function errorMessageOf(json: unknown): string | undefined {
  if (typeof json !== 'object' || json === null) return undefined;
  const record = json as Record<string, unknown>;
  const error = record.error;
  if (typeof error === 'string' && error) return error;
  if (typeof error === 'object' && error !== null) {
    const message = (error as Record<string, unknown>).message;
    if (typeof message === 'string' && message) return message;
    return JSON.stringify(error);
  }
  if (record.object === 'error' || (record.choices === undefined && record.message !== undefined && typeof record.message === 'string')) {
    return typeof record.message === 'string' ? record.message : undefined;
  }
  if (typeof record.detail === 'string') return record.detail;
  return undefined;
}

/** The title and visible text of an error page, without tags, scripts or styles. */
function htmlText(html: string): string {
  const withoutCode = html.replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ');
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(withoutCode)?.[1]?.trim();
  const body = withoutCode
    .replace(/<title[\s\S]*?<\/title>/i, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
  if (!title) return `an HTML page: ${body}`;
  const rest = body.startsWith(title) ? body.slice(title.length).trim() : body;
  return `an HTML page "${title}"${rest ? `: ${rest}` : ''}`;
}

function quote(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > MAX_QUOTE ? `${oneLine.slice(0, MAX_QUOTE)}…` : oneLine;
}

function parseJson(text: string): unknown {
  const t = text.trim();
  if (!t.startsWith('{') && !t.startsWith('[')) return undefined;
  try {
    return JSON.parse(t) as unknown;
  } catch {
    return undefined;
  }
}

/** Retry-After in seconds or as an HTTP date, in milliseconds from now; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(?:\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
