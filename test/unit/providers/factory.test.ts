import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createProvider, OllamaProvider, OpenAICompatibleProvider, capabilitiesFor } from '../../../src/providers';
import { serverRoot, infoFromModelEntry } from '../../../src/providers/openaiModelInfo';
import { errorCodes, toProviderError } from '../../../src/providers/networkErrors';
import { ProviderError, type ProviderErrorKind } from '../../../src/core/provider';

/** A fetch that records calls and never answers: constructing providers must not use it. */
class RecordingFetch {
  readonly calls: string[] = [];
  readonly fetch: typeof fetch = async (input) => {
    this.calls.push(String(input));
    return new Response('{}');
  };
}

describe('createProvider', () => {
  test('builds an Ollama provider with defaults, without any I/O', () => {
    const recorder = new RecordingFetch();
    const provider = createProvider({ provider: 'ollama', fetch: recorder.fetch });
    assert.ok(provider instanceof OllamaProvider);
    assert.equal(provider.id, 'ollama');
    assert.equal(provider.baseUrl, 'http://127.0.0.1:11434');
    assert.equal(provider.capabilities.keepAlive, true);
    assert.deepEqual(recorder.calls, []);
  });

  test('builds an OpenAI-compatible provider (LM Studio default URL)', () => {
    const recorder = new RecordingFetch();
    const provider = createProvider({ provider: 'openai', fetch: recorder.fetch, apiKey: 'k' });
    assert.ok(provider instanceof OpenAICompatibleProvider);
    assert.equal(provider.baseUrl, 'http://127.0.0.1:1234/v1');
    assert.deepEqual(recorder.calls, []);
  });

  test('uses the configured base URL; blank means default', () => {
    assert.equal(createProvider({ provider: 'openai', baseUrl: 'http://10.0.0.2:8080/v1/' }).baseUrl, 'http://10.0.0.2:8080/v1');
    assert.equal(createProvider({ provider: 'ollama', baseUrl: '  ' }).baseUrl, 'http://127.0.0.1:11434');
  });

  test('an unknown provider is a clear error', () => {
    const settings = JSON.parse('{"provider":"gpt4all"}') as Parameters<typeof createProvider>[0];
    assert.throws(() => createProvider(settings), /Unknown provider "gpt4all": use "ollama" or "openai"/);
  });
});

describe('capabilities', () => {
  test('Ollama can do everything; OpenAI-compatible servers cannot keep models alive or size the context', () => {
    assert.deepEqual(capabilitiesFor('ollama'), {
      thinking: true, keepAlive: true, tools: true, jsonMode: true, streaming: true, embeddings: true, contextSizeApi: true,
    });
    assert.deepEqual(capabilitiesFor('openai'), {
      thinking: true, keepAlive: false, tools: true, jsonMode: true, streaming: true, embeddings: true, contextSizeApi: false,
    });
  });
});

describe('OpenAI-compatible model info helpers', () => {
  test('serverRoot strips /v1', () => {
    assert.equal(serverRoot('http://127.0.0.1:1234/v1'), 'http://127.0.0.1:1234');
    assert.equal(serverRoot('http://host/proxy/v1/'), 'http://host/proxy');
  });

  test('vLLM max_model_len and llama.cpp n_ctx_train are read from /v1/models entries', () => {
    assert.deepEqual(infoFromModelEntry({ id: 'm', max_model_len: 8192 }), { name: 'm', contextLength: 8192, loadedContextLength: 8192 });
    assert.deepEqual(infoFromModelEntry({ id: 'm', meta: { n_ctx_train: 131072 } }), { name: 'm', contextLength: 131072 });
    assert.deepEqual(infoFromModelEntry({ id: 'm' }), { name: 'm' });
  });
});

describe('network error classification', () => {
  const context = { serverLabel: 'the server at http://x', startHint: 'Start it.', signal: new AbortController().signal };
  const kind = (err: unknown): ProviderErrorKind => toProviderError(err, context).kind;

  test('codes are found along the cause chain', () => {
    const err = new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } });
    assert.deepEqual(errorCodes(err), ['ECONNREFUSED']);
    assert.equal(kind(err), 'connection_refused');
    assert.match(toProviderError(err, context).message, /http:\/\/x.*Start it\./);
  });

  test('unreachable hosts, cut sockets, aborts and bad JSON get their own kinds', () => {
    assert.equal(kind(new TypeError('fetch failed', { cause: { code: 'ENOTFOUND' } })), 'connection_refused');
    assert.equal(kind(new TypeError('terminated', { cause: { code: 'UND_ERR_SOCKET' } })), 'incomplete_stream');
    assert.equal(kind(new DOMException('aborted', 'AbortError')), 'aborted');
    assert.equal(kind(new SyntaxError('Unexpected token')), 'invalid_response');
    assert.equal(kind(new Error('weird')), 'stream_error');
  });

  test('anything thrown after the caller aborted is a cancellation', () => {
    const controller = new AbortController();
    controller.abort();
    assert.equal(toProviderError(new Error('x'), { ...context, signal: controller.signal }).kind, 'aborted');
  });

  test('ProviderErrors pass through unchanged', () => {
    const original = new ProviderError('http', 'HTTP 418', { status: 418 });
    assert.equal(toProviderError(original, context), original);
  });
});
