// Embedding endpoints for the fake servers: Ollama's `/api/embed` and OpenAI's `/v1/embeddings`, in their
// exact wire shapes, with a deterministic embedding that makes similarity mean something: a hashed bag of
// word stems (256 dimensions, normalised), so texts sharing words are close. Independent of the harness's
// own tokenizer on purpose: the fake must not agree with our code by construction.
import type { FakeServerHandle, RecordedRequest, ReplyWriter } from './httpHarness';
import { isObject } from './httpHarness';

export const FAKE_EMBEDDING_DIMS = 256;

/** Paths of the embedding endpoints, for counting requests in `handle.log`. */
export const EMBED_PATHS = ['/api/embed', '/v1/embeddings'] as const;

/** Every embedding request the fake server received, in order. */
export function embedRequests(handle: FakeServerHandle): RecordedRequest[] {
  return handle.log.filter((r) => (EMBED_PATHS as readonly string[]).includes(r.path));
}

/** Total inputs embedded across those requests. */
export function embeddedInputCount(handle: FakeServerHandle): number {
  return embedRequests(handle).reduce((n, r) => {
    const input = isObject(r.body) ? r.body.input : undefined;
    return n + (Array.isArray(input) ? input.length : input === undefined ? 0 : 1);
  }, 0);
}

const FILLER = new Set(['a', 'an', 'the', 'and', 'or', 'of', 'to', 'in', 'on', 'for', 'with', 'is', 'are', 'it', 'this', 'that', 'be', 'as', 'by', 'at']);

function stemWord(word: string): string {
  for (const suffix of ['ing', 'ed', 'es', 's', 'e']) {
    if (word.length > suffix.length + 2 && word.endsWith(suffix)) return word.slice(0, -suffix.length);
  }
  return word;
}

/** FNV-1a, 32 bit. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The fake model's embedding of `text`: hashed word stems with a sign bit, plus a small constant, normalised. */
export function fakeEmbedding(text: string, dims = FAKE_EMBEDDING_DIMS): number[] {
  const v = new Array<number>(dims).fill(0);
  const words = text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w && !FILLER.has(w));
  for (const word of words) {
    const h = hash(stemWord(word));
    v[h % dims] += h & 0x80000000 ? -1 : 1;
  }
  v[0] += 0.05; // no all-zero vectors, like a real model
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return v.map((x) => Number((x / norm).toFixed(6)));
}

export interface EmbedRouteOptions {
  /** Models that can embed; undefined: every model name can. */
  embeddingModels?: readonly string[];
  /** A chat model of this name is installed (it answers "does not support embeddings" instead of "not found"). */
  isChatModel: (name: string) => boolean;
  dims?: number;
  /** OpenAI shape only: list `data` last input first (llama.cpp answers in completion order; `index` tells). */
  reversed?: boolean;
}

function canEmbed(name: string, options: EmbedRouteOptions): boolean {
  return !options.embeddingModels || options.embeddingModels.some((m) => m === name || m === `${name}:latest`);
}

function inputsOf(input: unknown): string[] | undefined {
  if (typeof input === 'string') return [input];
  if (Array.isArray(input) && input.every((x) => typeof x === 'string')) return input as string[];
  return undefined;
}

function roughTokens(texts: readonly string[]): number {
  return texts.reduce((n, t) => n + Math.max(1, Math.ceil(t.length / 4)), 0);
}

/** POST /api/embed as Ollama answers it. */
export function answerOllamaEmbed(reply: ReplyWriter, body: unknown, options: EmbedRouteOptions): void {
  if (!isObject(body)) {
    reply.json(400, { error: 'invalid JSON body' });
    return;
  }
  const model = body.model;
  if (typeof model !== 'string' || model === '') {
    reply.json(400, { error: 'model is required' });
    return;
  }
  if (!canEmbed(model, options)) {
    if (options.isChatModel(model)) reply.json(400, { error: `"${model}" does not support embeddings` });
    else reply.json(404, { error: `model "${model}" not found, try pulling it first` });
    return;
  }
  const inputs = inputsOf(body.input ?? []);
  if (!inputs) {
    reply.json(400, { error: 'invalid input type' });
    return;
  }
  reply.json(200, {
    model,
    embeddings: inputs.map((t) => fakeEmbedding(t, options.dims)),
    total_duration: 14_143_917,
    load_duration: 1_019_500,
    prompt_eval_count: roughTokens(inputs),
  });
}

/** POST /v1/embeddings as an OpenAI-compatible server answers it (float or base64 encoding). */
export function answerOpenAIEmbed(reply: ReplyWriter, body: unknown, options: EmbedRouteOptions): void {
  const error = (status: number, message: string, type: string) => reply.json(status, { error: { code: status, message, type } });
  if (!isObject(body)) {
    error(400, 'request body is not a JSON object', 'invalid_request_error');
    return;
  }
  const model = body.model;
  if (typeof model !== 'string' || model === '') {
    error(400, '"model" is required', 'invalid_request_error');
    return;
  }
  if (!canEmbed(model, options)) {
    if (options.isChatModel(model)) error(400, `Model "${model}" is not an embedding model`, 'invalid_request_error');
    else error(404, `model "${model}" not found`, 'not_found_error');
    return;
  }
  const inputs = inputsOf(body.input);
  if (!inputs || inputs.length === 0) {
    error(400, '"input" must be a non-empty string or array of strings', 'invalid_request_error');
    return;
  }
  const base64 = body.encoding_format === 'base64';
  const tokens = roughTokens(inputs);
  const data = inputs.map((t, index) => {
    const vector = fakeEmbedding(t, options.dims);
    return { object: 'embedding', index, embedding: base64 ? Buffer.from(Float32Array.from(vector).buffer).toString('base64') : vector };
  });
  reply.json(200, {
    object: 'list',
    data: options.reversed ? data.reverse() : data,
    model,
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  });
}
