// `localharness doctor` through the real CLI process against the fake servers: the window a server really runs
// (with the fix for that server), `--json` as one document with every finding, one clear line for a server that
// does not answer or lacks the model, and `--db`: the next `run --db` starts from what the check found.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli, type CliRun } from '../../helpers/cli/runCli';
import { startFakeOllamaServer, startFakeOpenAIServer, type ChatBody, type FakeServerHandle, type ScriptedReply } from '../../helpers/fakeLlm';
import { setupProbeModel, type ProbeModelOptions } from '../../helpers/weakModels';

const MODEL = 'coder:7b';
const servers: FakeServerHandle[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});
const keep = (s: FakeServerHandle) => (servers.push(s), s);

/** The probe model for the check's requests; anything else (a `run`) gets a short answer. */
function model(options: ProbeModelOptions): (body: ChatBody) => ScriptedReply {
  const probe = setupProbeModel(options);
  return (body) => probe(body) ?? { text: 'Hello from the model.' };
}

function tmpDb(): string {
  return path.join(mkdtempSync(path.join(tmpdir(), 'lh-doctor-')), 'sessions.db');
}

function report(run: CliRun): Record<string, any> {
  assert.equal(run.events.length, 1, `one JSON document on stdout:\n${run.stdout}\n${run.stderr}`);
  return run.events[0]!;
}

/** The plan is said before anything is sent: the first thing on stderr. */
function assertPlanFirst(run: CliRun): void {
  assert.match(run.stderr.split('\n')[0]!, /^localharness doctor: The setup check sends a handful of short requests to http:\/\/127\.0\.0\.1:\d+/);
  assert.match(run.stderr, /nothing from your workspace or chats is sent/);
}

describe('a server running a smaller window than the model and the settings', () => {
  const cases = [
    {
      name: 'Ollama (/api/ps context_length)',
      start: () => startFakeOllamaServer(model({ native: 'native', text: 'follows' }), { models: [{ name: MODEL, contextLength: 32768, capabilities: ['completion', 'tools'] }], runningContext: 4096 }),
      flags: (s: FakeServerHandle) => ['--provider', 'ollama', '--base-url', s.origin],
      kind: 'ollama',
      fix: [/OLLAMA_CONTEXT_LENGTH=16384/, /PARAMETER num_ctx 16384/],
    },
    {
      name: 'LM Studio (loaded context)',
      start: () => startFakeOpenAIServer(model({ native: 'native', text: 'follows' }), { models: [{ id: MODEL, maxContextLength: 32768, loadedContextLength: 4096 }] }),
      flags: (s: FakeServerHandle) => ['--provider', 'openai', '--base-url', s.url],
      kind: 'lmstudio',
      fix: [/LM Studio: "Context Length" when loading/, /--num-ctx\) to 4096/],
    },
    {
      name: 'llama.cpp (/props n_ctx)',
      start: () => startFakeOpenAIServer(model({ native: 'native', text: 'follows' }), { models: [{ id: MODEL }], lmStudioApi: false, llamaCppContext: 4096 }),
      flags: (s: FakeServerHandle) => ['--provider', 'openai', '--base-url', s.url],
      kind: 'llamacpp',
      fix: [/llama\.cpp: --ctx-size/],
    },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const server = keep(await c.start());
      const run = await runCli(['doctor', ...c.flags(server), '--model', MODEL, '--num-ctx', '16384', '--json']);
      assert.equal(run.code, 0, run.stderr);
      assertPlanFirst(run);
      const r = report(run);
      assert.equal(r.server.kind, c.kind);
      assert.equal(r.window.verdict, 'limited', JSON.stringify(r.window));
      assert.equal(r.window.running, 4096);
      assert.equal(r.window.budget, 4096);
      assert.equal(r.window.configured, 16384);
      assert.match(r.window.summary, /4,096 tokens of context, not the 16,384/);
      for (const fix of c.fix) assert.match(r.window.fix, fix);
      assert.equal(r.overall.verdict, 'limited');
      assert.match(r.overall.summary, /the server runs 4,096 tokens, not 16,384/);

      if (c.kind !== 'ollama') return;
      const text = await runCli(['doctor', ...c.flags(server), '--model', MODEL, '--num-ctx', '16384']);
      assert.equal(text.code, 0, text.stderr);
      assert.match(text.stdout, /\[limited\] Context window/);
      assert.match(text.stdout, /Fix: .*--num-ctx/);
      assert.match(text.stdout, /^Usable with limits: /m);
    });
  }
});

describe('one clear line', () => {
  test('for a server that does not answer', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
    for (const [provider, url] of [['ollama', `http://127.0.0.1:${port}`], ['openai', `http://127.0.0.1:${port}/v1`]] as const) {
      const run = await runCli(['doctor', '--provider', provider, '--base-url', url, '--model', MODEL]);
      assert.equal(run.code, 1);
      assertPlanFirst(run);
      const lines = run.stdout.split('\n').filter((l) => l.trim());
      assert.equal(lines.length, 1, run.stdout);
      assert.match(lines[0]!, new RegExp(`^Not usable: Cannot reach .*127\\.0\\.0\\.1:${port}.*connection refused.*Start`));
    }
  });

  test('for a model the server does not have, naming the closest and the fix', async () => {
    const ollama = keep(await startFakeOllamaServer(model({ native: 'native', text: 'follows' }), { models: ['qwen3:8b', 'qwen2.5-coder:7b', 'llama3.1:8b'].map((name) => ({ name, contextLength: 32768, capabilities: ['completion', 'tools'] })) }));
    const run = await runCli(['doctor', '--provider', 'ollama', '--base-url', ollama.origin, '--model', 'qwen3:4b']);
    assert.equal(run.code, 1);
    const lines = run.stdout.split('\n').filter((l) => l.trim());
    assert.equal(lines.length, 1, run.stdout);
    assert.match(lines[0]!, /^Not usable: Ollama 0\.12\.6 at .* does not have the model "qwen3:4b"; closest: qwen3:8b/);
    assert.match(lines[0]!, /ollama pull qwen3:4b/);
    assert.equal(ollama.requests.length, 0, 'no chat request for a model that is not there');

    const openai = keep(await startFakeOpenAIServer([], { models: [{ id: 'qwen2.5-coder-7b-instruct', loadedContextLength: 8192 }] }));
    const json = await runCli(['doctor', '--provider', 'openai', '--base-url', openai.url, '--model', 'qwen2.5-coder-14b-instruct', '--json']);
    assert.equal(json.code, 1);
    const r = report(json);
    assert.equal(r.server.modelListed, false);
    assert.deepEqual(r.server.closest, ['qwen2.5-coder-7b-instruct']);
    assert.equal(r.tools.verdict, 'skipped');
    assert.equal(r.overall.verdict, 'unusable');
  });
});

describe('--json', () => {
  test('prints one document with every finding, the embedding model present or missing', async () => {
    const server = keep(
      await startFakeOllamaServer(model({ native: 'native', text: 'follows' }), {
        models: [{ name: MODEL, contextLength: 32768, capabilities: ['completion', 'tools'] }],
        embeddingModels: ['nomic-embed-text'],
        runningContext: 32768,
      }),
    );
    const flags = ['doctor', '--provider', 'ollama', '--base-url', server.origin, '--model', MODEL, '--json'];
    const run = await runCli([...flags, '--embed-model', 'nomic-embed-text']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /one embedding of two words with nomic-embed-text/, 'the plan names the embedding request');
    const r = report(run);
    for (const key of ['server', 'window', 'tools', 'speed', 'cache', 'embedding']) {
      assert.ok(['ok', 'info', 'limited', 'failed', 'skipped'].includes(r[key].verdict), `${key}: ${JSON.stringify(r[key])}`);
      assert.equal(typeof r[key].summary, 'string');
      assert.ok(Array.isArray(r[key].details));
    }
    assert.equal(r.model, MODEL);
    assert.equal(r.provider, 'ollama');
    assert.equal(r.window.verdict, 'ok');
    assert.equal(r.tools.protocol, 'native');
    assert.equal(r.embedding.verdict, 'ok');
    assert.equal(r.embedding.models[0].name, 'nomic-embed-text');
    assert.ok(r.embedding.models[0].dimensions > 0);
    assert.equal(r.overall.verdict, 'ready', r.overall.summary);

    const missing = report(await runCli([...flags, '--embed-model', 'mxbai-embed-large']));
    assert.equal(missing.embedding.verdict, 'limited');
    assert.match(missing.embedding.fix, /ollama pull mxbai-embed-large/);
    assert.equal(missing.overall.verdict, 'limited');

    const none = report(await runCli(flags));
    assert.equal(none.embedding.verdict, 'info');
    assert.match(none.embedding.fix, /ollama pull nomic-embed-text/);
  });

  test('usage errors exit 2', async () => {
    const run = await runCli(['doctor', '--approve', 'all']);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /--approve does not apply to `doctor`/);
  });
});

describe('--db: the next run starts from what the check found', () => {
  const wires = [
    {
      name: 'ollama',
      start: (o: ProbeModelOptions) => startFakeOllamaServer(model(o), { models: [{ name: MODEL, contextLength: 32768, capabilities: ['completion', 'tools'] }], runningContext: 4096 }),
      flags: (s: FakeServerHandle) => ['--provider', 'ollama', '--base-url', s.origin, '--model', MODEL, '--num-ctx', '16384'],
    },
    {
      name: 'openai',
      // llama-server: the window it runs comes from /props before any request, so only the protocol is kept.
      start: (o: ProbeModelOptions) => startFakeOpenAIServer(model(o), { models: [{ id: MODEL, maxContextLength: 32768 }], llamaCppContext: 4096, lmStudioApi: false }),
      flags: (s: FakeServerHandle) => ['--provider', 'openai', '--base-url', s.url, '--model', MODEL],
    },
  ];
  for (const wire of wires) {
    test(`${wire.name}: a model that writes its calls as text starts with text-based calls; the window found is budgeted from the start`, async () => {
      const ws = mkdtempSync(path.join(tmpdir(), 'lh-doctor-ws-'));
      // Without a check: native tool calls (the request offers tools).
      const control = keep(await wire.start({ native: 'json-text', text: 'follows' }));
      const plain = await runCli(['run', ...wire.flags(control), '--workspace', ws, '--db', tmpDb(), '--json', 'Say hello'], { cwd: ws });
      assert.equal(plain.code, 0, plain.stderr);
      assert.ok(Array.isArray(control.requests[0]!.tools) && (control.requests[0]!.tools as unknown[]).length > 0, 'without a check the first request offers tools natively');

      const server = keep(await wire.start({ native: 'json-text', text: 'follows' }));
      const db = tmpDb();
      const doctor = await runCli(['doctor', ...wire.flags(server), '--db', db, '--json']);
      assert.equal(doctor.code, 0, doctor.stderr);
      assert.match(doctor.stderr, new RegExp(`kept in ${db.replace(/[.]/g, '\\.')}`));
      const r = report(doctor);
      assert.equal(r.tools.protocol, 'xml');
      if (wire.name === 'ollama') assert.equal(r.window.budget, 4096);

      const before = server.requests.length;
      const run = await runCli(['run', ...wire.flags(server), '--workspace', ws, '--db', db, '--json', 'Say hello'], { cwd: ws });
      assert.equal(run.code, 0, run.stderr);
      const first = server.requests[before] as { tools?: unknown; messages?: Array<{ content?: unknown }> };
      assert.ok(!Array.isArray(first.tools) || first.tools.length === 0, 'the first request of the run offers no tools through the API');
      assert.match(String(first.messages?.[0]?.content), /# Calling tools/, 'its system prompt explains <tool> blocks');
      const notice = run.events.find((e) => e.type === 'notice' && /setup check/.test(String(e.message)));
      assert.ok(notice, `a notice says why: ${JSON.stringify(run.events.filter((e) => e.type === 'notice'))}`);
      if (wire.name === 'ollama') {
        const firstContext = run.events.find((e) => e.type === 'context');
        assert.equal(firstContext?.window, 4096, 'the first request is budgeted for the window the check found');
        const controlContext = plain.events.find((e) => e.type === 'context');
        assert.equal(controlContext?.window, 16384, 'without the check the first request is budgeted for what was asked');
      }
    });
  }
});
