// Model-info and embedding requests have their own short deadlines: against a real TCP server that accepts the
// connection and never answers, each names the server and the request, says what it waits for while waiting,
// and a second lookup right after a timeout fails at once instead of waiting again. The caller's own
// cancellation stays a cancellation.
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, test } from 'node:test';
import { ProviderError, type ChatProvider } from '../../../src/core/provider';
import { createProvider } from '../../../src/providers';

let silent: net.Server;
let port = 0;
const sockets = new Set<net.Socket>();
before(async () => {
  silent = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('data', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  port = (silent.address() as net.AddressInfo).port;
});
after(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((resolve) => silent.close(resolve));
});

function provider(kind: 'ollama' | 'openai', heard: string[]): ChatProvider {
  return createProvider({
    provider: kind,
    baseUrl: kind === 'ollama' ? `http://127.0.0.1:${port}` : `http://127.0.0.1:${port}/v1`,
    infoTimeoutMs: 400,
    embedTimeoutMs: 500,
    onWaiting: (m) => heard.push(m),
  });
}

const noAnswer = (what: RegExp) => (err: unknown) => {
  assert.ok(err instanceof ProviderError, String(err));
  assert.equal(err.kind, 'first_byte_timeout');
  assert.match(err.message, new RegExp(`127\\.0\\.0\\.1:${port}`));
  assert.match(err.message, what);
  return true;
};

for (const kind of ['ollama', 'openai'] as const) {
  test(`model info, the model list, server status and embeddings each time out on their own (${kind})`, async () => {
    const heard: string[] = [];
    const p = provider(kind, heard);
    const signal = new AbortController().signal;
    let t0 = Date.now();
    await assert.rejects(p.modelInfo('m', signal), noAnswer(/did not answer .*model info for m.* within 400 ms/));
    assert.ok(Date.now() - t0 < 2000, `${Date.now() - t0} ms`);
    assert.match(heard[0] ?? '', /^waiting for .*127\.0\.0\.1.* to answer .*model info for m/);
    // Right after a timeout the next lookup does not wait again.
    t0 = Date.now();
    await assert.rejects(p.listModels(signal), noAnswer(/model info for m/));
    assert.ok(Date.now() - t0 < 100, `${Date.now() - t0} ms`);
    await new Promise((r) => setTimeout(r, 450));
    await assert.rejects(p.listModels(signal), noAnswer(/the model list/));
    await new Promise((r) => setTimeout(r, 450));
    await assert.rejects(p.serverStatus!('m', signal), noAnswer(/status/));
    t0 = Date.now();
    await assert.rejects(p.embed!('e', ['hello'], signal), noAnswer(/embeddings with e.* within 500 ms/));
    assert.ok(Date.now() - t0 < 2000);
  });

  test(`the caller cancelling a model-info request is a cancellation, not a timeout (${kind})`, async () => {
    const p = provider(kind, []);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await assert.rejects(p.modelInfo('m', controller.signal), (err: unknown) => !(err instanceof ProviderError && err.kind === 'first_byte_timeout'));
  });
}
