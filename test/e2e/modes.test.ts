// Plan, Act and prompt files in a real VS Code (issue 33): the mode switch set to Plan, a plan turn that offers
// read tools only and refuses the write the model makes up (the file stays), "Act" under the plan switches to Agent
// and sends the plan, which edits the file; a workspace prompt file runs as `/explain` in its own mode (Ask: no
// tools). One code-server for the file.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { waitUntil } from '../helpers/e2e/chatPanel';
import { markerScript, toolResults } from '../helpers/e2e/markerScript';
import { E2ESession } from '../helpers/e2e/session';
import type { ChatBody, Script, ScriptedReply } from '../helpers/fakeLlm';

const PLAN = '1. In app.ts change `answer` from 41 to 42. [[act]]';
const ORIGINAL = 'export const answer = 41;\n';

const script = markerScript({
  '[[plan]]': [
    { toolCalls: [{ name: 'read_file', arguments: { path: 'app.ts' } }] },
    { toolCalls: [{ name: 'write_file', arguments: { path: 'app.ts', content: 'export const answer = 0;\n' } }] },
    (body: ChatBody) => ({ text: toolResults(body).some((r) => /Not run: this is Plan mode/.test(r)) ? PLAN : 'UNEXPECTED: the write was not refused.' }),
  ],
  '[[act]]': [
    { toolCalls: [{ name: 'edit_file', arguments: { path: 'app.ts', old_text: '41', new_text: '42' } }] },
    { text: 'Done: the answer is 42.' },
  ],
  '[[explain]]': [{ text: 'app.ts exports the answer.' }],
}) as (body: ChatBody, index: number) => ScriptedReply | undefined;

let session: E2ESession;

before(async () => {
  session = await E2ESession.start({
    name: 'modes',
    script: script as Script,
    files: {
      'app.ts': ORIGINAL,
      '.github/prompts/explain.prompt.md': '---\ndescription: Explain a file\nmode: ask\n---\nExplain ${input:file} briefly. [[explain]]\n',
    },
    settings: { 'localharness.approval.autoApprove': ['read', 'write'] },
  });
  await session.chat.open();
}, { timeout: 300_000 });

after(async () => {
  await session?.close();
}, { timeout: 60_000 });

const toolNames = (body: ChatBody) => (((body as { tools?: Array<{ function: { name: string } }> }).tools ?? []).map((t) => t.function.name));
const requestsWith = (marker: string) => session.llm.requests.filter((r) => JSON.stringify(r.messages ?? []).includes(marker));

describe('modes in the editor', { timeout: 300_000 }, () => {
  test('Plan: read tools only, a write is refused, the plan gets Act; Act switches to Agent and carries it out', async () => {
    const { chat } = session;
    const modes = chat.frame.getByRole('radiogroup', { name: 'Mode', exact: true });
    const checked = (name: string) => modes.getByRole('radio', { name, exact: true }).getAttribute('aria-checked');
    await session.step('plan turn', async () => {
      assert.equal(await checked('Agent'), 'true');
      await modes.getByRole('radio', { name: 'Plan', exact: true }).click();
      assert.equal(await checked('Plan'), 'true');
      await chat.send('Make the answer 42 [[plan]]');
      await waitUntil(async () => (await chat.assistantMessages.last().innerText().catch(() => '')).includes('from 41 to 42'), 60_000, 'the plan to show');
      await chat.waitIdle(30_000);
      await session.screenshot('01-plan');
    });
    assert.equal(readFileSync(path.join(session.workspace, 'app.ts'), 'utf8'), ORIGINAL, 'Plan mode changed nothing');
    const planRequests = requestsWith('[[plan]]');
    assert.equal(planRequests.length, 3);
    for (const r of planRequests) {
      const names = toolNames(r);
      assert.ok(names.includes('read_file'), names.join());
      for (const write of ['write_file', 'edit_file', 'run_command', 'move_file']) assert.ok(!names.includes(write), `${write} is not offered in Plan mode`);
    }
    const system = (r: ChatBody) => JSON.stringify((r.messages ?? [])[0]);

    await session.step('act', async () => {
      await chat.frame.getByRole('button', { name: 'Act', exact: true }).click();
      await waitUntil(async () => (await chat.assistantMessages.last().innerText().catch(() => '')).includes('the answer is 42'), 60_000, 'the Act turn to answer');
      await chat.waitIdle(30_000);
      await session.screenshot('02-act');
    });
    assert.equal(readFileSync(path.join(session.workspace, 'app.ts'), 'utf8'), 'export const answer = 42;\n');
    assert.equal(await checked('Agent'), 'true', 'Act switched the panel to Agent');
    assert.equal(await checked('Plan'), 'false');
    const act = session.llm.requests.find((r) => JSON.stringify(r.messages ?? []).includes('Carry out this plan now'))!;
    assert.ok(act, 'the plan was sent');
    assert.ok(toolNames(act).includes('edit_file'));
    // The system prompt is the same bytes in Plan and Agent mode: the server's cache holds across the switch.
    assert.equal(system(act), system(planRequests[0]!));
    assert.equal(await chat.frame.getByRole('button', { name: 'Act', exact: true }).isVisible(), false, 'no Act under an Agent answer');
  });

  test('a prompt file runs as /name in its own mode', async () => {
    const { chat } = session;
    await session.step('prompt file', async () => {
      await chat.send('/explain app.ts');
      await waitUntil(async () => (await chat.assistantMessages.last().innerText().catch(() => '')).includes('exports the answer'), 60_000, 'the answer');
      await chat.waitIdle(30_000);
    });
    const request = requestsWith('[[explain]]')[0]!;
    assert.match(JSON.stringify(request.messages), /Explain app\.ts briefly/);
    assert.deepEqual(toolNames(request), [], 'mode: ask offers no tools');
  });
});
