// Ollama cuts a prompt longer than num_ctx from its start, silently, unless asked not to (`truncate: false`,
// `shift: false`, newer servers): then an overflow is an error the product sees. A server that rejects the
// fields keeps working without them.
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import type { ChatRequest } from '../../../src/core/provider';
import { OllamaProvider } from '../../../src/providers/ollama';
import { startFakeOllamaServer, type FakeServerHandle } from '../../helpers/fakeLlm';
import { OLLAMA_PROMPT_TOO_LONG } from '../../helpers/fakeLlm/ollamaServer';
import { collect, collectUntilError, signal, textOf } from '../../helpers/fakeLlm/streamHelpers';

const servers: FakeServerHandle[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

const MODEL = { name: 'qwen3:8b', contextLength: 40960, capabilities: ['completion', 'tools'] };

function request(content: string): ChatRequest {
  return { model: MODEL.name, messages: [{ role: 'user', content }], tools: [], signal: signal(), contextSize: 2048 };
}

describe('Ollama truncate: false', () => {
  test('every chat request asks Ollama not to cut the prompt; a short one is answered as before', async () => {
    const server = await startFakeOllamaServer([{ text: 'ok' }], { models: [MODEL], checkContext: true });
    servers.push(server);
    const provider = new OllamaProvider({ host: server.url });
    assert.equal(textOf(await collect(provider.chat(request('Hi')))), 'ok');
    assert.equal(server.requests[0]!.truncate, false);
    assert.equal(server.requests[0]!.shift, false);
  });

  test('a prompt longer than num_ctx is an HTTP 400 naming the context, not a silently cut prompt', async () => {
    const server = await startFakeOllamaServer([{ text: 'never' }], { models: [MODEL], checkContext: true });
    servers.push(server);
    const provider = new OllamaProvider({ host: server.url });
    const { error } = await collectUntilError(provider.chat(request('word '.repeat(3000))));
    assert.equal(error.kind, 'http');
    assert.equal(error.options.status, 400);
    assert.ok(error.message.includes(OLLAMA_PROMPT_TOO_LONG), error.message);
    assert.match(error.message, /longer than the context the model was loaded with/);
    assert.equal(server.requests.length, 1, 'an overflow is not retried without the fields');
  });

  test('a server that rejects the fields: the request is sent again without them, and later ones leave them out', async () => {
    const server = await startFakeOllamaServer([{ text: 'one' }, { text: 'two' }], { models: [MODEL], rejectOverflowFields: true });
    servers.push(server);
    const provider = new OllamaProvider({ host: server.url });
    assert.equal(textOf(await collect(provider.chat(request('Hi')))), 'one');
    assert.equal(textOf(await collect(provider.chat(request('Again')))), 'two');
    assert.equal(server.requests.length, 3, 'one refused request, then the two answered');
    assert.equal(server.requests[0]!.truncate, false);
    assert.ok(!('truncate' in server.requests[1]!) && !('shift' in server.requests[1]!));
    assert.ok(!('truncate' in server.requests[2]!), 'remembered: no second refusal');
  });
});
