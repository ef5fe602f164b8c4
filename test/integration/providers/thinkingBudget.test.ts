// The thinking budget on real HTTP against both fake servers: a model that thinks past the budget is stopped
// there (the request is closed), and the round is asked again without thinking, with the partial reasoning in
// the request; the server's own controls are used where they exist (gpt-oss effort levels, llama.cpp's
// enable_thinking), and earlier reasoning goes back only to templates that need it.
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { withThinkingBudget } from '../../../src/core/agent/thinkingBudget';
import { estimateTokens } from '../../../src/core/tokens';
import type { ChatProvider, ChatRequest } from '../../../src/core/provider';
import { OllamaProvider } from '../../../src/providers/ollama';
import { OpenAICompatibleProvider } from '../../../src/providers/openaiCompatible';
import { startFakeOllamaServer, startFakeOpenAIServer, type ChatBody, type FakeServerHandle, type ScriptedReply } from '../../helpers/fakeLlm';
import { collect, signal, textOf, thinkingOf } from '../../helpers/fakeLlm/streamHelpers';
import { reasoningModel } from '../../helpers/weakModels/reasoningModel';
import { lastUserContent } from '../weakModels/weakCli';

const servers: FakeServerHandle[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

const BUDGET = 300;
const answer = (): ScriptedReply => ({ text: 'The answer is 42.', chunkSize: 40 });
/** Thinks ~3,000 tokens, in small slow pieces: a request left open would take seconds. */
const thinker = (request: ChatBody): ScriptedReply => ({ ...reasoningModel(answer, 3000)(request), chunkSize: 40, chunkDelayMs: 10 });

async function wires(): Promise<Array<{ name: string; provider: ChatProvider; server: FakeServerHandle; model: string }>> {
  const ollama = await startFakeOllamaServer(thinker, { models: [{ name: 'qwen3:8b', contextLength: 40960, capabilities: ['completion', 'tools', 'thinking'] }] });
  const llama = await startFakeOpenAIServer(thinker, { llamaCppContext: 8192, lmStudioApi: false });
  servers.push(ollama, llama);
  const openai = new OpenAICompatibleProvider({ baseUrl: llama.url });
  await openai.modelInfo('tiny', signal()); // as a session does: /props says llama.cpp
  return [
    { name: 'Ollama', provider: new OllamaProvider({ host: ollama.url }), server: ollama, model: 'qwen3:8b' },
    { name: 'llama.cpp', provider: openai, server: llama, model: 'tiny' },
  ];
}

function messagesOf(body: Record<string, unknown>): Array<Record<string, unknown>> {
  return body.messages as Array<Record<string, unknown>>;
}

function request(model: string): ChatRequest {
  return { model, messages: [{ role: 'user', content: 'What is six times seven?' }], tools: [], signal: signal() };
}

describe('thinking budget', () => {
  test('past the budget: stopped, asked again without thinking with the partial reasoning, and answered', async () => {
    for (const wire of await wires()) {
      const started = Date.now();
      const deltas = await collect(withThinkingBudget(wire.provider, BUDGET).chat(request(wire.model)));
      const thought = thinkingOf(deltas);
      assert.ok(estimateTokens(thought) > BUDGET && estimateTokens(thought) < BUDGET + 50, `${wire.name}: thinking stopped at the budget (${estimateTokens(thought)} tokens)`);
      assert.equal(textOf(deltas), 'The answer is 42.', wire.name);
      assert.ok(deltas.some((d) => d.type === 'status' && /Thinking budget reached \(300 tokens\)/.test(d.message)), wire.name);
      assert.ok(Date.now() - started < 1500, `${wire.name}: the long thinking was not waited out`);
      assert.equal(wire.server.requests.length, 2, `${wire.name}: the cut request and its retry`);
      const retry = wire.server.requests[1]!;
      if (wire.name === 'Ollama') assert.equal(retry.think, false);
      else assert.deepEqual(retry.chat_template_kwargs, { enable_thinking: false });
      const note = lastUserContent(retry);
      assert.match(note, /reached the thinking budget \(300 tokens\)/);
      assert.ok(note.includes(thought.trim().slice(0, 200)), `${wire.name}: the partial reasoning is kept as context`);
      assert.deepEqual(messagesOf(retry).slice(0, -1), messagesOf(wire.server.requests[0]!), `${wire.name}: the retry only appends (the cached prefix holds)`);
    }
  });

  test('within the budget nothing changes; 0 is no budget', async () => {
    const server = await startFakeOllamaServer(reasoningModel(answer, 100), { models: [{ name: 'qwen3:8b', contextLength: 40960, capabilities: ['completion', 'tools', 'thinking'] }] });
    servers.push(server);
    const provider = new OllamaProvider({ host: server.url });
    const within = await collect(withThinkingBudget(provider, BUDGET).chat(request('qwen3:8b')));
    assert.equal(textOf(within), 'The answer is 42.');
    assert.ok(estimateTokens(thinkingOf(within)) >= 90);
    assert.equal(withThinkingBudget(provider, 0), provider);
    assert.equal(server.requests.length, 1);
  });

  test('gpt-oss: the budget becomes its effort level, and its reasoning is passed back; other models never get theirs back', async () => {
    const ollama = await startFakeOllamaServer([answer(), answer(), answer()], {
      models: [
        { name: 'gpt-oss:20b', contextLength: 131072, capabilities: ['completion', 'tools', 'thinking'] },
        { name: 'qwen3:8b', contextLength: 40960, capabilities: ['completion', 'tools', 'thinking'] },
      ],
    });
    const llama = await startFakeOpenAIServer([answer(), answer()], { llamaCppContext: 8192, lmStudioApi: false, models: [{ id: 'gpt-oss-20b' }] });
    servers.push(ollama, llama);
    const history: ChatRequest['messages'] = [
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello.', thinking: 'The user greets me.' },
      { role: 'user', content: 'What is six times seven?' },
    ];
    const ask = (provider: ChatProvider, model: string) => collect(withThinkingBudget(provider, 2000).chat({ ...request(model), messages: history }));
    await ask(new OllamaProvider({ host: ollama.url }), 'gpt-oss:20b');
    assert.equal(ollama.requests[0]!.think, 'low');
    assert.equal(messagesOf(ollama.requests[0]!)[1]!.thinking, 'The user greets me.');
    await ask(new OllamaProvider({ host: ollama.url }), 'qwen3:8b');
    assert.equal(ollama.requests[1]!.think, undefined, 'qwen3: no think field unless asked (the server default stands)');
    assert.ok(!('thinking' in messagesOf(ollama.requests[1]!)[1]!), 'qwen3 does not get its reasoning back');

    const openai = new OpenAICompatibleProvider({ baseUrl: llama.url });
    await openai.modelInfo('gpt-oss-20b', signal());
    await ask(openai, 'gpt-oss-20b');
    assert.deepEqual(llama.requests[0]!.chat_template_kwargs, { reasoning_effort: 'low' });
    assert.equal(messagesOf(llama.requests[0]!)[1]!.reasoning_content, 'The user greets me.');
  });
});
