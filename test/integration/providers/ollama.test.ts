// OllamaProvider against the fake Ollama server (NDJSON /api/chat) over real HTTP.
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { ProviderError, type ChatRequest } from '../../../src/core/provider';
import { OllamaProvider, NUM_CTX_CAP } from '../../../src/providers/ollama';
import { RAW_ARGUMENTS_KEY } from '../../../src/providers/ollamaMessages';
import { startFakeOllamaServer, type FakeOllamaModel, type FakeServerHandle, type Script } from '../../helpers/fakeLlm';
import { closedPort, collect, collectUntilError, ofType, signal, textOf, thinkingOf } from '../../helpers/fakeLlm/streamHelpers';

const servers: FakeServerHandle[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

const QWEN: FakeOllamaModel = { name: 'qwen3:8b', contextLength: 40960, capabilities: ['completion', 'tools', 'thinking'] };
const LLAMA: FakeOllamaModel = { name: 'llama3.2:3b', contextLength: 131072, capabilities: ['completion', 'tools'] };
const SMALL: FakeOllamaModel = { name: 'tinyllama:1b', contextLength: 2048, capabilities: ['completion'] };

async function setup(
  script: Script,
  providerOptions: { firstByteTimeoutMs?: number; loadingStatusDelayMs?: number; keepAlive?: string | number } = {},
  models: FakeOllamaModel[] = [QWEN, LLAMA, SMALL],
) {
  const server = await startFakeOllamaServer(script, { name: 'ollama provider test', models });
  servers.push(server);
  const provider = new OllamaProvider({ host: server.url, ...providerOptions });
  return { server, provider };
}

function request(overrides: Partial<ChatRequest> = {}): ChatRequest {
  return { model: QWEN.name, messages: [{ role: 'user', content: 'Hi' }], tools: [], signal: signal(), ...overrides };
}

const readFileTool = {
  name: 'read_file',
  description: 'Read a file from the workspace',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};

function options(body: Record<string, unknown> | undefined): Record<string, unknown> {
  const value = body?.options;
  assert.ok(value && typeof value === 'object', 'request has options');
  return value as Record<string, unknown>;
}

describe('OllamaProvider streaming', () => {
  test('plain text streams as text, the final chunk gives usage and done', async () => {
    const { server, provider } = await setup([{ text: 'Hello there, friend.', chunkSize: 3, usage: { prompt: 26, completion: 7 } }]);
    const deltas = await collect(provider.chat(request()));
    assert.equal(textOf(deltas), 'Hello there, friend.');
    assert.ok(ofType(deltas, 'text').length >= 6);
    // A first request: nothing in the loaded model's cache yet (prompt_eval_cached_count 0).
    // The done line's durations (ns) in ms: the fake's fixed load_duration, and no wait set for prompt or reply.
    assert.deepEqual(ofType(deltas, 'usage'), [{ type: 'usage', promptTokens: 26, completionTokens: 7, cachedTokens: 0, timings: { loadMs: 1.334875, promptMs: 0.01, generationMs: 0.01 } }]);
    assert.deepEqual(deltas.at(-1), { type: 'done', finishReason: 'stop' });
    assert.equal(server.requests[0]!.stream, true);
  });

  test('num_ctx defaults to min(model max, 32768) and keep_alive is sent', async () => {
    const { server, provider } = await setup([{ text: 'a' }, { text: 'b' }, { text: 'c' }]);
    await collect(provider.chat(request({ model: QWEN.name })));
    await collect(provider.chat(request({ model: SMALL.name })));
    await collect(provider.chat(request({ model: LLAMA.name })));
    assert.equal(options(server.requests[0]).num_ctx, 32768, 'qwen3 max 40960 is capped');
    assert.equal(options(server.requests[1]).num_ctx, 2048, 'a small model keeps its own max');
    assert.equal(options(server.requests[2]).num_ctx, NUM_CTX_CAP);
    for (const body of server.requests) assert.equal(body.keep_alive, '30m');
  });

  test('num_ctx equals contextSize when given, with num_predict and temperature', async () => {
    const { server, provider } = await setup([{ text: 'a' }], { keepAlive: '5m' });
    await collect(provider.chat(request({ contextSize: 12000, maxTokens: 256, temperature: 0.1 })));
    assert.deepEqual(options(server.requests[0]), { num_ctx: 12000, num_predict: 256, temperature: 0.1 });
    assert.equal(server.requests[0]!.keep_alive, '5m');
  });

  test('/api/show is asked once per model', async () => {
    const { server, provider } = await setup([{ text: 'a' }, { text: 'b' }]);
    await collect(provider.chat(request()));
    await collect(provider.chat(request()));
    assert.equal(server.log.filter((r) => r.path === '/api/show').length, 1);
    assert.equal(options(server.requests[1]).num_ctx, 32768);
  });

  test('think: true is sent only when asked and the model can think', async () => {
    const { server, provider } = await setup([{ thinking: 'Hmm.', text: 'Hi.' }, { text: 'Hi.' }, { text: 'Hi.' }]);
    const thought = await collect(provider.chat(request({ model: QWEN.name, think: true })));
    assert.equal(thinkingOf(thought), 'Hmm.');
    assert.equal(textOf(thought), 'Hi.');
    await collect(provider.chat(request({ model: LLAMA.name, think: true })));
    await collect(provider.chat(request({ model: QWEN.name })));
    assert.equal(server.requests[0]!.think, true);
    assert.ok(!('think' in server.requests[1]!), 'a model without the thinking capability gets no think flag');
    assert.ok(!('think' in server.requests[2]!), 'not asked, not sent');
  });

  test('tool calls arrive whole with object arguments; missing ids are generated', async () => {
    const { server, provider } = await setup([
      {
        toolCalls: [
          { name: 'read_file', arguments: { path: 'src/a.ts' } },
          { name: 'read_file', arguments: { path: 'src/b.ts' }, id: 'call_given' },
        ],
      },
    ]);
    const deltas = await collect(provider.chat(request({ tools: [readFileTool] })));
    const calls = ofType(deltas, 'tool_call').map((d) => d.call);
    assert.equal(calls.length, 2);
    assert.deepEqual(calls.map((c) => [c.name, c.arguments]), [
      ['read_file', { path: 'src/a.ts' }],
      ['read_file', { path: 'src/b.ts' }],
    ]);
    assert.match(calls[0]!.id, /^call_\w+/);
    assert.equal(calls[1]!.id, 'call_given');
    assert.deepEqual(server.requests[0]!.tools, [
      { type: 'function', function: { name: 'read_file', description: readFileTool.description, parameters: readFileTool.parameters } },
    ]);
  });

  test('string arguments (some proxies) are kept as the raw string', async () => {
    const { provider } = await setup([{ toolCalls: [{ name: 'read_file', arguments: { path: 'x.ts' } }], stringArguments: true }]);
    const deltas = await collect(provider.chat(request({ tools: [readFileTool] })));
    assert.equal(ofType(deltas, 'tool_call')[0]?.call.arguments, '{"path":"x.ts"}');
  });

  test('<think> tags in content become thinking, even split across chunks', async () => {
    for (const chunkSize of [1, 3, 6]) {
      const { provider } = await setup([{ thinking: 'check <x> first', text: 'Done.', thinkTags: true, chunkSize }]);
      const deltas = await collect(provider.chat(request()));
      assert.equal(thinkingOf(deltas), 'check <x> first', `chunkSize ${chunkSize}`);
      assert.equal(textOf(deltas), 'Done.', `chunkSize ${chunkSize}`);
    }
  });

  test('history maps to Ollama shapes: object arguments, tool_name on results', async () => {
    const { server, provider } = await setup([{ text: 'ok' }]);
    await collect(
      provider.chat(
        request({
          messages: [
            { role: 'system', content: 'Be brief.' },
            { role: 'user', content: 'Read a.ts' },
            {
              role: 'assistant',
              content: '',
              toolCalls: [
                { id: 'c1', name: 'read_file', arguments: '{"path":"a.ts"}' },
                { id: 'c2', name: 'read_file', arguments: '{"path": broken' },
              ],
            },
            { role: 'tool', content: 'export {}', toolCallId: 'c1', toolName: 'read_file' },
          ],
        }),
      ),
    );
    assert.deepEqual(server.requests[0]!.messages, [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Read a.ts' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [
          { function: { name: 'read_file', arguments: { path: 'a.ts' } } },
          { function: { name: 'read_file', arguments: { [RAW_ARGUMENTS_KEY]: '{"path": broken' } } },
        ],
      },
      { role: 'tool', content: 'export {}', tool_name: 'read_file' },
    ]);
  });
});

describe('OllamaProvider failures', () => {
  test('an {"error"} line inside the stream is stream_error after the earlier text', async () => {
    const { provider } = await setup([{ text: 'partial', fault: 'midstream_error', errorMessage: 'llama runner process has terminated' }]);
    const { deltas, error } = await collectUntilError(provider.chat(request()));
    assert.equal(textOf(deltas), 'partial');
    assert.equal(error.kind, 'stream_error');
    assert.match(error.message, /llama runner process has terminated/);
  });

  test('HTTP 500 with {"error"} reports status and text', async () => {
    const { provider } = await setup([{ fault: 'http500', errorMessage: 'out of memory' }]);
    const { error } = await collectUntilError(provider.chat(request()));
    assert.equal(error.kind, 'http');
    assert.equal(error.options.status, 500);
    assert.match(error.message, /HTTP 500: out of memory/);
  });

  test('an unknown model is HTTP 404 with an `ollama pull` hint', async () => {
    const { provider } = await setup([]);
    const { error } = await collectUntilError(provider.chat(request({ model: 'nope:1b', contextSize: 4096 })));
    assert.equal(error.kind, 'http');
    assert.equal(error.options.status, 404);
    assert.match(error.message, /ollama pull nope:1b/);
  });

  test('an empty stream is empty_response', async () => {
    const { provider } = await setup([{ fault: 'empty' }]);
    const { error } = await collectUntilError(provider.chat(request()));
    assert.equal(error.kind, 'empty_response');
    assert.match(error.message, /context length/);
  });

  test('a stream without done: true is incomplete_stream', async () => {
    const { provider } = await setup([{ text: 'half', fault: 'cut' }]);
    const { deltas, error } = await collectUntilError(provider.chat(request()));
    assert.equal(textOf(deltas), 'half');
    assert.equal(error.kind, 'incomplete_stream');
  });

  test('a reset connection is incomplete_stream', async () => {
    const { provider } = await setup([{ text: 'half', fault: 'reset' }]);
    const { error } = await collectUntilError(provider.chat(request()));
    assert.equal(error.kind, 'incomplete_stream');
  });

  test('connection refused names the URL and `ollama serve`', async () => {
    const port = await closedPort();
    const provider = new OllamaProvider({ host: `http://127.0.0.1:${port}` });
    const { error } = await collectUntilError(provider.chat(request()));
    assert.equal(error.kind, 'connection_refused');
    assert.match(error.message, new RegExp(`http://127\\.0\\.0\\.1:${port}`));
    assert.match(error.message, /ollama serve/);
    await assert.rejects(provider.listModels(signal()), (e: unknown) => e instanceof ProviderError && e.kind === 'connection_refused');
  });

  test('a host without scheme is accepted', () => {
    assert.equal(new OllamaProvider({ host: '127.0.0.1:11434' }).baseUrl, 'http://127.0.0.1:11434');
  });
});

describe('OllamaProvider cancellation and cold starts', () => {
  test('aborting mid-stream fails with aborted and the server sees the socket close', async () => {
    const { server, provider } = await setup([{ text: 'streaming on', fault: 'hang' }]);
    const controller = new AbortController();
    await assert.rejects(
      (async () => {
        for await (const delta of provider.chat(request({ signal: controller.signal }))) {
          if (delta.type === 'text') controller.abort();
        }
      })(),
      (err: unknown) => err instanceof ProviderError && err.kind === 'aborted',
    );
    await server.waitForClientAbort(1);
  });

  test('breaking out of the iteration closes the request', async () => {
    const { server, provider } = await setup([{ text: 'a long reply that keeps going', chunkSize: 2, chunkDelayMs: 30 }]);
    for await (const delta of provider.chat(request())) {
      if (delta.type === 'text') break;
    }
    await server.waitForClientAbort(1);
  });

  test('a slow first byte reports "loading model…" once, then streams', async () => {
    const { provider } = await setup([{ text: 'loaded', delayMs: 400 }], { loadingStatusDelayMs: 50 });
    const deltas = await collect(provider.chat(request()));
    assert.deepEqual(ofType(deltas, 'status'), [{ type: 'status', message: 'loading model…' }]);
    assert.equal(textOf(deltas), 'loaded');
  });

  test('firstByteTimeoutMs gives up with first_byte_timeout and closes the request', async () => {
    const { server, provider } = await setup([{ text: 'too late', delayMs: 5000 }], { firstByteTimeoutMs: 150, loadingStatusDelayMs: 1000 });
    const { error } = await collectUntilError(provider.chat(request()));
    assert.equal(error.kind, 'first_byte_timeout');
    assert.match(error.message, /Ollama at http:\/\/127\.0\.0\.1:\d+ sent nothing for 150 ms/);
    await server.waitForClientAbort(1);
  });
});

describe('OllamaProvider model info', () => {
  test('listModels reads /api/tags', async () => {
    const { provider } = await setup([]);
    assert.deepEqual((await provider.listModels(signal())).map((m) => m.name), [QWEN.name, LLAMA.name, SMALL.name]);
  });

  test('modelInfo reads context length and capabilities from /api/show', async () => {
    const { provider } = await setup([]);
    assert.deepEqual(await provider.modelInfo(QWEN.name, signal()), {
      name: QWEN.name,
      contextLength: 40960,
      // The num_ctx sent when none is configured: the model's maximum, capped at 32,768.
      defaultContextSize: 32768,
      capabilities: ['completion', 'tools', 'thinking'],
    });
  });

  test('modelInfo of an unknown model is a 404 ProviderError', async () => {
    const { provider } = await setup([]);
    await assert.rejects(
      provider.modelInfo('missing:7b', signal()),
      (e: unknown) => e instanceof ProviderError && e.kind === 'http' && e.options.status === 404 && /ollama pull missing:7b/.test(e.message),
    );
  });

  test('an aborted signal cancels modelInfo', async () => {
    const { provider } = await setup([]);
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(provider.modelInfo(QWEN.name, controller.signal), (e: unknown) => e instanceof ProviderError && e.kind === 'aborted');
  });
});
