// The window we budget against is the one the server runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chooseContextWindow, resolveContextWindow, DEFAULT_WINDOW } from '../../../src/core/window/window';
import { createContextManager } from '../../../src/core/compression/contextManager';
import type { ChatProvider, ChatRequest, ModelInfo, ProviderCapabilities, StreamDelta } from '../../../src/core/provider';

/** A server that only answers model lookups (chat is never reached in these tests). */
class ModelInfoServer implements ChatProvider {
  readonly baseUrl = 'http://127.0.0.1:1234';
  readonly capabilities: ProviderCapabilities;
  lookups = 0;
  constructor(
    readonly id: 'ollama' | 'openai',
    private readonly info: ModelInfo | Error,
  ) {
    this.capabilities = { thinking: false, keepAlive: id === 'ollama', tools: true, jsonMode: false, streaming: true, embeddings: false, contextSizeApi: id === 'ollama' };
  }
  async *chat(_request: ChatRequest): AsyncIterable<StreamDelta> {
    throw new Error('not used');
  }
  async listModels(): Promise<ModelInfo[]> {
    return [];
  }
  async modelInfo(): Promise<ModelInfo> {
    this.lookups++;
    if (this.info instanceof Error) throw this.info;
    return this.info;
  }
}

test('Ollama: the num_ctx we send, capped by the model maximum', () => {
  assert.deepEqual(chooseContextWindow({ contextSizeApi: true, requestedContextSize: 8192, info: { name: 'm', contextLength: 32768 } }), { tokens: 8192, source: 'num_ctx' });
  const capped = chooseContextWindow({ contextSizeApi: true, requestedContextSize: 65536, info: { name: 'm', contextLength: 32768 } });
  assert.equal(capped.tokens, 32768);
  assert.equal(capped.source, 'model_max');
  assert.match(capped.note!, /above the model's maximum/);
});

test('LM Studio and friends: the loaded context length wins over the configured size', () => {
  const w = chooseContextWindow({ contextSizeApi: false, configured: 32768, info: { name: 'm', contextLength: 131072, loadedContextLength: 4096 } });
  assert.equal(w.tokens, 4096);
  assert.equal(w.source, 'loaded');
  assert.match(w.note!, /runs the model with 4096 tokens.*configured 32768 is ignored/);
  assert.deepEqual(chooseContextWindow({ contextSizeApi: false, configured: 16384, info: { name: 'm', contextLength: 131072 } }), { tokens: 16384, source: 'configured' });
  assert.equal(chooseContextWindow({ contextSizeApi: false, info: { name: 'm', contextLength: 131072 } }).source, 'model_max');
  const unknown = chooseContextWindow({ contextSizeApi: false });
  assert.equal(unknown.tokens, DEFAULT_WINDOW);
  assert.equal(unknown.source, 'default');
});

test('resolveContextWindow asks the server once; a failing lookup falls back with a note', async () => {
  const signal = new AbortController().signal;
  const lmStudio = new ModelInfoServer('openai', { name: 'qwen', contextLength: 32768, loadedContextLength: 8192 });
  assert.deepEqual(await resolveContextWindow(lmStudio, 'qwen', { configured: 4096 }, signal), {
    tokens: 8192,
    source: 'loaded',
    note: 'The server runs the model with 8192 tokens of context; the configured 4096 is ignored.',
  });
  const down = new ModelInfoServer('openai', new Error('connection refused'));
  const w = await resolveContextWindow(down, 'qwen', { configured: 6000 }, signal);
  assert.equal(w.tokens, 6000);
  assert.match(w.note!, /Could not ask http:\/\/127\.0\.0\.1:1234 about qwen \(connection refused\)/);
});

test('the manager budgets against the looked-up window and shows it in status', async () => {
  const server = new ModelInfoServer('openai', { name: 'qwen', loadedContextLength: 4096 });
  const manager = createContextManager({ provider: server, model: 'qwen', configuredWindow: 32768, tools: () => [] });
  const signal = new AbortController().signal;
  await manager.prepareMessages([{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hello there.' }], signal);
  await manager.prepareMessages([{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hello there.' }], signal);
  const s = manager.status();
  assert.equal(s.window, 4096);
  assert.equal(s.windowSource, 'loaded');
  // A 4,096 window is tight: compression starts where the answer's room begins, 512 tokens before any reply is seen.
  assert.equal(s.minAnswerTokens, 512);
  assert.equal(s.compressAtTokens, 4096 - 512);
  assert.equal(s.targetTokens, Math.floor(4096 * 0.4));
  assert.ok(s.systemTokens > 0 && s.messagesTokens > 0 && s.used === s.systemTokens + s.messagesTokens + 3);
  assert.equal(server.lookups, 1, 'looked up once');
  manager.refreshWindow();
  await manager.prepareMessages([{ role: 'user', content: 'Again.' }], signal);
  assert.equal(server.lookups, 2);

  const ollama = createContextManager({ provider: new ModelInfoServer('ollama', { name: 'llama', contextLength: 131072 }), model: 'llama', contextSize: 8192 });
  await ollama.prepareMessages([{ role: 'user', content: 'Hi.' }], signal);
  assert.equal(ollama.status().window, 8192);
  assert.equal(ollama.status().windowSource, 'num_ctx');
});

test('bad settings are refused with a readable error', () => {
  const server = new ModelInfoServer('openai', { name: 'm' });
  assert.throws(() => createContextManager({ provider: server, model: 'm', settings: { compressAt: 0.3, compressTo: 0.5 } }), /Invalid context settings: compressTo: compressTo must be below compressAt/);
  assert.throws(() => createContextManager({ provider: server, model: 'm', settings: { minAnswerTokens: -1 } }), /Invalid context settings: minAnswerTokens/);
});
