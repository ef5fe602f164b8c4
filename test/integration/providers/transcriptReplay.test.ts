// Recorded llama.cpp SSE bodies replayed byte for byte: the provider must read them exactly as a
// straightforward SSE reading (done independently below) says they are.
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import type { StreamDelta, ChatRequest } from '../../../src/core/provider';
import type { ChatMessage, ToolDefinition } from '../../../src/core/messages';
import { OpenAICompatibleProvider } from '../../../src/providers/openaiCompatible';
import { loadTranscript, startTranscriptServer, type FakeServerHandle, type Transcript } from '../../helpers/fakeLlm';
import { collect, collectUntilError, ofType, signal, textOf, thinkingOf } from '../../helpers/fakeLlm/streamHelpers';

const servers: FakeServerHandle[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

interface Expected {
  text: string;
  thinking: string;
  calls: Array<{ id: string; name: string; arguments: string }>;
  finishReason?: string;
  usage?: { prompt: number; completion: number; cached?: number; timings?: { promptMs?: number; generationMs?: number } };
  error?: string;
}

/** A deliberately plain reading of the recorded SSE body, independent of the provider's code path. */
function expectedFrom(transcript: Transcript): Expected {
  const out: Expected = { text: '', thinking: '', calls: [] };
  const byIndex = new Map<number, { id: string; name: string; arguments: string }>();
  for (const event of transcript.body.toString('utf8').split('\n\n')) {
    const line = event.trim();
    if (!line.startsWith('data: ') || line === 'data: [DONE]') continue;
    const data = JSON.parse(line.slice('data: '.length));
    if (data.error) out.error = data.error.message;
    // The recorded llama.cpp reports the reused part of the prompt twice: usage details and timings.cache_n.
    if (data.usage) out.usage = { prompt: data.usage.prompt_tokens, completion: data.usage.completion_tokens, cached: data.usage.prompt_tokens_details?.cached_tokens ?? data.timings?.cache_n };
    // And how long it took: prompt_ms reading the prompt, predicted_ms writing the reply.
    if (data.usage && data.timings) out.usage!.timings = { promptMs: data.timings.prompt_ms, generationMs: data.timings.predicted_ms };
    for (const choice of data.choices ?? []) {
      const d = choice.delta ?? {};
      if (d.content) out.text += d.content;
      if (d.reasoning_content) out.thinking += d.reasoning_content;
      for (const tc of d.tool_calls ?? []) {
        const call = byIndex.get(tc.index) ?? { id: '', name: '', arguments: '' };
        if (tc.id) call.id = tc.id;
        if (tc.function?.name) call.name = tc.function.name;
        if (tc.function?.arguments) call.arguments += tc.function.arguments;
        byIndex.set(tc.index, call);
      }
      if (choice.finish_reason) out.finishReason = choice.finish_reason;
    }
  }
  out.calls = [...byIndex.entries()].sort((a, b) => a[0] - b[0]).map(([, c]) => c);
  return out;
}

interface RecordedMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | null;
  tool_call_id?: string;
  tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
}

/** Rebuilds our request from the recorded one, so what we send can be compared with what llama.cpp got. */
function requestFrom(transcript: Transcript): ChatRequest {
  const recorded = transcript.request as { model: string; messages: RecordedMessage[]; tools?: Array<{ function: ToolDefinition }> };
  const messages = recorded.messages.map((m): ChatMessage => {
    const message: ChatMessage = { role: m.role, content: m.content ?? '' };
    if (m.tool_call_id) message.toolCallId = m.tool_call_id;
    if (m.tool_calls) message.toolCalls = m.tool_calls.map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments }));
    return message;
  });
  return { model: recorded.model, messages, tools: (recorded.tools ?? []).map((t) => t.function), signal: signal() };
}

async function replay(file: string, chunkBytes?: number) {
  const transcript = loadTranscript(`openai-compatible/${file}`);
  const server = await startTranscriptServer(transcript, chunkBytes ? { chunkBytes } : {});
  servers.push(server);
  const provider = new OpenAICompatibleProvider({ baseUrl: server.url });
  return { transcript, server, provider, expected: expectedFrom(transcript) };
}

function assertMatches(deltas: StreamDelta[], expected: Expected): void {
  assert.equal(textOf(deltas), expected.text);
  assert.equal(thinkingOf(deltas), expected.thinking);
  assert.deepEqual(ofType(deltas, 'tool_call').map((d) => d.call), expected.calls);
  assert.deepEqual(deltas.at(-1), { type: 'done', finishReason: expected.finishReason });
  const usage = ofType(deltas, 'usage');
  if (expected.usage) {
    const cached = expected.usage.cached;
    assert.deepEqual(usage, [
      {
        type: 'usage',
        promptTokens: expected.usage.prompt,
        completionTokens: expected.usage.completion,
        ...(cached !== undefined && { cachedTokens: cached }),
        ...(expected.usage.timings && { timings: expected.usage.timings }),
      },
    ]);
  } else {
    assert.deepEqual(usage, []);
  }
}

describe('recorded llama.cpp transcripts', () => {
  for (const file of [
    'agentmode.plain_stream.txt',
    'agentmode.usage_stream.txt',
    'agentmode.tools_auto_stream.txt',
    'agentmode.tools_named_stream.txt',
    'agentmode.tools_req_stream.txt',
    'agentmode.tools_req_free_stream.txt',
    'agentmode.tools_req_parallel_stream.txt',
    'agentmode.tool_result_followup_stream.txt',
    'hermesbang-bias.tools_req_parallel_stream.txt',
    'qwq-reasoning.plain_stream.txt',
    'qwq-reasoning.usage_stream.txt',
  ]) {
    test(`${file} parses as recorded`, async () => {
      const { provider, expected, server, transcript } = await replay(file);
      assertMatches(await collect(provider.chat(requestFrom(transcript))), expected);
      // What we send must be what llama.cpp was sent when recording (messages incl. tool turns, tools).
      assert.deepEqual(server.requests[0]!.messages, transcript.request.messages);
      if (transcript.request.tools) assert.deepEqual(server.requests[0]!.tools, transcript.request.tools);
    });
  }

  test('plain_stream: content only, finish_reason "length", no usage without include_usage', async () => {
    const { provider, expected, transcript } = await replay('agentmode.plain_stream.txt');
    const deltas = await collect(provider.chat(requestFrom(transcript)));
    assert.ok(textOf(deltas).length > 100);
    assert.equal(expected.finishReason, 'length');
    assert.equal(ofType(deltas, 'tool_call').length, 0);
    assert.equal(ofType(deltas, 'usage').length, 0);
  });

  test('tools_req_stream: one get_weather call rebuilt from pieces', async () => {
    const { provider, transcript } = await replay('agentmode.tools_req_stream.txt');
    const calls = ofType(await collect(provider.chat(requestFrom(transcript))), 'tool_call');
    assert.equal(calls.length, 1);
    assert.equal(calls[0]!.call.name, 'get_weather');
    assert.ok(typeof calls[0]!.call.arguments === 'string' && calls[0]!.call.arguments.startsWith('{'));
  });

  test('tools_req_parallel_stream: two calls with their recorded ids, in index order', async () => {
    const { provider, transcript } = await replay('agentmode.tools_req_parallel_stream.txt');
    const calls = ofType(await collect(provider.chat(requestFrom(transcript))), 'tool_call').map((d) => d.call);
    assert.deepEqual(calls.map((c) => [c.id, c.name]), [
      ['LkV6LXx0s3QGtRYdBivDqUn7KojjGVYW', 'get_weather'],
      ['K5Bn9VqaJZNHs1y1AvvhdfWeME2kZROD', 'get_weather'],
    ]);
  });

  test('hermesbang parallel: three calls, content before them kept as text', async () => {
    const { provider, transcript } = await replay('hermesbang-bias.tools_req_parallel_stream.txt');
    const deltas = await collect(provider.chat(requestFrom(transcript)));
    assert.deepEqual(ofType(deltas, 'tool_call').map((d) => d.call.id), [
      'FGzQ6k6RlhTS1gPgwG3GkbQB67aQsRKh',
      'uQt7veTqTj211xKxNpLJknFgzIw3ZiJh',
      'OAECaDYFDJQkz0NZPZbfKQ7m68C3Jr1y',
    ]);
    assert.ok(textOf(deltas).startsWith('H'));
  });

  test('qwq-reasoning.usage_stream: reasoning_content is thinking, usage 49/80', async () => {
    const { provider, transcript } = await replay('qwq-reasoning.usage_stream.txt');
    const deltas = await collect(provider.chat(requestFrom(transcript)));
    assert.ok(thinkingOf(deltas).startsWith('\nHe had a big b'));
    assert.deepEqual(
      ofType(deltas, 'usage'),
      [{ type: 'usage', promptTokens: 49, completionTokens: 80, cachedTokens: 15, timings: { promptMs: 3.072, generationMs: 29.158 } }],
      'the server’s own cached count and durations',
    );
    assert.deepEqual(deltas.at(-1), { type: 'done', finishReason: 'length' });
  });

  test('llama32-bias: the mid-stream error event is a stream_error after the streamed text', async () => {
    const { provider, expected, transcript } = await replay('llama32-bias.tools_auto_stream.txt');
    const { deltas, error } = await collectUntilError(provider.chat(requestFrom(transcript)));
    assert.equal(textOf(deltas), expected.text);
    assert.ok(expected.text.length > 0);
    assert.equal(error.kind, 'stream_error');
    assert.match(error.message, /does not match the expected peg-native format/);
    assert.match(error.message, /code 500/);
  });

  for (const file of ['agentmode.tools_req_parallel_stream.txt', 'qwq-reasoning.usage_stream.txt', 'llama32-bias.tools_auto_stream.txt']) {
    test(`${file} split into 97-byte TCP writes reads the same`, async () => {
      const { provider, expected, transcript } = await replay(file, 97);
      if (expected.error) {
        const { deltas, error } = await collectUntilError(provider.chat(requestFrom(transcript)));
        assert.equal(textOf(deltas), expected.text);
        assert.equal(error.kind, 'stream_error');
      } else {
        assertMatches(await collect(provider.chat(requestFrom(transcript))), expected);
      }
    });
  }
});
