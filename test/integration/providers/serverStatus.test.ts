// serverStatus: which server this is and what it runs the model with now, asked fresh, from the endpoints each
// kind serves (Ollama /api/version and /api/ps; LM Studio /api/v0/models; llama.cpp /props; vLLM /version).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createProvider } from '../../../src/providers';
import { ProviderError } from '../../../src/core/provider';
import { startFakeOllamaServer, startFakeOpenAIServer, type FakeServerHandle } from '../../helpers/fakeLlm';
import { signal } from '../../helpers/fakeLlm/streamHelpers';

const servers: FakeServerHandle[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});
const keep = (s: FakeServerHandle) => (servers.push(s), s);

test('Ollama: version, and the model loaded with its context only after a request used it', async () => {
  const server = keep(await startFakeOllamaServer([{ text: 'hi' }], { models: [{ name: 'q:8b', contextLength: 32768, capabilities: ['completion'] }], runningContext: 8192 }));
  const provider = createProvider({ provider: 'ollama', baseUrl: server.origin });
  assert.deepEqual(await provider.serverStatus!('q:8b', signal()), { kind: 'ollama', version: '0.12.6', loaded: false });
  for await (const _ of provider.chat({ model: 'q:8b', messages: [{ role: 'user', content: 'x' }], tools: [], signal: signal() })) {
    // load it
  }
  assert.deepEqual(await provider.serverStatus!('q:8b', signal()), { kind: 'ollama', version: '0.12.6', loaded: true, loadedContextLength: 8192 });
});

test('OpenAI-compatible: LM Studio, llama.cpp, vLLM and an unknown server told apart', async () => {
  const status = async (options: Parameters<typeof startFakeOpenAIServer>[1]) => {
    const server = keep(await startFakeOpenAIServer([], options));
    return createProvider({ provider: 'openai', baseUrl: server.url }).serverStatus!('m', signal());
  };
  assert.deepEqual(await status({ models: [{ id: 'm', maxContextLength: 32768, loadedContextLength: 4096 }] }), { kind: 'lmstudio', loaded: true, loadedContextLength: 4096 });
  assert.deepEqual(await status({ models: [{ id: 'm', maxContextLength: 32768 }] }), { kind: 'lmstudio', loaded: false }, 'LM Studio, model not loaded');
  assert.deepEqual(await status({ models: [{ id: 'm' }], lmStudioApi: false, llamaCppContext: 4096, llamaCppBuild: 'b6123-abc' }), {
    kind: 'llamacpp',
    loaded: true,
    version: 'b6123-abc',
    loadedContextLength: 4096,
    slots: 1, // /props total_slots (llama-server -np)
  });
  assert.deepEqual(await status({ models: [{ id: 'm', loadedContextLength: 16384 }], lmStudioApi: false, vllmVersion: '0.10.1' }), {
    kind: 'vllm',
    version: '0.10.1',
    loaded: true,
    loadedContextLength: 16384,
  });
  assert.deepEqual(await status({ models: [{ id: 'm' }], lmStudioApi: false }), { kind: 'openai-compatible' });
});

test('a server that does not answer is a ProviderError naming it', async () => {
  const server = keep(await startFakeOpenAIServer([]));
  const url = server.url;
  await server.close();
  await assert.rejects(createProvider({ provider: 'openai', baseUrl: url }).serverStatus!('m', signal()), (e) => e instanceof ProviderError && e.kind === 'connection_refused');
});
