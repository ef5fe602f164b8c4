// Two models, one turn, in a real VS Code (issue 11). "Local Harness: Run With Planner…" plans one task even with
// `localharness.orchestrator.enabled` off: the planner (the chat model) plans three edits without tools, the chat
// shows the plan, "What the model knows" lists it as todos that tick off one step at a time (each step's edit
// stops at the approval dialog, so the list is read while the step runs), the executor model makes every tool call,
// and the planner streams the answer. The next plain message runs in the single-model loop again.
// One fake OpenAI-compatible server answers both models, by the request's `model` field.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { waitUntil } from '../helpers/e2e/chatPanel';
import { E2ESession } from '../helpers/e2e/session';
import type { ChatBody, Script } from '../helpers/fakeLlm';
import { plannerModel, isPlanRequest, isSynthesisRequest } from '../helpers/weakModels/plannerModel';
import { executorModel } from '../helpers/weakModels/executorModel';
import { HEADER, docName, headerTaskText } from '../helpers/weakModels/headerTask';

const CHAT_MODEL = 'qwen3:8b';
const EXECUTOR = 'qwen2.5:1.5b';
const FILES = [1, 2, 3].map(docName);
/** The run cut off by a reload and resumed: its own three files. */
const LATER = [4, 5, 6].map(docName);
const LATER_TASK = `Add the line "${HEADER}" at the top of each of these files: ${LATER.join(', ')}.`;

const planner = plannerModel({ plan: 'good' });
const executor = executorModel();
/** The executor answers its model's requests; the chat model plans, answers, and is the ordinary agent. */
let heldOnce = false;
/** The executor's request for doc-05's edit (step 2 of the later run, after its read) is held once: the window reloads meanwhile. */
function held(body: ChatBody): boolean {
  const text = JSON.stringify(body.messages ?? []);
  if (heldOnce || !text.includes('Step 2 of 3: Add the line') || !text.includes('doc-05.txt') || !(body.messages ?? []).some((m) => (m as { role?: string }).role === 'tool')) return false;
  heldOnce = true;
  return true;
}
const script: Script = (body: ChatBody) =>
  body.model === EXECUTOR ? { ...executor(body), ...(held(body) && { delayMs: 20_000 }) } : body.model === CHAT_MODEL ? { ...planner(body), chunkSize: 6 } : undefined;

let session: E2ESession;

before(async () => {
  session = await E2ESession.start({
    name: 'orchestrator',
    script,
    provider: 'openai',
    model: CHAT_MODEL,
    files: Object.fromEntries([...FILES, ...LATER].map((f, i) => [f, `Title ${i + 1}\nbody of document ${i + 1}\n`])),
    settings: { 'localharness.orchestrator.executorModel': EXECUTOR },
  });
  await session.chat.open();
}, { timeout: 300_000 });

after(async () => {
  await session?.close();
}, { timeout: 60_000 });

/** The todo list of "What the model knows" as status letters: p(ending), i(n progress), d(one). */
async function todoStatuses(): Promise<string> {
  const classes = await session.chat.frame.locator('#hot-context li.todo').evaluateAll((items) => items.map((li) => li.className));
  return classes.map((c) => (/todo-done/.test(c) ? 'd' : /todo-in_progress/.test(c) ? 'i' : 'p')).join('');
}

async function waitTodos(expected: string, timeoutMs = 30_000): Promise<void> {
  let last = '';
  await waitUntil(async () => (last = await todoStatuses()) === expected, timeoutMs, `the todos to read "${expected}"`).catch((err: Error) => {
    throw new Error(`${err.message}; they read "${last}"`);
  });
}

function headerLines(file: string): number {
  return readFileSync(path.join(session.workspace, file), 'utf8').split('\n').filter((l) => l === HEADER).length;
}

describe('planner and executor in the editor', { timeout: 300_000 }, () => {
  test('Run With Planner…: the plan is shown, its todos tick off step by step, writes still ask, then the answer streams', async () => {
    await session.step('planned turn', async () => {
      const { chat, workbench } = session;
      await chat.frame.getByRole('button', { name: 'What the model knows' }).click();
      await workbench.runCommand('Local Harness: Run With Planner…', { opensInput: true });
      const input = workbench.page.locator('.quick-input-widget input');
      await input.waitFor({ state: 'visible', timeout: 10_000 });
      await input.fill(headerTaskText(3));
      await workbench.page.keyboard.press('Enter');

      // Each step's edit waits for the user: the list shows that step in progress, the earlier ones done.
      for (const [k, file] of FILES.entries()) {
        const dialog = await workbench.waitForDialog(60_000);
        assert.match(`${dialog.message}\n${dialog.detail}`, new RegExp(`edit_file|${file.replace('.', '\\.')}`));
        assert.match(`${dialog.message}\n${dialog.detail}`, new RegExp(file.replace('.', '\\.')));
        const expected = 'd'.repeat(k) + 'i' + 'p'.repeat(FILES.length - k - 1);
        await waitTodos(expected);
        if (k === 0) {
          const plan = chat.notices.filter({ hasText: 'Planned 3 steps:' });
          await plan.first().waitFor({ state: 'visible', timeout: 10_000 });
          assert.match(await plan.first().innerText(), /Planned 3 steps: 1\. Add the line "Reviewed: yes" at the top of doc-01\.txt; 2\. .*doc-02\.txt; 3\. .*doc-03\.txt\./);
          const todos = await chat.frame.locator('#hot-context li.todo').allInnerTexts();
          assert.deepEqual(todos.map((t) => t.replace(/^\S+\s/, '')), FILES.map((f) => `Add the line "${HEADER}" at the top of ${f}.`));
        }
        await session.screenshot(`0${k + 1}-step-${k + 1}-approval`);
        await workbench.answerDialog('Allow');
      }

      await chat.assistantMessages.filter({ hasText: 'Added the header to 3 of 3 files.' }).last().waitFor({ timeout: 60_000 });
      await chat.waitIdle(30_000);
      await waitTodos('ddd');
      await session.screenshot('04-planned-turn-done');
      assert.deepEqual(FILES.map(headerLines), [1, 1, 1], 'each file got the header exactly once');
      assert.equal(await chat.toolCards.count(), 6, 'a read and an edit per step, shown as ordinary tool cards');
      assert.equal(await chat.notices.filter({ hasText: /^Step \d+ (failed|was skipped)/ }).count(), 0, 'no step failed');

      const requests = session.llm.requests as ChatBody[];
      const offersTools = (r: ChatBody) => Array.isArray(r.tools) && r.tools.length > 0;
      const hasToolCalls = (r: ChatBody) => (r.messages ?? []).some((m) => Array.isArray((m as { tool_calls?: unknown[] }).tool_calls) && (m as { tool_calls: unknown[] }).tool_calls.length > 0);
      const executorRequests = requests.filter((r) => r.model === EXECUTOR);
      const plannerRequests = requests.filter((r) => r.model === CHAT_MODEL);
      assert.ok(executorRequests.length >= 9, `read, edit and a closing word per step (${executorRequests.length} executor requests)`);
      assert.ok(executorRequests.every(offersTools), 'the executor is offered the tools');
      assert.ok(executorRequests.some(hasToolCalls), 'the executor\u2019s requests carry its tool calls');
      assert.deepEqual(plannerRequests.map((r) => (isPlanRequest(r) ? 'plan' : isSynthesisRequest(r) ? 'answer' : 'other')), ['plan', 'answer']);
      assert.ok(!plannerRequests.some(offersTools), 'the planner is offered no tools');
      assert.ok(!plannerRequests.some(hasToolCalls), 'no tool call travels in a planner request');
    });
  });

  test('the next plain message runs in the single-model loop again (the command planned one turn)', async () => {
    await session.step('plain turn', async () => {
      const { chat } = session;
      const before = (session.llm.requests as ChatBody[]).length;
      await chat.send('Is every file done?');
      await chat.assistantMessages.filter({ hasText: `All 3 files now start with "${HEADER}".` }).last().waitFor({ timeout: 60_000 });
      await chat.waitIdle(30_000);
      const turn = (session.llm.requests as ChatBody[]).slice(before);
      assert.ok(turn.length >= 1);
      assert.ok(turn.every((r) => r.model === CHAT_MODEL && !isPlanRequest(r)), 'only the chat model, and no plan');
      assert.ok(turn.every((r) => Array.isArray(r.tools) && r.tools.length > 0), 'the chat model is offered the tools, as in any ordinary turn');
      assert.equal(await chat.notices.filter({ hasText: 'Planned ' }).count(), 1, 'no second plan');
      assert.deepEqual(FILES.map(headerLines), [1, 1, 1], 'nothing was done twice');
      await session.screenshot('05-plain-turn');
    });
  });

  test('a planned run cut off by a window reload shows in the restored chat and Resume continues it at the step it stopped', async () => {
    const { chat, workbench } = session;
    const plansBefore = (session.llm.requests as ChatBody[]).filter(isPlanRequest).length;
    await session.step('planned turn, reload during step 2', async () => {
      await workbench.runCommand('Local Harness: Run With Planner…', { opensInput: true });
      const input = workbench.page.locator('.quick-input-widget input');
      await input.waitFor({ state: 'visible', timeout: 10_000 });
      await input.fill(LATER_TASK);
      await workbench.page.keyboard.press('Enter');
      await workbench.waitForDialog(60_000);
      await workbench.answerDialog('Allow');
      // Step 2 has read its file and waits for the executor's next answer (held by the server): reload now.
      await waitUntil(async () => heldOnce, 60_000, 'step 2 to ask the executor for its edit');
      assert.deepEqual(LATER.map(headerLines), [1, 0, 0]);
      await workbench.reload();
      await chat.open();
    });
    await session.step('the restored chat shows the run and offers Resume', async () => {
      const offer = chat.errorMessages.filter({ hasText: 'Resume continues it at step 2 of 3' });
      await offer.first().waitFor({ timeout: 30_000 });
      const stored = chat.notices.filter({ hasText: /Planned 3 steps: 1\. .*doc-04\.txt \(done\); 2\. .*doc-05\.txt \(not run\); 3\. .*doc-06\.txt \(not run\)\. Stopped after 1 of 3 steps \(the window closed\)\./ });
      await stored.first().waitFor({ timeout: 10_000 });
      await session.screenshot('06-restored-planned-run');
      await offer.getByRole('button', { name: 'Resume' }).click();
    });
    await session.step('Resume: steps 2 and 3 run (each edit asked), then the answer', async () => {
      for (const file of LATER.slice(1)) {
        const dialog = await workbench.waitForDialog(60_000);
        assert.match(`${dialog.message}\n${dialog.detail}`, new RegExp(file.replace('.', '\\.')));
        await workbench.answerDialog('Allow');
      }
      await chat.assistantMessages.filter({ hasText: 'Added the header to 3 of 3 files.' }).last().waitFor({ timeout: 60_000 });
      await chat.waitIdle(30_000);
      await session.screenshot('07-resumed-run-done');
      assert.deepEqual(LATER.map(headerLines), [1, 1, 1], 'each file got the header exactly once');
      const plans = (session.llm.requests as ChatBody[]).filter(isPlanRequest).length;
      assert.equal(plans - plansBefore, 1, 'the resumed run was not planned again');
    });
  });

  test('the extension host logged no errors from Local Harness', () => {
    const errors = session.extensionHostErrors();
    assert.deepEqual(errors, [], `errors in the extension host log:\n${errors.slice(0, 3).join('\n\n')}`);
  });
});
