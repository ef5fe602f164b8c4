// How a session stores its planned runs (from events) and how the History shows them where they happened.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AgentEvent } from '../../../src/core/agent/events';
import { decodePlanRuns, PlanRunLog, unfinishedRun, type PlanRun } from '../../../src/persistence/planRuns';
import { itemsFromHistory } from '../../../src/editor/chat/historyItems';
import { planRunNotes, resumeRunText, storedRunNotice } from '../../../src/editor/orchestrator/orchestratorNotices';

const plan: AgentEvent = {
  type: 'plan',
  steps: [
    { id: '1', goal: 'Read a.ts', dependsOn: [] },
    { id: '2', goal: 'Edit a.ts', toolHint: 'edit_file', dependsOn: ['1'] },
    { id: '3', goal: 'Run the tests', dependsOn: ['2'] },
  ],
  doneWhen: 'the tests pass',
};

function log(initial: PlanRun[] = [], count = { n: 4 }) {
  const saved: string[] = [];
  const l = new PlanRunLog(initial, () => count.n, (runs) => saved.push(JSON.stringify(runs)), () => 1000);
  return { l, saved, count };
}

test('plan and step events become a stored run; the last write decodes to the same runs', () => {
  const { l, saved } = log();
  l.onEvent({ type: 'turn_start', turnId: 't1', message: 'fix a.ts' });
  l.onEvent(plan);
  l.onEvent({ type: 'step_end', stepId: '1', status: 'ok', summary: 'read it', result: 'read_file: a.ts …' });
  l.onEvent({ type: 'step_end', stepId: '2', status: 'failed', summary: 'cancelled' }); // Stop mid-step: not finished
  l.onEvent({ type: 'turn_end', reason: 'cancelled' });
  const runs = decodePlanRuns(saved.at(-1));
  assert.equal(runs.length, 1);
  assert.deepEqual(
    { turnId: runs[0]!.turnId, request: runs[0]!.request, state: runs[0]!.state, messageIndex: runs[0]!.messageIndex, records: runs[0]!.records },
    { turnId: 't1', request: 'fix a.ts', state: 'stopped', messageIndex: 4, records: [{ stepId: '1', status: 'ok', summary: 'read it', result: 'read_file: a.ts …' }] },
  );
  assert.equal(unfinishedRun(runs)?.turnId, 't1');
  assert.match(resumeRunText(runs[0]!), /at step 2 of 3/);
});

test('a resumed plan updates its run instead of adding one; completion and fallback are not offered for resuming', () => {
  const { l, saved } = log();
  l.onEvent({ type: 'turn_start', turnId: 't1', message: 'fix a.ts' });
  l.onEvent(plan);
  l.onEvent({ type: 'step_end', stepId: '1', status: 'ok', summary: 'read it' });
  // The window closed: no turn_end. A new window resumes the same turn.
  const stored = decodePlanRuns(saved.at(-1));
  assert.equal(stored[0]!.state, 'running');
  const second = log(stored);
  second.l.onEvent({ type: 'turn_start', turnId: 't1', message: 'fix a.ts' });
  second.l.onEvent({ ...plan, resumed: true } as AgentEvent);
  second.l.onEvent({ type: 'step_end', stepId: '2', status: 'ok', summary: 'edited' });
  second.l.onEvent({ type: 'step_end', stepId: '3', status: 'skipped', summary: 'skipped: no tests' });
  second.l.onEvent({ type: 'turn_end', reason: 'completed', result: 'done' });
  const runs = decodePlanRuns(second.saved.at(-1));
  assert.equal(runs.length, 1);
  assert.equal(runs[0]!.state, 'completed');
  assert.deepEqual(runs[0]!.records.map((r) => r.status), ['ok', 'ok', 'skipped']);
  assert.equal(unfinishedRun(runs), undefined);

  const third = log(runs);
  third.l.onEvent({ type: 'turn_start', turnId: 't2', message: 'again' });
  third.l.onEvent(plan);
  third.l.onEvent({ type: 'plan_fallback', reason: 'the executor answered without calling a tool' });
  third.l.onEvent({ type: 'turn_end', reason: 'cancelled' });
  const after = decodePlanRuns(third.saved.at(-1));
  assert.deepEqual(after.map((r) => r.state), ['completed', 'fell_back']);
  assert.equal(unfinishedRun(after), undefined, 'a run the loop took over resumes as an ordinary turn');
  assert.match(storedRunNotice(after[1]!), /single-model loop took over: the executor answered without calling a tool\.$/);
});

test('a turn without a plan stores nothing; unreadable stored runs read as none', () => {
  const { l, saved } = log();
  l.onEvent({ type: 'turn_start', turnId: 't1', message: 'hi' });
  l.onEvent({ type: 'step_end', stepId: '1', status: 'ok' });
  l.onEvent({ type: 'turn_end', reason: 'completed' });
  assert.deepEqual(saved, []);
  assert.deepEqual(decodePlanRuns('{not json'), []);
  assert.deepEqual(decodePlanRuns(JSON.stringify([{ turnId: 1 }])), []);
  assert.deepEqual(decodePlanRuns(undefined), []);
});

test('the History shows each run as a notice right after its request, with every step and how the run ended', () => {
  const { l, saved } = log(undefined, { n: 2 });
  l.onEvent({ type: 'turn_start', turnId: 't1', message: 'fix a.ts' });
  l.onEvent(plan);
  l.onEvent({ type: 'step_end', stepId: '1', status: 'ok', summary: 'read it' });
  l.onEvent({ type: 'step_end', stepId: '2', status: 'failed', summary: 'edit_file was denied: no' });
  const runs = decodePlanRuns(saved.at(-1));
  const history = [
    { role: 'user' as const, content: 'earlier question' },
    { role: 'assistant' as const, content: 'earlier answer' },
    { role: 'user' as const, content: 'fix a.ts' },
    { role: 'assistant' as const, content: 'Step 1/3: Read a.ts', toolCalls: [{ id: 'c1', name: 'read_file', arguments: { path: 'a.ts' } }] },
    { role: 'tool' as const, content: 'x', toolCallId: 'c1', toolName: 'read_file' },
  ];
  const { items } = itemsFromHistory(history, 1, planRunNotes(runs, history.length));
  assert.deepEqual(items.map((i) => i.kind), ['user', 'assistant', 'user', 'notice', 'assistant', 'tool']);
  const notice = items[3] as { text: string };
  assert.equal(
    notice.text,
    'Planned 3 steps: 1. Read a.ts (done); 2. Edit a.ts (failed: edit_file was denied: no); 3. Run the tests (not run). Stopped after 2 of 3 steps (the window closed).',
  );
  // A run whose request never reached the history (cut before its first step) still shows, at the end.
  const early = planRunNotes([{ ...runs[0]!, messageIndex: 5 }], history.length);
  assert.deepEqual([...early.keys()], [5]);
});
