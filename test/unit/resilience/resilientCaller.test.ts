import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ResilientCaller, RESTART_NOTICE } from '../../../src/core/resilience/resilientCaller';
import { streamProtocolReply, type ReplySink } from '../../../src/core/toolProtocol/replyStreamer';
import { ToolIndex } from '../../../src/core/toolProtocol/toolIndex';
import { ProviderError } from '../../../src/core/provider';
import type { ModelEndpoint } from '../../../src/core/resilience/failureText';
import { ScriptedProvider, cutReply, refused, serverError, streamCut, textReply, toolReply } from './scriptedProvider';

/** Records what reached the user and every wait, without waiting. */
class Harness {
  text = '';
  notices: string[] = [];
  sleeps: number[] = [];
  readonly sink: ReplySink = { text: (t) => (this.text += t), thinking: () => {}, status: () => {} };

  caller(endpoints: ModelEndpoint[], maxRetries = 2): ResilientCaller {
    return new ResilientCaller({
      endpoints,
      retry: { maxRetries, backoffBaseMs: 500, backoffMaxMs: 800 },
      sink: this.sink,
      notice: (m) => this.notices.push(m),
      sleep: async (ms, signal) => {
        if (signal.aborted) throw new ProviderError('aborted', 'cancelled');
        this.sleeps.push(ms);
      },
    });
  }
}

const index = new ToolIndex([{ name: 'read_file', description: 'Read.', parameters: { type: 'object', properties: { path: { type: 'string' } } } }]);
const signal = () => new AbortController().signal;
const attempt = (endpoint: ModelEndpoint, sink: ReplySink, s: AbortSignal) =>
  streamProtocolReply({ provider: endpoint.provider, model: endpoint.model, messages: [{ role: 'user', content: 'go' }], signal: s }, { mode: 'native', index, validate: () => true }, sink);

test('5xx and a cut stream are retried with backoff, and the text is not shown twice', async () => {
  const provider = new ScriptedProvider([
    { deltas: [], error: serverError() },
    cutReply(streamCut(), 'I will read ', 'the fi'),
    textReply('I will read the file', ' now.'),
  ]);
  const h = new Harness();
  const reply = await h.caller([{ provider, model: 'm' }]).call(attempt, signal());
  assert.equal(reply.text, 'I will read the file now.');
  assert.equal(h.text, 'I will read the file now.');
  assert.deepEqual(h.sleeps, [500, 800]);
  assert.equal(h.notices.length, 2);
  assert.match(h.notices[0]!, /server failed \(HTTP 500\).*retrying in 500 ms \(attempt 2 of 3\)/);
  assert.match(h.notices[1]!, /ended before the reply was complete.*attempt 3 of 3/);
  assert.equal(provider.requests.length, 3);
});

test('tool calls come only from the successful attempt', async () => {
  const provider = new ScriptedProvider([
    { deltas: [{ type: 'tool_call', call: { id: 'a', name: 'read_file', arguments: '{"path":"x"}' } }], error: streamCut() },
    toolReply('read_file', { path: 'x' }, 'b'),
  ]);
  const h = new Harness();
  const reply = await h.caller([{ provider, model: 'm' }]).call(attempt, signal());
  assert.deepEqual(reply.toolCalls.map((c) => c.id), ['b']);
});

test('a retry with different text gets a restart notice', async () => {
  const provider = new ScriptedProvider([cutReply(streamCut(), 'Plan A is'), textReply('Plan B.')]);
  const h = new Harness();
  await h.caller([{ provider, model: 'm' }]).call(attempt, signal());
  assert.equal(h.text, 'Plan A isPlan B.');
  assert.ok(h.notices.includes(RESTART_NOTICE));
});

test('non-retryable errors skip the retries and go to the fallback, which then stays in use', async () => {
  const primary = new ScriptedProvider([{ deltas: [], error: refused() }], { id: 'ollama', baseUrl: 'http://127.0.0.1:11434' });
  const fallback = new ScriptedProvider([textReply('from fallback'), textReply('again')], { baseUrl: 'http://127.0.0.1:1234' });
  const h = new Harness();
  const caller = h.caller([
    { provider: primary, model: 'qwen' },
    { provider: fallback, model: 'llama' },
  ]);
  const first = await caller.call(attempt, signal());
  assert.equal(first.text, 'from fallback');
  assert.deepEqual(h.sleeps, []);
  assert.equal(h.notices.length, 1);
  assert.match(h.notices[0]!, /qwen on Ollama at http:\/\/127\.0\.0\.1:11434 failed: the server could not be reached\. Continuing with llama on the OpenAI-compatible server at http:\/\/127\.0\.0\.1:1234\./);
  const second = await caller.call(attempt, signal());
  assert.equal(second.text, 'again');
  assert.equal(primary.requests.length, 1, 'the dead primary is not asked again this turn');
  caller.reset();
  assert.equal(caller.activeEndpoint.model, 'qwen');
});

test('when everything fails: one plain ProviderError saying what failed and what to try', async () => {
  const primary = new ScriptedProvider([{ deltas: [], error: serverError() }, { deltas: [], error: serverError() }], { id: 'ollama', baseUrl: 'http://a' });
  const fallback = new ScriptedProvider([{ deltas: [], error: refused() }], { baseUrl: 'http://b' });
  const h = new Harness();
  const caller = h.caller([
    { provider: primary, model: 'qwen' },
    { provider: fallback, model: 'llama' },
  ], 1);
  await assert.rejects(caller.call(attempt, signal()), (err: unknown) => {
    assert.ok(err instanceof ProviderError);
    assert.equal(err.retryable, false);
    assert.equal(
      err.message,
      'The model did not answer. Tried qwen on Ollama at http://a: the server failed (HTTP 500) (2 attempts); llama on the OpenAI-compatible server at http://b: the server could not be reached. Start the server (LM Studio: Developer tab → start server, or `lms server start`; llama.cpp: `llama-server -m <model.gguf>`; vLLM: `vllm serve <model>`) or correct the base URL in the settings, then send the message again.',
    );
    return true;
  });
});

test('cancellation is never retried', async () => {
  const controller = new AbortController();
  const provider = new ScriptedProvider([{ deltas: [{ type: 'text', text: 'x' }], error: new ProviderError('aborted', 'cancelled') }, textReply('never')]);
  const h = new Harness();
  controller.abort();
  await assert.rejects(h.caller([{ provider, model: 'm' }]).call(attempt, controller.signal), (err: unknown) => err instanceof ProviderError && err.kind === 'aborted');
  assert.equal(provider.requests.length, 1);
  assert.deepEqual(h.notices, []);
});

test('a cancellation during the backoff wait ends the call', async () => {
  const controller = new AbortController();
  const provider = new ScriptedProvider([{ deltas: [], error: serverError() }, textReply('never')]);
  const caller = new ResilientCaller({
    endpoints: [{ provider, model: 'm' }],
    retry: { maxRetries: 2, backoffBaseMs: 10_000, backoffMaxMs: 10_000 },
    sink: { text: () => {}, thinking: () => {}, status: () => {} },
    notice: () => controller.abort(), // the user cancels while the retry notice is shown
  });
  const started = Date.now();
  await assert.rejects(caller.call(attempt, controller.signal), (err: unknown) => err instanceof ProviderError && err.kind === 'aborted');
  assert.ok(Date.now() - started < 5000, 'the real sleep ended early');
  assert.equal(provider.requests.length, 1);
});
