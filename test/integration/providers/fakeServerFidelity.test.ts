// The fake servers must frame their answers like the real ones: compared here with the recorded
// llama.cpp transcripts and with Ollama's documented NDJSON shape, over raw HTTP.
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  loadTranscript,
  startFakeOllamaServer,
  startFakeOpenAIServer,
  type FakeServerHandle,
} from '../../helpers/fakeLlm';

const servers: FakeServerHandle[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

/** Parsed wire JSON, inspected loosely: the point is its shape, which the assertions check. */
type Json = Record<string, any>;

function sseEvents(text: string): string[] {
  return text
    .split('\n\n')
    .filter((e) => e.length > 0)
    .map((e) => {
      assert.ok(e.startsWith('data: '), `every event is a data line: ${e.slice(0, 40)}`);
      return e.slice('data: '.length);
    });
}

function keys(value: Json): string[] {
  return Object.keys(value).sort();
}

const recordedChunkKeys = (() => {
  const t = loadTranscript('openai-compatible/agentmode.usage_stream.txt');
  const events = sseEvents(t.body.toString('utf8'));
  const first = JSON.parse(events[0]!) as Json;
  const usage = JSON.parse(events.at(-2)!) as Json;
  return { first, chunk: keys(first), usage: keys(usage), usageFields: keys(usage.usage) };
})();

async function post(url: string, body: Json): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

describe('fake OpenAI-compatible server', () => {
  test('SSE chunks have the recorded llama.cpp shape', async () => {
    const server = await startFakeOpenAIServer([
      { text: 'Hi', thinking: 'hm', toolCalls: [{ name: 'a', arguments: { x: 1 } }, { name: 'b', arguments: '{}' }], chunkSize: 3 },
    ]);
    servers.push(server);
    const response = await post(`${server.url}/chat/completions`, {
      model: 'tiny',
      messages: [{ role: 'user', content: 'x' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'text/event-stream');
    const text = await response.text();
    assert.ok(text.endsWith('data: [DONE]\n\n'));
    const events = sseEvents(text);
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e) as Json);
    for (const chunk of chunks.slice(0, -1)) {
      assert.deepEqual(keys(chunk), recordedChunkKeys.chunk);
      assert.equal(chunk.object, 'chat.completion.chunk');
      assert.deepEqual(keys(chunk.choices[0]), ['delta', 'finish_reason', 'index']);
    }
    assert.deepEqual(chunks[0]!.choices[0].delta, recordedChunkKeys.first.choices[0].delta);
    const toolDeltas = chunks.flatMap((c) => c.choices).flatMap((c: Json) => c.delta.tool_calls ?? []);
    const starts = toolDeltas.filter((d: Json) => d.id);
    assert.deepEqual(starts.map((d: Json) => d.index), [0, 1]);
    for (const s of starts) assert.deepEqual(keys(s), ['function', 'id', 'index', 'type']);
    for (const d of toolDeltas.filter((d: Json) => !d.id)) assert.deepEqual(keys(d), ['function', 'index']);
    assert.ok(chunks.some((c) => c.choices[0]?.delta.reasoning_content === 'hm'));
    const finish = chunks.at(-2)!;
    assert.deepEqual(finish.choices[0].delta, {});
    assert.equal(finish.choices[0].finish_reason, 'tool_calls');
    const usage = chunks.at(-1)!;
    assert.deepEqual(keys(usage).filter((k) => k !== 'timings'), recordedChunkKeys.usage.filter((k) => k !== 'timings'));
    assert.deepEqual(usage.choices, []);
    assert.deepEqual(keys(usage.usage), recordedChunkKeys.usageFields);
  });

  test('no usage chunk without stream_options.include_usage', async () => {
    const server = await startFakeOpenAIServer([{ text: 'Hi' }]);
    servers.push(server);
    const text = await (await post(`${server.url}/chat/completions`, { model: 'tiny', messages: [], stream: true })).text();
    const chunks = sseEvents(text).slice(0, -1).map((e) => JSON.parse(e) as Json);
    assert.ok(chunks.every((c) => !('usage' in c)));
    assert.equal(chunks.at(-1)!.choices[0].finish_reason, 'stop');
  });

  test('a mid-stream error is framed like the recorded one: error event, no finish, no [DONE]', async () => {
    const recorded = sseEvents(loadTranscript('openai-compatible/llama32-bias.tools_auto_stream.txt').body.toString('utf8'));
    const server = await startFakeOpenAIServer([{ text: 'Hello', fault: 'midstream_error' }]);
    servers.push(server);
    const events = sseEvents(await (await post(`${server.url}/chat/completions`, { model: 'tiny', messages: [], stream: true })).text());
    const last = JSON.parse(events.at(-1)!) as Json;
    assert.deepEqual(keys(last), keys(JSON.parse(recorded.at(-1)!)));
    assert.deepEqual(keys(last.error), ['code', 'message', 'type']);
    assert.ok(events.every((e) => e !== '[DONE]'));
    assert.ok(events.slice(0, -1).every((e) => (JSON.parse(e) as Json).choices[0].finish_reason === null));
  });

  test('stream: false answers in the recorded non-streaming shape', async () => {
    const recorded = JSON.parse(loadTranscript('openai-compatible/agentmode.tools_req_nostream.txt').body.toString('utf8')) as Json;
    const server = await startFakeOpenAIServer([{ toolCalls: [{ name: 'get_weather', arguments: { city: 'Tokyo' } }] }]);
    servers.push(server);
    const answer = (await (await post(`${server.url}/chat/completions`, { model: 'tiny', messages: [], stream: false })).json()) as Json;
    assert.deepEqual(keys(answer).filter((k) => k !== 'timings'), keys(recorded).filter((k) => k !== 'timings'));
    assert.deepEqual(keys(answer.choices[0].message), keys(recorded.choices[0].message));
    assert.deepEqual(keys(answer.choices[0].message.tool_calls[0]), keys(recorded.choices[0].message.tool_calls[0]));
    assert.equal(answer.choices[0].message.tool_calls[0].function.arguments, '{"city":"Tokyo"}');
    assert.equal(answer.choices[0].finish_reason, 'tool_calls');
  });

  test('running out of script is an HTTP 500 naming the script', async () => {
    const server = await startFakeOpenAIServer([], { name: 'empty script' });
    servers.push(server);
    const response = await post(`${server.url}/chat/completions`, { model: 'tiny', messages: [], stream: true });
    assert.equal(response.status, 500);
    assert.match(((await response.json()) as Json).error.message, /script "empty script" has no reply for chat request #1/);
  });
});

describe('fake Ollama server', () => {
  test('NDJSON lines follow the documented /api/chat shape', async () => {
    const server = await startFakeOllamaServer([{ thinking: 'hm', text: 'Hi', toolCalls: [{ name: 'a', arguments: { x: 1 } }] }]);
    servers.push(server);
    const response = await post(`${server.url}/api/chat`, { model: 'llama3.2', messages: [{ role: 'user', content: 'x' }] });
    assert.equal(response.headers.get('content-type'), 'application/x-ndjson');
    const text = await response.text();
    assert.ok(text.endsWith('\n'));
    const lines = text.trimEnd().split('\n').map((l) => JSON.parse(l) as Json);
    for (const line of lines.slice(0, -1)) {
      assert.deepEqual(keys(line), ['created_at', 'done', 'message', 'model']);
      assert.equal(line.done, false);
      assert.equal(line.message.role, 'assistant');
      assert.equal(typeof line.message.content, 'string');
    }
    assert.ok(lines.some((l) => l.message.thinking === 'hm'));
    const calls = lines.flatMap((l) => l.message.tool_calls ?? []);
    assert.deepEqual(calls, [{ function: { index: 0, name: 'a', arguments: { x: 1 } } }]);
    const done = lines.at(-1)!;
    assert.equal(done.done, true);
    for (const k of ['done_reason', 'total_duration', 'load_duration', 'prompt_eval_count', 'prompt_eval_duration', 'eval_count', 'eval_duration']) {
      assert.ok(k in done, `final line has ${k}`);
    }
  });

  test('/api/show reports <arch>.context_length and capabilities; /api/tags lists models', async () => {
    const server = await startFakeOllamaServer([], {
      models: [{ name: 'gemma3:4b', contextLength: 131072, capabilities: ['completion'], architecture: 'gemma3' }],
    });
    servers.push(server);
    const show = (await (await post(`${server.url}/api/show`, { model: 'gemma3:4b' })).json()) as Json;
    assert.equal(show.model_info['general.architecture'], 'gemma3');
    assert.equal(show.model_info['gemma3.context_length'], 131072);
    assert.deepEqual(show.capabilities, ['completion']);
    const tags = (await (await fetch(`${server.url}/api/tags`)).json()) as Json;
    assert.deepEqual(tags.models.map((m: Json) => m.name), ['gemma3:4b']);
  });

  test('errors are {"error": "..."} with a status, like Ollama', async () => {
    const server = await startFakeOllamaServer([], {
      models: [{ name: 'gemma3:4b', contextLength: 8192, capabilities: ['completion'] }],
      name: 'ollama errors',
    });
    servers.push(server);
    const think = await post(`${server.url}/api/chat`, { model: 'gemma3:4b', messages: [], think: true });
    assert.equal(think.status, 400);
    assert.match(((await think.json()) as Json).error, /does not support thinking/);
    const missing = await post(`${server.url}/api/chat`, { model: 'nope', messages: [] });
    assert.equal(missing.status, 404);
    assert.match(((await missing.json()) as Json).error, /not found/);
    const outOfScript = await post(`${server.url}/api/chat`, { model: 'gemma3:4b', messages: [] });
    assert.equal(outOfScript.status, 500);
    assert.match(((await outOfScript.json()) as Json).error, /script "ollama errors" has no reply/);
  });
});
