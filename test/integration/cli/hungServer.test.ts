// A server that accepts connections and never answers is named within a minute by `run`, `doctor` and `query`,
// on both wire formats, with a line saying what we wait for while waiting. A real TCP server that reads and
// never writes; the built CLI (npm run build) as a real process; the deadlines shortened through
// LOCALHARNESS_INFO_TIMEOUT_MS / LOCALHARNESS_EMBED_TIMEOUT_MS to keep the test fast.
import assert from 'node:assert/strict';
import { mkdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { runCli } from '../../helpers/cli/runCli';
import { startFakeOllamaServer, startFakeOpenAIServer, type FakeServerHandle } from '../../helpers/fakeLlm';
import { makeWorkspace } from '../../helpers/knowledge/workspaceFixture';
import { indexingModel } from '../../helpers/weakModels';

let silent: net.Server;
let port = 0;
const sockets = new Set<net.Socket>();
before(async () => {
  silent = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('data', () => undefined); // read the request, never answer
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  port = (silent.address() as net.AddressInfo).port;
});
after(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((resolve) => silent.close(resolve));
});

const FAST = { LOCALHARNESS_INFO_TIMEOUT_MS: '1500', LOCALHARNESS_EMBED_TIMEOUT_MS: '1500', LOCALHARNESS_DB: '' };
const WIRES = [
  { name: 'ollama', flags: () => ['--provider', 'ollama', '--base-url', `http://127.0.0.1:${port}`] },
  { name: 'openai', flags: () => ['--provider', 'openai', '--base-url', `http://127.0.0.1:${port}/v1`] },
] as const;

for (const wire of WIRES) {
  test(`run and doctor name the silent server and what it did not answer, quickly (${wire.name})`, async () => {
    const started = Date.now();
    const run = await runCli(['run', ...wire.flags(), '--model', 'm', 'say hi'], { env: FAST, timeoutMs: 20_000 });
    assert.equal(run.code, 1, run.stderr + run.stdout);
    const said = run.stdout + run.stderr;
    assert.match(said, /waiting for .*127\.0\.0\.1:\d+.* to answer .*model info/i);
    assert.match(said, new RegExp(`127\\.0\\.0\\.1:${port}.* did not answer .*within 1\\.5 s`));
    assert.ok(Date.now() - started < 15_000, `took ${Date.now() - started} ms`);

    const doctor = await runCli(['doctor', ...wire.flags(), '--model', 'm'], { env: FAST, timeoutMs: 20_000 });
    assert.equal(doctor.code, 1, doctor.stderr + doctor.stdout);
    assert.match(doctor.stdout + doctor.stderr, /did not answer .* within 1\.5 s; the server may be hung/);
    assert.doesNotMatch(doctor.stdout + doctor.stderr, /fetch failed/);
  });
}

test('the default deadlines name a silent server within a minute (run, ollama)', async () => {
  const started = Date.now();
  const run = await runCli(['run', ...WIRES[0].flags(), '--model', 'm', 'say hi'], { env: { LOCALHARNESS_DB: '' }, timeoutMs: 60_000 });
  assert.equal(run.code, 1);
  assert.match(run.stdout + run.stderr, /did not answer \/api\/show \(model info for m\) within 15 s/);
  assert.ok(Date.now() - started < 30_000, `took ${Date.now() - started} ms`);
});

for (const [name, flags] of [
  ['ollama', (h: FakeServerHandle) => ['--provider', 'ollama', '--base-url', h.origin]],
  ['openai', (h: FakeServerHandle) => ['--provider', 'openai', '--base-url', h.url]],
] as const) {
  test(`query against a server that went silent says which request did not answer (${name})`, async (t) => {
    const ws = makeWorkspace('lh-hung-');
    t.after(() => rmSync(ws, { recursive: true, force: true }));
    const db = path.join(ws, '.lh', 'index.db');
    mkdirSync(path.dirname(db));
    const server = name === 'ollama' ? await startFakeOllamaServer(indexingModel('good'), { name: 'hung index' }) : await startFakeOpenAIServer(indexingModel('good'), { name: 'hung index' });
    try {
      const indexed = await runCli(['index', ...flags(server), '--workspace', ws, '--db', db, '--model', 'test-model', '--embed-model', 'nomic-embed-text', 'src/config.ts'], { cwd: ws, env: FAST });
      assert.equal(indexed.code, 0, indexed.stderr);
    } finally {
      await server.close();
    }
    const silentFlags = name === 'ollama' ? WIRES[0].flags() : WIRES[1].flags();
    const started = Date.now();
    const query = await runCli(['query', ...silentFlags, '--workspace', ws, '--db', db, 'where is the config parsed?'], { cwd: ws, env: FAST, timeoutMs: 20_000 });
    const said = query.stdout + query.stderr;
    assert.match(said, /waiting for .* to answer .*embed/i);
    assert.match(said, /did not answer .*embed.* within 1\.5 s/i);
    assert.doesNotMatch(said, /fetch failed/);
    assert.ok(Date.now() - started < 15_000, `took ${Date.now() - started} ms`);
  });
}
