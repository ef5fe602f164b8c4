// Small windows for real (c): the server runs 4,096 tokens while the CLI asks for 16,384. Like Ollama with a
// smaller loaded context (or LM Studio with a rolling window), it does not refuse longer prompts: it drops
// the oldest messages and reports the tokens it kept. The agent must find out — from /api/ps where Ollama
// reports it, from the counts otherwise — say so once with the fix, budget for 4,096 from then on, and
// remember it for the next session on the same store. An honest server never triggers that notice, not even
// for a request sent without tools.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { WIRE_FORMATS } from '../../helpers/cli/wire';
import { startFakeOllamaServer, startFakeOpenAIServer, type FakeServerHandle, type Script } from '../../helpers/fakeLlm';
import { TruncatingWindow, compressionModel, emptyUntilNoTools, renameTaskModel, type ModelFn } from '../../helpers/weakModels';
import { FILE_TASK, fileTaskWorkspace } from '../../helpers/tasks/fileTask';
import { assertAllRenamed, compressionSummary, lastLines, noticesOf, renamedCount, rounds, runAgent, type CliEvent } from './smallWindowRuns';

const RUNS = 4096;
const ASKED = 16384;
const NOTES = 8;

/** A notice about the window: it names a fix, or says the prompt was cut. */
const WINDOW_NOTICE = /num_ctx|OLLAMA_CONTEXT_LENGTH|context length|ctx-size|\bcut\b|truncat/i;
const NAMES_REAL_WINDOW = /\b4,?096\b/;

interface Variant {
  name: string;
  /** The server says what it runs (Ollama's /api/ps context_length). */
  reportsRunning: boolean;
  fix: RegExp;
  start(script: Script, name: string): Promise<FakeServerHandle>;
  flags(server: FakeServerHandle): string[];
}

const ollamaFlags = (s: FakeServerHandle) => ['--provider', 'ollama', '--base-url', s.origin, '--model', 'test-model'];
const VARIANTS: Variant[] = [
  {
    name: 'Ollama, /api/ps reports context_length 4096',
    reportsRunning: true,
    fix: /num_ctx|OLLAMA_CONTEXT_LENGTH/,
    start: (script, name) => startFakeOllamaServer(script, { name, runningContext: RUNS }),
    flags: ollamaFlags,
  },
  {
    name: 'Ollama without context_length in /api/ps (older server): detected from the counts',
    reportsRunning: false,
    fix: /num_ctx|OLLAMA_CONTEXT_LENGTH/,
    start: (script, name) => startFakeOllamaServer(script, { name }),
    flags: ollamaFlags,
  },
  {
    name: 'OpenAI-compatible (LM Studio-like, loaded context not reported): detected from the counts',
    reportsRunning: false,
    fix: /context length/i,
    start: (script, name) => startFakeOpenAIServer(script, { name, models: [{ id: 'test-model', maxContextLength: 32768 }] }),
    flags: (s) => ['--provider', 'openai', '--base-url', s.url, '--model', 'test-model'],
  },
];

const servers: FakeServerHandle[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

function describeRecords(window: TruncatingWindow, from = 0): string {
  const recs = window.records.slice(from);
  const agent = recs.filter((r) => !r.compression);
  const cuts = agent.map((r, i) => (r.cut ? i + 1 : 0)).filter((i) => i > 0);
  return `${recs.length} requests (${agent.length} agent); agent requests cut: ${cuts.join(', ') || 'none'}; largest sent ${Math.max(0, ...recs.map((r) => r.sentTokens))} proxy tokens`;
}

function windowNotices(events: CliEvent[]): CliEvent[] {
  return events.filter((e) => e.type === 'notice' && WINDOW_NOTICE.test(String(e.message)));
}

for (const variant of VARIANTS) {
  describe(`a server running ${RUNS} tokens when ${ASKED} are asked: ${variant.name}`, () => {
    const window = new TruncatingWindow(RUNS);
    const agent: ModelFn = renameTaskModel({ trustsTrimmed: false });
    const db = path.join(mkdtempSync(path.join(tmpdir(), 'lh-truthful-')), 'sessions.db');
    let server: FakeServerHandle | undefined;

    test('one notice names the real window and the fix, in time; after it every request fits 4,096', async (t) => {
      server = await variant.start(window.script(agent, compressionModel('follows')), `truthful window: ${variant.name}`);
      servers.push(server);
      const ws = fileTaskWorkspace(NOTES);
      const run = await runAgent([...variant.flags(server), '--num-ctx', String(ASKED), '--db', db, '--max-rounds', '40', FILE_TASK], ws);

      const notices = windowNotices(run.events);
      const contexts = run.events.filter((e) => e.type === 'context');
      const noticeAt = notices[0] ? run.events.indexOf(notices[0]) : -1;
      const contextsBefore = noticeAt < 0 ? -1 : run.events.slice(0, noticeAt).filter((e) => e.type === 'context').length;
      const agentRecords = window.agentRecords;
      const firstCut = agentRecords.findIndex((r) => r.cut) + 1;
      const report =
        `${describeRecords(window)}; ${noticeAt < 0 ? 'no window notice' : `window notice before agent request ${contextsBefore + 1}`}; ${rounds(run)} rounds; ${compressionSummary(run)}; ` +
        `windows budgeted: ${[...new Set(contexts.map((c) => c.window))].join(', ')}; ${renamedCount(ws, NOTES)}/${NOTES} renamed; exit ${run.code}`;
      t.diagnostic(report);
      for (const n of notices) t.diagnostic(`notice: ${String(n.message)}`);

      assert.equal(notices.length, 1, `exactly one window notice: ${JSON.stringify(noticesOf(run))}\n${report}`);
      const message = String(notices[0]!.message);
      assert.match(message, NAMES_REAL_WINDOW, 'the notice names the window the server really runs');
      assert.match(message, variant.fix, 'the notice names the fix for this server');
      if (variant.reportsRunning) {
        assert.ok(contextsBefore <= 1, `with /api/ps the agent budgets for ${RUNS} from the second request on: ${report}`);
      } else {
        assert.ok(firstCut > 0, `the scenario needs a cut prompt: ${report}`);
        assert.ok(contextsBefore <= firstCut + 1, `the notice comes within two requests of the first cut prompt (request ${firstCut}): ${report}`);
      }
      // From the notice on, nothing sent is over what the server runs, and the budget says so.
      const lastBefore = contextsBefore > 0 ? window.records.indexOf(agentRecords[contextsBefore - 1]!) : -1;
      const later = window.records.slice(lastBefore + 1);
      assert.deepEqual(later.filter((r) => r.sentTokens > RUNS), [], `requests over ${RUNS} after the notice: ${report}`);
      const contextsAfter = run.events.slice(noticeAt).filter((e) => e.type === 'context');
      assert.ok(contextsAfter.length > 0, report);
      assert.deepEqual([...new Set(contextsAfter.map((c) => c.window))], [RUNS], 'context events after the notice budget for the real window');

      // And the task still gets done: only a prompt the server cut can have lost the task.
      assert.equal(run.code, 0, `${report}\n${lastLines(run.stderr)}`);
      assertAllRenamed(ws, NOTES, report);
      const forgot = agent.failures.filter((f) => f.startsWith('forgot the task'));
      assert.deepEqual(agent.failures.filter((f) => !f.startsWith('forgot the task')), [], report);
      assert.ok(forgot.length <= window.cuts.length, `${forgot.length} forgotten tasks, ${window.cuts.length} cut requests`);
    });

    if (!variant.reportsRunning) {
      test('a second session on the same --db starts at 4,096: no new cut', async (t) => {
        assert.ok(server, 'the first session ran');
        const from = window.records.length;
        const ws = fileTaskWorkspace(NOTES);
        const run = await runAgent([...variant.flags(server), '--num-ctx', String(ASKED), '--db', db, '--max-rounds', '40', FILE_TASK], ws);
        const contexts = run.events.filter((e) => e.type === 'context');
        const report = `${describeRecords(window, from)}; windows budgeted: ${contexts.map((c) => c.window).join(', ')}; ${renamedCount(ws, NOTES)}/${NOTES} renamed; exit ${run.code}`;
        t.diagnostic(report);
        assert.equal(contexts[0]?.window, RUNS, `the first request is budgeted for ${RUNS}: ${report}`);
        assert.deepEqual(
          window.records.slice(from).filter((r) => r.cut),
          [],
          `no request of the second session was cut: ${report}`,
        );
        assert.deepEqual([...new Set(contexts.map((c) => c.window))], [RUNS], report);
        assert.equal(run.code, 0, `${report}\n${lastLines(run.stderr)}`);
        assertAllRenamed(ws, NOTES, report);
      });
    }
  });
}

// A request without tools (the summary the agent asks for after empty replies) counts fewer tokens than one
// with them; an honest server's count for it is no sign of a cut prompt.
const LONG_TASK =
  'Here is the log of what happened in the build today; keep it in mind, we will work on it later.\n' +
  Array.from({ length: 60 }, (_, i) => `${String(i + 1).padStart(2, '0')}:00 step ${i + 1} of the nightly build finished; 0 warnings, artefacts uploaded.`).join('\n');

for (const wire of WIRE_FORMATS) {
  describe(`an honest server in a large window over ${wire.name}`, () => {
    test('empty replies, then a summary request without tools: no truncation notice', async (t) => {
      const window = new TruncatingWindow(32768);
      const server = await wire.start(window.script(emptyUntilNoTools(), compressionModel('follows')), `honest, empty replies (${wire.name})`);
      servers.push(server);
      const ws = fileTaskWorkspace(1);
      const run = await runAgent([...wire.flags(server), '--num-ctx', '32768', LONG_TASK], ws);
      const report = `${describeRecords(window)}; requests without tools: ${window.records.filter((r) => !r.tools).length}; notices: ${JSON.stringify(noticesOf(run))}`;
      t.diagnostic(report);
      assert.ok(window.records.some((r) => !r.tools), `the agent asked for a summary without tools: ${report}`);
      assert.deepEqual(window.cuts, [], report);
      assert.deepEqual(windowNotices(run.events), [], report);
      assert.equal(run.code, 0, `${report}\n${lastLines(run.stderr)}`);
    });
  });
}
