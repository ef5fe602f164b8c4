// ModelService (listing, reachability, context window) against the wire-faithful fake servers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Socket } from 'node:net';
import { startFakeOllamaServer, startFakeOpenAIServer } from '../../helpers/fakeLlm';
import { ModelService } from '../../../src/editor/models/modelService';
import { Logger } from '../../../src/editor/log/logger';
import { DEFAULT_SETTINGS, type HarnessSettings } from '../../../src/editor/settings/harnessSettings';
import { RecordingLogSink } from '../../helpers/recordingLogSink';
import { closedPort } from '../../helpers/fakeLlm/streamHelpers';

function service(apiKey?: string) {
  const reachability: Array<string | undefined> = [];
  const sink = new RecordingLogSink();
  const models = new ModelService({
    log: new Logger(sink),
    apiKeys: { get: async () => apiKey },
    loadEngine: () => import('../../../src/editor/engine/turnEngine'),
    probeTimeoutMs: 1500,
  });
  models.onDidProbe((m) => reachability.push(m));
  return { models, reachability, sink };
}

/** A port on 127.0.0.1 that nothing listens on. */

const signal = () => new AbortController().signal;

/** Accepts connections and never answers; close() also drops the connections it is holding. */
async function startSilentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    port,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

test('lists Ollama models, reports the server reachable, and derives the context window as num_ctx will be', async () => {
  const server = await startFakeOllamaServer([], {
    models: [
      { name: 'qwen3:latest', contextLength: 40960, capabilities: ['completion', 'tools', 'thinking'] },
      { name: 'small:latest', contextLength: 4096, capabilities: ['completion', 'tools'] },
      { name: 'nomic-embed-text:latest', contextLength: 8192, capabilities: ['embedding'] },
    ],
  });
  try {
    const { models, reachability } = service();
    const settings: HarnessSettings = { ...DEFAULT_SETTINGS, ollamaHost: server.origin };
    const infos = await models.list(settings, signal());
    assert.deepEqual(infos.map((m) => m.name).sort(), ['nomic-embed-text:latest', 'qwen3:latest', 'small:latest']);
    assert.deepEqual(reachability, [undefined]);
    assert.equal(await models.contextWindow(settings, 'qwen3', signal()), 32768, 'capped like the provider caps num_ctx');
    assert.equal(await models.contextWindow(settings, 'small', signal()), 4096);
    assert.equal(await models.contextWindow({ ...settings, contextSize: 2048 }, 'qwen3', signal()), 2048);
    const first = await models.firstChatModel(settings, signal());
    assert.notEqual(first, 'nomic-embed-text:latest', 'an embedding-only model is never picked to chat');
  } finally {
    await server.close();
  }
});

test('an address where nothing listens is "unreachable", with the URL and how to start the server', async () => {
  const port = await closedPort();
  const { models, reachability } = service();
  const settings: HarnessSettings = { ...DEFAULT_SETTINGS, ollamaHost: `http://127.0.0.1:${port}` };
  await assert.rejects(models.list(settings, signal()), (err: Error) => {
    assert.match(err.message, new RegExp(`reach .*http://127\\.0\\.0\\.1:${port}`));
    assert.match(err.message, /ollama serve/);
    return true;
  });
  assert.equal(reachability.length, 1);
  assert.match(reachability[0]!, /reach/);
});

test('a server that answers with an HTTP error is reachable, and its answer is passed on', async () => {
  // An OpenAI-compatible server has no /api/tags: Ollama's model list gets an HTTP error back.
  const server = await startFakeOpenAIServer([]);
  try {
    const { models, reachability } = service();
    await assert.rejects(models.list({ ...DEFAULT_SETTINGS, ollamaHost: server.origin }, signal()), /answered with an error/);
    assert.deepEqual(reachability, [undefined]);
  } finally {
    await server.close();
  }
});

test('a server that never answers is unreachable after the probe timeout', async () => {
  const silent = await startSilentServer();
  const port = silent.port;
  try {
    const { models, reachability } = service();
    const started = Date.now();
    await assert.rejects(models.list({ ...DEFAULT_SETTINGS, ollamaHost: `http://127.0.0.1:${port}` }, signal()), /no answer within 1\.5 s/);
    assert.ok(Date.now() - started < 5000);
    assert.equal(reachability.length, 1);
  } finally {
    await silent.close();
  }
});

test('OpenAI-compatible: the loaded context length is the window', async () => {
  const server = await startFakeOpenAIServer([], { models: [{ id: 'tiny', maxContextLength: 32768, loadedContextLength: 4096 }] });
  try {
    const { models } = service('sk-test-key');
    const settings: HarnessSettings = { ...DEFAULT_SETTINGS, provider: 'openai', openaiBaseUrl: server.url };
    const infos = await models.list(settings, signal());
    assert.deepEqual(
      infos.map((m) => m.name),
      ['tiny'],
    );
    assert.equal(await models.contextWindow(settings, 'tiny', signal()), 4096);
  } finally {
    await server.close();
  }
});

test('a caller abort is passed through, not reported as an unreachable server', async () => {
  const silent = await startSilentServer();
  const port = silent.port;
  try {
    const { models, reachability } = service();
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 100);
    await assert.rejects(models.list({ ...DEFAULT_SETTINGS, ollamaHost: `http://127.0.0.1:${port}` }, abort.signal));
    assert.deepEqual(reachability, []);
  } finally {
    await silent.close();
  }
});
