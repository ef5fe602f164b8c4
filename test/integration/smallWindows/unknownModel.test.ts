// Small windows for real (e): a model name the server does not list. The window cannot be looked up, so the
// agent falls back to 4,096 tokens — and says so once, with how to set the real one, before the request
// fails (Ollama: the model is not installed) or goes ahead (llama.cpp serves whatever name it is sent).
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeOllamaServer, startFakeOpenAIServer, type FakeServerHandle } from '../../helpers/fakeLlm';
import { fileTaskWorkspace } from '../../helpers/tasks/fileTask';
import { lastLines, noticesOf, runAgent, type CliEvent } from './smallWindowRuns';

const MISSING = 'does-not-exist';
const FALLBACK = /\b4,?096\b/;
const HOW_TO_SET = [/localharness\.contextSize/, /--num-ctx/];

const servers: FakeServerHandle[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

/** The notices that tell the user about the assumed window. */
function fallbackNotices(events: CliEvent[]): CliEvent[] {
  return events.filter((e) => e.type === 'notice' && FALLBACK.test(String(e.message)));
}

function assertOneFallbackNotice(events: CliEvent[], before: (e: CliEvent) => boolean, context: string): void {
  const notices = fallbackNotices(events);
  assert.equal(notices.length, 1, `one notice naming the assumed 4,096-token window: ${JSON.stringify(events.filter((e) => e.type === 'notice'))}\n${context}`);
  const message = String(notices[0]!.message);
  for (const how of HOW_TO_SET) assert.match(message, how, 'the notice says how to set the window');
  const first = events.findIndex(before);
  assert.ok(first >= 0, context);
  assert.ok(events.indexOf(notices[0]!) < first, `the notice comes first: ${context}`);
}

describe(`--model ${MISSING}, which the server does not list`, () => {
  test('Ollama (not installed): one notice with the assumed window and the fix, then the error names the model', async (t) => {
    const server = await startFakeOllamaServer(() => ({ text: 'never reached: Ollama answers 404 first' }), {
      name: 'unknown model (ollama)',
      models: [{ name: 'qwen3:8b', contextLength: 40960, capabilities: ['completion', 'tools'] }],
    });
    servers.push(server);
    const ws = fileTaskWorkspace(1);
    const run = await runAgent(['--provider', 'ollama', '--base-url', server.origin, '--model', MISSING, 'Rename the notes.'], ws);
    const report = `exit ${run.code}; notices ${JSON.stringify(noticesOf(run))}; ${server.log.map((l) => `${l.method} ${l.path}`).join(', ')}; ${lastLines(run.stderr, 2)}`;
    t.diagnostic(report);

    assert.equal(run.code, 1, report);
    assertOneFallbackNotice(run.events, (e) => e.type === 'error', report);
    const error = run.events.find((e) => e.type === 'error');
    assert.match(String(error?.message), new RegExp(`${MISSING}[\\s\\S]*not found|not found[\\s\\S]*${MISSING}`), 'the error says the model is missing');
  });

  test('llama.cpp-like server (serves any name): one notice with the assumed window and the fix, then the answer', async (t) => {
    const server = await startFakeOpenAIServer([{ text: 'Hello! How can I help?' }], {
      name: 'unknown model (openai)',
      models: [{ id: 'qwen3-8b' }],
      lmStudioApi: false,
    });
    servers.push(server);
    const ws = fileTaskWorkspace(1);
    const run = await runAgent(['--provider', 'openai', '--base-url', server.url, '--model', MISSING, 'Hello'], ws);
    const report = `exit ${run.code}; notices ${JSON.stringify(noticesOf(run))}; ${lastLines(run.stderr, 2)}`;
    t.diagnostic(report);

    assert.equal(run.code, 0, report);
    assertOneFallbackNotice(run.events, (e) => ['text', 'tool_call', 'usage'].includes(e.type), report);
    assert.equal(server.requests.length, 1, 'the request went ahead');
    assert.deepEqual(
      run.events.filter((e) => e.type === 'context').map((e) => e.window),
      [4096],
      'it budgets for the assumed window',
    );
  });
});
