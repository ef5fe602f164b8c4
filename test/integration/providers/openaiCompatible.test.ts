// OpenAICompatibleProvider against the fake llama.cpp-style server over real HTTP.
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { ProviderError, type ChatRequest } from '../../../src/core/provider';
import { OpenAICompatibleProvider } from '../../../src/providers/openaiCompatible';
import { startFakeOpenAIServer, type FakeServerHandle, type Script } from '../../helpers/fakeLlm';
import { closedPort, collect, collectUntilError, ofType, signal, textOf, thinkingOf } from '../../helpers/fakeLlm/streamHelpers';

const servers: FakeServerHandle[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function setup(script: Script, options: Parameters<typeof startFakeOpenAIServer>[1] = {}, providerOptions: { firstByteTimeoutMs?: number; loadingStatusDelayMs?: number } = {}) {
  const server = await startFakeOpenAIServer(script, { name: 'openai provider test', ...options });
  servers.push(server);
  const provider = new OpenAICompatibleProvider({ baseUrl: server.url, ...providerOptions });
  return { server, provider };
}

function request(overrides: Partial<ChatRequest> = {}): ChatRequest {
  return { model: 'tiny', messages: [{ role: 'user', content: 'Hi' }], tools: [], signal: signal(), ...overrides };
}

const weatherTool = {
  name: 'get_weather',
  description: 'Get the current weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

describe('OpenAICompatibleProvider streaming', () => {
  test('plain text arrives as text deltas, then usage and done', async () => {
    const { server, provider } = await setup([{ text: 'Once upon a time, a cat.', chunkSize: 3, usage: { prompt: 17, completion: 9 } }]);
    const deltas = await collect(provider.chat(request()));
    assert.equal(textOf(deltas), 'Once upon a time, a cat.');
    assert.ok(ofType(deltas, 'text').length >= 8, 'the text streamed in several pieces');
    // A first request: nothing in the server's cache yet, and it says so (usage.prompt_tokens_details).
    // llama.cpp's timings (prompt_ms, predicted_ms) come along as the server's own durations.
    assert.deepEqual(ofType(deltas, 'usage'), [{ type: 'usage', promptTokens: 17, completionTokens: 9, cachedTokens: 0, timings: { promptMs: 0.01, generationMs: 0.01 } }]);
    assert.deepEqual(deltas.at(-1), { type: 'done', finishReason: 'stop' });
    const body = server.requests[0]!;
    assert.equal(body.stream, true);
    assert.deepEqual(body.stream_options, { include_usage: true });
    assert.equal(body.model, 'tiny');
    assert.ok(!('tools' in body), 'no tools key when there are no tools');
  });

  test('temperature and maxTokens are sent as temperature and max_tokens', async () => {
    const { server, provider } = await setup([{ text: 'ok' }]);
    await collect(provider.chat(request({ temperature: 0.2, maxTokens: 64 })));
    assert.equal(server.requests[0]!.temperature, 0.2);
    assert.equal(server.requests[0]!.max_tokens, 64);
  });

  test('finish reason "length" is passed through', async () => {
    const { provider } = await setup([{ text: 'cut short', finishReason: 'length' }]);
    const deltas = await collect(provider.chat(request()));
    assert.deepEqual(deltas.at(-1), { type: 'done', finishReason: 'length' });
  });

  test('a tool call whose arguments arrive in many pieces is emitted once, whole and raw', async () => {
    const args = '{ "city" :"Paris", "unit" : "celsius" }';
    const { server, provider } = await setup([{ toolCalls: [{ name: 'get_weather', arguments: args, id: 'call_1' }], chunkSize: 2 }]);
    const deltas = await collect(provider.chat(request({ tools: [weatherTool] })));
    assert.deepEqual(ofType(deltas, 'tool_call'), [{ type: 'tool_call', call: { id: 'call_1', name: 'get_weather', arguments: args } }]);
    assert.deepEqual(deltas.at(-1), { type: 'done', finishReason: 'tool_calls' });
    assert.deepEqual(server.requests[0]!.tools, [
      { type: 'function', function: { name: 'get_weather', description: weatherTool.description, parameters: weatherTool.parameters } },
    ]);
  });

  test('several tool calls in one reply keep their order and ids', async () => {
    const { provider } = await setup([
      {
        text: 'Checking both.',
        toolCalls: [
          { name: 'get_weather', arguments: { city: 'Paris' }, id: 'a' },
          { name: 'read_file', arguments: { path: 'src/x.ts' }, id: 'b' },
          { name: 'get_weather', arguments: { city: 'Tokyo' }, id: 'c' },
        ],
        chunkSize: 3,
      },
    ]);
    const deltas = await collect(provider.chat(request({ tools: [weatherTool] })));
    assert.equal(textOf(deltas), 'Checking both.');
    assert.deepEqual(
      ofType(deltas, 'tool_call').map((d) => d.call),
      [
        { id: 'a', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { id: 'b', name: 'read_file', arguments: '{"path":"src/x.ts"}' },
        { id: 'c', name: 'get_weather', arguments: '{"city":"Tokyo"}' },
      ],
    );
  });

  test('whole arguments in a single delta work too', async () => {
    const { provider } = await setup([{ toolCalls: [{ name: 'read_file', arguments: '{"path":"a.ts"}', id: 'x' }], wholeArguments: true }]);
    const deltas = await collect(provider.chat(request()));
    assert.deepEqual(ofType(deltas, 'tool_call')[0]?.call, { id: 'x', name: 'read_file', arguments: '{"path":"a.ts"}' });
  });

  test('invalid JSON arguments are passed on untouched for the registry to report', async () => {
    const { provider } = await setup([{ toolCalls: [{ name: 'read_file', arguments: '{"path": "a.ts"', id: 'x' }] }]);
    const deltas = await collect(provider.chat(request()));
    assert.equal(ofType(deltas, 'tool_call')[0]?.call.arguments, '{"path": "a.ts"');
  });

  test('reasoning_content becomes thinking, separate from the answer', async () => {
    const { provider } = await setup([{ thinking: 'The user greets me.', text: 'Hello!', chunkSize: 2 }]);
    const deltas = await collect(provider.chat(request()));
    assert.equal(thinkingOf(deltas), 'The user greets me.');
    assert.equal(textOf(deltas), 'Hello!');
    const firstText = deltas.findIndex((d) => d.type === 'text');
    const lastThinking = deltas.map((d) => d.type).lastIndexOf('thinking');
    assert.ok(lastThinking < firstText, 'thinking streamed before the answer');
  });

  test('LM Studio style `reasoning` field becomes thinking', async () => {
    const { provider } = await setup([{ thinking: 'Plan: greet back.', text: 'Hi!', reasoningField: 'reasoning' }]);
    const deltas = await collect(provider.chat(request()));
    assert.equal(thinkingOf(deltas), 'Plan: greet back.');
    assert.equal(textOf(deltas), 'Hi!');
  });

  for (const chunkSize of [1, 2, 3, 5, 7]) {
    test(`<think> tags split across chunks of ${chunkSize} never show up as text`, async () => {
      const { provider } = await setup([{ thinking: 'weigh <b> options', text: 'Answer: 42 < 43', thinkTags: true, chunkSize }]);
      const deltas = await collect(provider.chat(request()));
      assert.equal(thinkingOf(deltas), 'weigh <b> options');
      assert.equal(textOf(deltas), 'Answer: 42 < 43');
    });
  }

  test('assistant tool calls and tool results are sent in OpenAI shape', async () => {
    const { server, provider } = await setup([{ text: 'It is 21 degrees.' }]);
    await collect(
      provider.chat(
        request({
          messages: [
            { role: 'system', content: 'Be brief.' },
            { role: 'user', content: 'Weather in Paris?' },
            { role: 'assistant', content: '', toolCalls: [{ id: 'call_abc123', name: 'get_weather', arguments: { city: 'Paris' } }] },
            { role: 'tool', content: '{"temp":21}', toolCallId: 'call_abc123', toolName: 'get_weather' },
          ],
          tools: [weatherTool],
        }),
      ),
    );
    assert.deepEqual(server.requests[0]!.messages, [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Weather in Paris?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_abc123', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
      },
      { role: 'tool', tool_call_id: 'call_abc123', content: '{"temp":21}' },
    ]);
  });

  test('a reply can depend on the request (function step)', async () => {
    const { provider } = await setup([
      (body) => ({ text: `you sent ${body.messages?.length ?? 0} messages` }),
    ]);
    const deltas = await collect(provider.chat(request({ messages: [{ role: 'user', content: 'a' }, { role: 'assistant', content: 'b' }, { role: 'user', content: 'c' }] })));
    assert.equal(textOf(deltas), 'you sent 3 messages');
  });
});

describe('OpenAICompatibleProvider failures', () => {
  test('a mid-stream error event fails with stream_error after the text that came before', async () => {
    const { provider } = await setup([{ text: 'There is', fault: 'midstream_error', errorMessage: 'output does not match the expected format' }]);
    const { deltas, error } = await collectUntilError(provider.chat(request()));
    assert.equal(textOf(deltas), 'There is');
    assert.equal(error.kind, 'stream_error');
    assert.match(error.message, /output does not match the expected format/);
    assert.match(error.message, /code 500/);
    assert.equal(error.retryable, true);
  });

  test('HTTP 200 with an empty stream is empty_response mentioning the context length', async () => {
    const { provider } = await setup([{ fault: 'empty' }]);
    const { deltas, error } = await collectUntilError(provider.chat(request()));
    assert.deepEqual(deltas, []);
    assert.equal(error.kind, 'empty_response');
    assert.match(error.message, /returned nothing/);
    assert.match(error.message, /context length/);
  });

  test('a stream that stops without a finish reason is incomplete_stream', async () => {
    const { provider } = await setup([{ text: 'half a sent', fault: 'cut' }]);
    const { deltas, error } = await collectUntilError(provider.chat(request()));
    assert.equal(textOf(deltas), 'half a sent');
    assert.equal(error.kind, 'incomplete_stream');
  });

  test('tool calls of a cut stream are not emitted', async () => {
    const { provider } = await setup([{ toolCalls: [{ name: 'read_file', arguments: '{"path":"a.ts"}' }], fault: 'cut' }]);
    const { deltas, error } = await collectUntilError(provider.chat(request()));
    assert.equal(ofType(deltas, 'tool_call').length, 0);
    assert.equal(error.kind, 'incomplete_stream');
  });

  test('a connection reset mid-stream is incomplete_stream', async () => {
    const { provider } = await setup([{ text: 'some words', fault: 'reset' }]);
    const { error } = await collectUntilError(provider.chat(request()));
    assert.equal(error.kind, 'incomplete_stream');
  });

  test('HTTP 500 reports the status and the server text', async () => {
    const { provider } = await setup([{ fault: 'http500', errorMessage: 'slot unavailable' }]);
    const { error } = await collectUntilError(provider.chat(request()));
    assert.equal(error.kind, 'http');
    assert.equal(error.options.status, 500);
    assert.match(error.message, /HTTP 500: slot unavailable/);
    assert.equal(error.retryable, true);
  });

  test('HTTP 400 about the context gets a hint and is not retryable', async () => {
    const { provider } = await setup([
      { fault: 'http500', status: 400, errorMessage: 'the request exceeds the available context size (4096 tokens)' },
    ]);
    const { error } = await collectUntilError(provider.chat(request()));
    assert.equal(error.kind, 'http');
    assert.equal(error.options.status, 400);
    assert.match(error.message, /exceeds the available context size/);
    assert.match(error.message, /longer than the context the model was loaded with/);
    assert.equal(error.retryable, false);
  });

  test('a script that runs out fails loudly with the script name', async () => {
    const { provider } = await setup([{ text: 'one' }]);
    await collect(provider.chat(request()));
    const { error } = await collectUntilError(provider.chat(request()));
    assert.equal(error.kind, 'http');
    assert.match(error.message, /script "openai provider test" has no reply for chat request #2/);
  });

  test('connection refused names the URL and how to start a server', async () => {
    const port = await closedPort();
    const provider = new OpenAICompatibleProvider({ baseUrl: `http://127.0.0.1:${port}/v1` });
    const { error } = await collectUntilError(provider.chat(request()));
    assert.equal(error.kind, 'connection_refused');
    assert.match(error.message, new RegExp(`http://127\\.0\\.0\\.1:${port}/v1`));
    assert.match(error.message, /LM Studio/);
    assert.match(error.message, /llama-server/);
  });

  test('a base URL without a path gets /v1', async () => {
    const { server } = await setup([{ text: 'ok' }]);
    const provider = new OpenAICompatibleProvider({ baseUrl: server.origin });
    assert.equal(provider.baseUrl, `${server.origin}/v1`);
    assert.equal(textOf(await collect(provider.chat(request()))), 'ok');
  });

  test('an invalid base URL is a clear error at construction', () => {
    assert.throws(() => new OpenAICompatibleProvider({ baseUrl: 'localhost 1234' }), /Invalid base URL "localhost 1234"/);
  });
});

describe('OpenAICompatibleProvider cancellation and cold starts', () => {
  test('aborting the signal mid-stream fails with aborted and closes the request', async () => {
    const { server, provider } = await setup([{ text: 'first words', fault: 'hang' }]);
    const controller = new AbortController();
    const seen: string[] = [];
    await assert.rejects(
      (async () => {
        for await (const delta of provider.chat(request({ signal: controller.signal }))) {
          if (delta.type === 'text') {
            seen.push(delta.text);
            controller.abort();
          }
        }
      })(),
      (err: unknown) => err instanceof ProviderError && err.kind === 'aborted',
    );
    assert.ok(seen.length >= 1);
    await server.waitForClientAbort(1);
  });

  test('breaking out of the iteration closes the request', async () => {
    const { server, provider } = await setup([{ text: 'a long story that goes on', chunkSize: 2, chunkDelayMs: 30 }]);
    for await (const delta of provider.chat(request())) {
      if (delta.type === 'text') break;
    }
    await server.waitForClientAbort(1);
  });

  test('an already aborted signal fails with aborted', async () => {
    const { provider } = await setup([{ text: 'never' }]);
    const controller = new AbortController();
    controller.abort();
    const { error } = await collectUntilError(provider.chat(request({ signal: controller.signal })));
    assert.equal(error.kind, 'aborted');
  });

  test('a slow first byte reports "loading model…" once, then streams', async () => {
    const { provider } = await setup([{ text: 'ready now', delayMs: 400 }], {}, { loadingStatusDelayMs: 50, firstByteTimeoutMs: 5000 });
    const deltas = await collect(provider.chat(request()));
    assert.deepEqual(ofType(deltas, 'status'), [{ type: 'status', message: 'loading model…' }]);
    assert.equal(deltas[0]?.type, 'status');
    assert.equal(textOf(deltas), 'ready now');
  });

  test('a fast reply shows no loading status', async () => {
    const { provider } = await setup([{ text: 'quick' }], {}, { loadingStatusDelayMs: 1000 });
    const deltas = await collect(provider.chat(request()));
    assert.equal(ofType(deltas, 'status').length, 0);
  });

  test('no first byte within firstByteTimeoutMs fails with first_byte_timeout and closes the request', async () => {
    const { server, provider } = await setup([{ text: 'too late', delayMs: 5000 }], {}, { loadingStatusDelayMs: 20, firstByteTimeoutMs: 150 });
    const started = Date.now();
    const { deltas, error } = await collectUntilError(provider.chat(request()));
    assert.equal(error.kind, 'first_byte_timeout');
    assert.match(error.message, /sent nothing for 150 ms/);
    assert.ok(Date.now() - started < 3000, 'gave up long before the server answered');
    assert.deepEqual(ofType(deltas, 'status').length, 1);
    await server.waitForClientAbort(1);
  });
});

describe('OpenAICompatibleProvider model info', () => {
  test('listModels reads /v1/models', async () => {
    const { provider } = await setup([], { models: [{ id: 'qwen2.5-7b' }, { id: 'llama-3.2-3b' }] });
    const models = await provider.listModels(signal());
    assert.deepEqual(models.map((m) => m.name), ['qwen2.5-7b', 'llama-3.2-3b']);
  });

  test('modelInfo reads LM Studio max and loaded context', async () => {
    const { provider } = await setup([], { models: [{ id: 'qwen2.5-7b', maxContextLength: 131072, loadedContextLength: 8192 }] });
    assert.deepEqual(await provider.modelInfo('qwen2.5-7b', signal()), {
      name: 'qwen2.5-7b',
      contextLength: 131072,
      loadedContextLength: 8192,
    });
  });

  test('modelInfo falls back to llama.cpp /props when LM Studio API is missing', async () => {
    const { provider } = await setup([], { lmStudioApi: false, llamaCppContext: 16384, models: [{ id: 'tiny' }] });
    assert.deepEqual(await provider.modelInfo('tiny', signal()), { name: 'tiny', loadedContextLength: 16384 });
  });

  test('modelInfo degrades to the name when the server tells nothing', async () => {
    const { provider } = await setup([], { lmStudioApi: false, models: [{ id: 'tiny' }] });
    assert.deepEqual(await provider.modelInfo('tiny', signal()), { name: 'tiny' });
  });

  test('modelInfo and listModels report connection refused', async () => {
    const port = await closedPort();
    const provider = new OpenAICompatibleProvider({ baseUrl: `http://127.0.0.1:${port}/v1` });
    await assert.rejects(provider.modelInfo('tiny', signal()), (e: unknown) => e instanceof ProviderError && e.kind === 'connection_refused');
    await assert.rejects(provider.listModels(signal()), (e: unknown) => e instanceof ProviderError && e.kind === 'connection_refused');
  });
});
