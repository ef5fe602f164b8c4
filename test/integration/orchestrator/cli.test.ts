// `localharness run --planner-model … --executor-model …` through the built CLI, over both wire formats: the
// planner and the executor on different fake servers; --json shows the plan and step events; a TTY-less run with
// --approve read still has every write asked (and denied), and nothing is retried or done behind the user's back.
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../../helpers/cli/runCli';
import { startFakeOllamaServer, startFakeOpenAIServer, type FakeServerHandle, type Script } from '../../helpers/fakeLlm';
import { headerCounts, headerTaskText, headerWorkspace } from '../../helpers/weakModels/headerTask';
import { plannerModel } from '../../helpers/weakModels/plannerModel';
import { executorModel } from '../../helpers/weakModels/executorModel';
import { offered } from './harness';

const FILES = 5;
const WIRES = [
  { name: 'ollama', start: (s: Script, n: string) => startFakeOllamaServer(s, { name: n }), url: (h: FakeServerHandle) => h.origin },
  { name: 'openai', start: (s: Script, n: string) => startFakeOpenAIServer(s, { name: n }), url: (h: FakeServerHandle) => h.url },
] as const;

for (const wire of WIRES) {
  describe(`CLI planner/executor over ${wire.name}`, () => {
    const servers: FakeServerHandle[] = [];
    after(async () => {
      await Promise.all(servers.map((s) => s.close()));
    });
    const start = async (s: Script, n: string) => {
      const h = await wire.start(s, n);
      servers.push(h);
      return h;
    };
    const flags = (planner: FakeServerHandle, executor: FakeServerHandle) => [
      '--provider', wire.name,
      '--base-url', wire.url(planner),
      '--planner-model', 'big-planner',
      '--executor-model', 'small-executor',
      '--executor-base-url', wire.url(executor),
    ];

    test('a planned run: plan on the planner server, tool calls on the executor server only, plan and step events in --json', async () => {
      const { ws, files } = headerWorkspace(FILES);
      const planner = await start(plannerModel({ plan: 'good' }), 'planner');
      const executor = await start(executorModel(), 'executor');
      const run = await runCli(['run', ...flags(planner, executor), '--workspace', ws, '--approve', 'all', '--json', headerTaskText(FILES)], { cwd: ws });
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(headerCounts(ws, files), files.map(() => 1));
      assert.equal(planner.requests.length, 2);
      assert.ok(planner.requests.every((r) => r.model === 'big-planner' && offered(r).length === 0));
      assert.equal(executor.requests.length, FILES * 3);
      assert.ok(executor.requests.every((r) => r.model === 'small-executor' && offered(r).includes('edit_file')));
      const plan = run.events.find((e) => e.type === 'plan') as { steps?: unknown[] } | undefined;
      assert.equal(plan?.steps?.length, FILES);
      assert.equal(run.events.filter((e) => e.type === 'step_end' && e.status === 'ok').length, FILES);
      assert.equal(run.events.filter((e) => e.type === 'tool_call').length, FILES * 2);
      assert.equal(run.events.at(-1)?.type, 'turn_end');
      assert.equal(run.events.at(-1)?.result, `Added the header to ${FILES} of ${FILES} files.`);
    });

    test('--approve read without a terminal: every write is asked and denied, the steps fail without retry or fallback', async () => {
      const { ws, files } = headerWorkspace(FILES);
      const planner = await start(plannerModel({ plan: 'good' }), 'planner');
      const executor = await start(executorModel(), 'executor');
      const run = await runCli(['run', ...flags(planner, executor), '--workspace', ws, '--json', headerTaskText(FILES)], { cwd: ws });
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(headerCounts(ws, files), files.map(() => 0));
      const denied = run.events.filter((e) => e.type === 'approval_result' && e.approved === false);
      assert.deepEqual(denied.map((e) => e.name), files.map(() => 'edit_file'));
      assert.deepEqual(run.events.filter((e) => e.type === 'step_end').map((e) => e.status), files.map(() => 'failed'));
      assert.equal(run.events.filter((e) => e.type === 'notice' && /planned run stopped/.test(String(e.message))).length, 0);
      // Each step: read, edit (denied), and no second attempt; then the planner's answer says so.
      assert.equal(executor.requests.length, FILES * 2);
      assert.equal(planner.requests.length, 2);
      assert.equal(run.events.at(-1)?.result, `Added the header to 0 of ${FILES} files; ${FILES} did not succeed.`);
    });

    test('an unreachable executor (closed port): the CLI run finishes in the single-model loop on the planner model', async () => {
      const { ws, files } = headerWorkspace(FILES);
      const planner = await start(plannerModel({ plan: 'good' }), 'planner');
      const closed = await start([], 'closed');
      const closedUrl = wire.url(closed);
      await closed.close();
      const run = await runCli(
        ['run', '--provider', wire.name, '--base-url', wire.url(planner), '--planner-model', 'big-planner', '--executor-model', 'small-executor', '--executor-base-url', closedUrl, '--workspace', ws, '--approve', 'all', '--json', headerTaskText(FILES)],
        { cwd: ws, env: { LOCALHARNESS_RETRY_BACKOFF_MS: '0' } },
      );
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(headerCounts(ws, files), files.map(() => 1));
      assert.ok(run.events.some((e) => e.type === 'notice' && /executor .* failed on step 1/.test(String(e.message))));
      assert.ok(planner.requests.slice(1).every((r) => r.model === 'big-planner'));
    });
  });
}

test('planner and executor on different kinds of server: the planner on Ollama, the executor on an OpenAI-compatible server', async () => {
  const { ws, files } = headerWorkspace(FILES);
  const planner = await startFakeOllamaServer(plannerModel({ plan: 'good' }), { name: 'ollama planner' });
  const executor = await startFakeOpenAIServer(executorModel(), { name: 'openai executor' });
  try {
    const run = await runCli(
      ['run', '--provider', 'ollama', '--base-url', planner.origin, '--planner-model', 'big-planner', '--executor-model', 'small-executor', '--executor-provider', 'openai', '--executor-base-url', executor.url, '--workspace', ws, '--approve', 'all', '--json', headerTaskText(FILES)],
      { cwd: ws },
    );
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(headerCounts(ws, files), files.map(() => 1));
    assert.equal(planner.requests.length, 2, 'plan and answer on the Ollama server');
    assert.equal(executor.requests.length, FILES * 3, 'every tool call on the OpenAI-compatible server');
    assert.ok(executor.requests.every((r) => r.model === 'small-executor'));
    const bad = await runCli(['run', '--planner-model', 'a', '--executor-model', 'b', '--executor-provider', 'lmstudio', 'x'], { cwd: ws });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--executor-provider must be ollama or openai, got "lmstudio"/);
  } finally {
    await Promise.all([planner.close(), executor.close()]);
  }
});
