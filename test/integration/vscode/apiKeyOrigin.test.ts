// A secret belongs to its server: with a key stored for the user's server, requests to any other origin (a
// repository's server, another port) carry no trace of it — over real HTTP, checked on the headers that arrive.
// A server without a stored key that answers 401 gets a message saying why.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startFakeOpenAIServer, type FakeServerHandle } from '../../helpers/fakeLlm';
import { ModelService } from '../../../src/editor/models/modelService';
import { missingKeyNotice } from '../../../src/editor/models/modelText';
import { createChatProvider } from '../../../src/editor/engine/turnEngine';
import { ApiKeyVault, LEGACY_API_KEY_NAME } from '../../../src/editor/apiKeyVault';
import { MemorySecrets } from '../../helpers/memorySecrets';
import { Logger, Redactor } from '../../../src/editor/log/logger';
import { DEFAULT_SETTINGS, type HarnessSettings } from '../../../src/editor/settings/harnessSettings';
import { RecordingLogSink } from '../../helpers/recordingLogSink';
import type { ChatProvider } from '../../../src/core/provider';

const SECRET = 'sk-user-secret-4f9a';


const openai = (url: string): HarnessSettings => ({ ...DEFAULT_SETTINGS, provider: 'openai', openaiBaseUrl: url, model: 'tiny' });
const signal = () => new AbortController().signal;

async function oneChat(provider: ChatProvider): Promise<string> {
  let text = '';
  for await (const delta of provider.chat({ model: 'tiny', messages: [{ role: 'user', content: 'hi' }], tools: [], signal: signal() })) {
    if (delta.type === 'text') text += delta.text;
  }
  return text;
}

/** Every header value the server received, joined, so the secret cannot hide in any of them. */
function allHeaders(server: FakeServerHandle): string {
  return server.log.map((r) => JSON.stringify(r.headers)).join('\n');
}

async function twoServers() {
  const reply = () => ({ text: 'hello' });
  const models = [{ id: 'tiny', maxContextLength: 8192, loadedContextLength: 8192 }];
  const mine = await startFakeOpenAIServer(reply, { name: 'user server', models });
  const theirs = await startFakeOpenAIServer(reply, { name: 'repository server', models });
  return { mine, theirs };
}

function service(vault: ApiKeyVault) {
  return new ModelService({
    log: new Logger(new RecordingLogSink()),
    apiKeys: vault,
    loadEngine: () => import('../../../src/editor/engine/turnEngine'),
    probeTimeoutMs: 3000,
  });
}

test('the key stored for the user\u2019s server reaches it and never another origin', async () => {
  const { mine, theirs } = await twoServers();
  try {
    const secrets = new MemorySecrets();
    const vault = new ApiKeyVault(secrets, { legacyOrigin: () => mine.origin });
    await vault.set(mine.origin, SECRET);
    const models = service(vault);

    // The repository's server: list, model info and a chat request, none with the key.
    const elsewhere = openai(theirs.url);
    assert.deepEqual((await models.list(elsewhere, signal())).map((m) => m.name), ['tiny']);
    await models.contextWindow(elsewhere, 'tiny', signal());
    assert.equal(await oneChat(await models.provider(elsewhere)), 'hello');
    assert.ok(theirs.log.length >= 3, `requests reached the other server: ${theirs.log.map((r) => r.path).join(', ')}`);
    assert.ok(!allHeaders(theirs).includes(SECRET), 'the key never reaches another origin');
    for (const r of theirs.log) assert.notEqual(r.headers.authorization, `Bearer ${SECRET}`);

    // The user's own server gets it on every API request.
    const own = openai(mine.url);
    await models.list(own, signal());
    assert.equal(await oneChat(await models.provider(own)), 'hello');
    const api = mine.log.filter((r) => r.path.startsWith('/v1/'));
    assert.ok(api.length >= 2);
    for (const r of api) assert.equal(r.headers.authorization, `Bearer ${SECRET}`, `${r.method} ${r.path}`);
  } finally {
    await mine.close();
    await theirs.close();
  }
});

test('same host, another port is another server: no key', async () => {
  const { mine, theirs } = await twoServers();
  try {
    assert.equal(new URL(mine.origin).hostname, new URL(theirs.origin).hostname);
    const vault = new ApiKeyVault(new MemorySecrets(), { legacyOrigin: () => undefined });
    await vault.set(mine.origin, SECRET);
    await oneChat(await service(vault).provider(openai(theirs.url)));
    assert.ok(!allHeaders(theirs).includes(SECRET));
  } finally {
    await mine.close();
    await theirs.close();
  }
});

test('an old single key is bound to the user\u2019s own server, so a repository\u2019s server does not get it', async () => {
  const { mine, theirs } = await twoServers();
  try {
    const secrets = new MemorySecrets();
    secrets.values.set(LEGACY_API_KEY_NAME, SECRET);
    const vault = new ApiKeyVault(secrets, { legacyOrigin: () => mine.origin });
    const models = service(vault);
    // The first request after the update goes to the repository's server.
    await oneChat(await models.provider(openai(theirs.url)));
    assert.ok(!allHeaders(theirs).includes(SECRET));
    await oneChat(await models.provider(openai(mine.url)));
    assert.equal(mine.requests.length, 1);
    assert.equal(mine.log.find((r) => r.path === '/v1/chat/completions')?.headers.authorization, `Bearer ${SECRET}`);
  } finally {
    await mine.close();
    await theirs.close();
  }
});

test('createChatProvider drops a key handed to it for another origin', async () => {
  const { mine, theirs } = await twoServers();
  try {
    const redactor = new Redactor();
    const log = new Logger(new RecordingLogSink(), redactor);
    await oneChat(createChatProvider(openai(theirs.url), { origin: mine.origin, value: SECRET }, log));
    assert.ok(!allHeaders(theirs).includes(SECRET));
    await oneChat(createChatProvider(openai(theirs.url), { origin: theirs.origin, value: 'sk-theirs' }, log));
    assert.equal(theirs.log.at(-1)?.headers.authorization, 'Bearer sk-theirs');
  } finally {
    await mine.close();
    await theirs.close();
  }
});

test('a 401 from a server with no stored key says that keys belong to the server they were entered for', async () => {
  // A server that wants its own key, answering like OpenAI-compatible servers do.
  const server = createServer((req, res) => {
    if (req.headers.authorization !== 'Bearer sk-right') {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'Invalid API key', type: 'invalid_request_error', code: 'invalid_api_key' } }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ object: 'list', data: [{ id: 'tiny', object: 'model', owned_by: 'x' }] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const vault = new ApiKeyVault(new MemorySecrets(), { legacyOrigin: () => undefined });
    await vault.set('http://127.0.0.1:1', 'sk-right');
    const models = service(vault);
    const settings = openai(`${origin}/v1`);
    await assert.rejects(models.list(settings, signal()), (err: Error) => {
      assert.match(err.message, /401/);
      assert.ok(err.message.includes(missingKeyNotice(origin)), err.message);
      return true;
    });
    assert.equal(await models.missingKeyNotice(settings, 'OpenAI-compatible server answered HTTP 401: Invalid API key'), missingKeyNotice(origin));
    // With a key stored for this very server, it is sent and the server answers.
    await vault.set(origin, 'sk-right');
    assert.deepEqual((await models.list(settings, signal())).map((m) => m.name), ['tiny']);
    assert.equal(await models.missingKeyNotice(settings, 'OpenAI-compatible server answered HTTP 401: Invalid API key'), undefined, 'a key was sent: the 401 is about that key');
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
