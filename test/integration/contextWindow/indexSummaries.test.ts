// Issue 10, compression by summaries, end to end: a weak reader lists the functions of five long modules in a
// 4,096-token window (a real AgentSession, read-only tools, the fake Ollama server). With the modules' index
// summaries the old reads become summaries (method 'index', no compression-model call), the later requests
// carry the summaries instead of the file bodies, and the task finishes with every function named.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AgentEvent } from '../../../src/core/agent/events';
import { readRequest } from '../../helpers/weakModels';
import { readerAnswer } from '../../helpers/weakModels/readerModel';
import { fileSummaryOf, functionName, moduleText } from '../../helpers/knowledge/featureModules';
import { runReader } from '../../helpers/knowledge/readerRun';
import { proxyPromptTokens } from '../../helpers/fakeLlm/windowedScript';

const WINDOW = 4096;
const COUNT = 5;
const FUNCTIONS = 3;

type Compression = Extract<AgentEvent, { type: 'compression' }>;

const expectedAnswer = () =>
  readerAnswer(Array.from({ length: COUNT }, (_, i) => [`src/feature${i + 1}.ts`, Array.from({ length: FUNCTIONS }, (_, f) => functionName(i + 1, f))] as const));

test(`five long modules in a ${WINDOW}-token window: old reads become their index summaries and the task finishes`, async (t) => {
  const run = await runReader({ window: WINDOW, count: COUNT, functions: FUNCTIONS, summaries: true });
  const compressions = run.events.filter((e): e is Compression => e.type === 'compression');
  const sent = run.requests.reduce((n, r) => n + proxyPromptTokens(r), 0);
  const report = `${run.requests.length} requests, ${sent} proxy tokens; compressions: ${compressions.map((c) => `${c.method} ${c.tokensBefore}→${c.tokensAfter} (index saved ${c.indexTokensSaved ?? 0})`).join(', ')}`;
  t.diagnostic(report);

  assert.equal(run.outcome.reason, 'task_completion', `${run.outcome.error ?? ''} ${report}`);
  const end = run.events.at(-1);
  assert.equal(end?.type === 'turn_end' ? end.result : undefined, expectedAnswer(), 'every function of every module named');
  assert.deepEqual(run.failures, []);
  assert.deepEqual(run.windowed.overWindow, [], report);

  // Every compression was done by the summaries alone: no compression-model call, tokens saved reported.
  assert.ok(compressions.length >= 1, report);
  for (const c of compressions) {
    assert.equal(c.method, 'index', report);
    assert.equal(c.modelCalls, 0);
    assert.ok(c.indexTokensSaved !== undefined && c.indexTokensSaved > 0, report);
    assert.ok(c.tokensAfter < c.tokensBefore);
  }
  assert.equal(run.windowed.measured.filter((m) => m.compression).length, 0, 'the compression agent was never asked');
  // Without what the summaries saved the last request would not leave the 1,500 tokens kept for the answer.
  const saved = compressions.reduce((n, c) => n + (c.indexTokensSaved ?? 0), 0);
  assert.ok(compressions.at(-1)!.tokensAfter + saved > WINDOW - 1500, report);
  for (const [i, r] of run.reports.entries()) assert.equal(compressions[i]!.indexTokensSaved, r.indexSummaries?.tokensSaved);

  // Each module was read exactly once: nothing the reader needed was lost.
  const reads = run.events.filter((e) => e.type === 'tool_call' && e.name === 'read_file').map((e) => (e.type === 'tool_call' ? (e.arguments as { path: string }).path : ''));
  assert.deepEqual(reads, run.files);

  // The last request carries the old modules as summaries, not as their bodies; the latest read is whole.
  const last = readRequest(run.requests.at(-1)!);
  const summarised = new Set<number>();
  for (const [i] of run.files.entries()) {
    const n = i + 1;
    const result = last.results.find((r) => r.call?.args.path === `src/feature${n}.ts`);
    assert.ok(result, `the read of module ${n} is still in the request`);
    if (result.content.includes(`Index summary of src/feature${n}.ts: ${fileSummaryOf(n, FUNCTIONS)}`)) {
      summarised.add(n);
      assert.ok(!result.content.includes('Math.max(-1000'), `module ${n}'s body is gone`);
      assert.match(result.content, /read_file again with a line range for the exact text/);
    } else {
      assert.ok(result.content.includes(moduleText(n, FUNCTIONS).split('\n')[2]!), `module ${n} is whole`);
    }
  }
  assert.ok(summarised.size >= 3, `${summarised.size} modules summarised`);
  assert.ok(!summarised.has(COUNT), 'the latest read stays whole');
});

test('the same task without summaries costs more: compression-model calls and more tokens sent', async (t) => {
  const withSummaries = await runReader({ window: WINDOW, count: COUNT, functions: FUNCTIONS, summaries: true });
  const without = await runReader({ window: WINDOW, count: COUNT, functions: FUNCTIONS, summaries: false });
  const tokens = (r: typeof without) => r.requests.reduce((n, b) => n + proxyPromptTokens(b), 0);
  t.diagnostic(`with summaries: ${withSummaries.requests.length} requests, ${tokens(withSummaries)} tokens; without: ${without.requests.length} requests, ${tokens(without)} tokens`);
  assert.equal(without.outcome.reason, 'task_completion');
  assert.ok(!without.events.some((e) => e.type === 'compression' && e.indexTokensSaved !== undefined));
  assert.ok(tokens(withSummaries) < tokens(without));
  assert.ok(withSummaries.requests.length < without.requests.length);
});
