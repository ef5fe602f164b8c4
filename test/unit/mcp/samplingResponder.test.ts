// The sampling responder against a wire-faithful fake model server, through the real provider.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OllamaProvider } from '../../../src/providers/ollama';
import { OpenAICompatibleProvider } from '../../../src/providers/openaiCompatible';
import { createSamplingResponder } from '../../../src/mcp/samplingResponder';
import type { SamplingRequest } from '../../../src/mcp/clientFeatures';
import { startFakeOllamaServer, startFakeOpenAIServer } from '../../helpers/fakeLlm';

const request: SamplingRequest = {
  server: 's',
  messages: [
    { role: 'user', text: 'Write a haiku' },
    { role: 'assistant', text: 'About what?' },
    { role: 'user', text: 'Rain' },
  ],
  systemPrompt: 'Be brief.',
  maxTokens: 40,
  temperature: 0.2,
  modelHints: ['claude-3'],
};
const signal = () => new AbortController().signal;

test('system prompt, messages, max tokens and temperature reach the model; its own name answers', async () => {
  const server = await startFakeOpenAIServer([{ text: 'Soft rain on the roof' }]);
  try {
    const sample = createSamplingResponder({ provider: new OpenAICompatibleProvider({ baseUrl: server.url }), model: 'tiny' });
    assert.deepEqual(await sample(request, signal()), { model: 'tiny', text: 'Soft rain on the roof', stopReason: 'endTurn' });
    const sent = server.requests[0]!;
    assert.deepEqual((sent.messages as Array<Record<string, unknown>>).map((m) => [m.role, m.content]), [
      ['system', 'Be brief.'],
      ['user', 'Write a haiku'],
      ['assistant', 'About what?'],
      ['user', 'Rain'],
    ]);
    assert.equal(sent.max_tokens, 40);
    assert.equal(sent.temperature, 0.2);
    assert.equal(sent.model, 'tiny');
    assert.equal(sent.tools, undefined);
  } finally {
    await server.close();
  }
});

test('a reply cut by the token limit says maxTokens (Ollama num_predict); the model getter is read per request', async () => {
  const server = await startFakeOllamaServer([{ text: 'Soft rain', finishReason: 'length' }]);
  try {
    let model = 'qwen';
    const sample = createSamplingResponder({ provider: () => new OllamaProvider({ host: server.url }), model: () => model });
    model = 'llama';
    const result = await sample({ ...request, systemPrompt: undefined as unknown as string }, signal());
    assert.deepEqual(result, { model: 'llama', text: 'Soft rain', stopReason: 'maxTokens' });
    const sent = server.requests[0]!;
    assert.equal((sent.options as Record<string, unknown>).num_predict, 40);
    assert.equal((sent.messages as unknown[]).length, 3, 'no empty system message');
  } finally {
    await server.close();
  }
});

test('a stop sequence ends the answer where it begins and stops the stream', async () => {
  const server = await startFakeOpenAIServer([{ text: 'line one\nEND\nmore text the model rambles on with', chunkSize: 3, chunkDelayMs: 20 }]);
  try {
    const sample = createSamplingResponder({ provider: new OpenAICompatibleProvider({ baseUrl: server.url }), model: 'tiny' });
    const result = await sample({ ...request, stopSequences: ['END', 'never'] }, signal());
    assert.deepEqual(result, { model: 'tiny', text: 'line one\n', stopReason: 'stopSequence' });
    await server.waitForClientAbort(1, 3000);
  } finally {
    await server.close();
  }
});

test('aborting (the server cancelled, or the host shut down) ends the request', async () => {
  const server = await startFakeOpenAIServer([{ text: 'slow', fault: 'hang' }, { text: 'never' }]);
  try {
    const host = new AbortController();
    const sample = createSamplingResponder({ provider: new OpenAICompatibleProvider({ baseUrl: server.url }), model: 'tiny', signal: host.signal });
    const call = new AbortController();
    const running = sample(request, call.signal);
    while (server.requests.length === 0) await new Promise((r) => setTimeout(r, 10));
    call.abort();
    await assert.rejects(running, /cancelled/);
    await server.waitForClientAbort(1, 3000);
    host.abort();
    await assert.rejects(sample(request, signal()), 'a shut-down host answers nothing');
    assert.equal(server.requests.length, 1);
  } finally {
    await server.close();
  }
});
