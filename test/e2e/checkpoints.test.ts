// Checkpoints in a real VS Code: two turns edit and create files; the panel lists the second turn's files for
// review (the diff opens in VS Code's diff editor, Undo puts a file back, Keep keeps one); "Restore to here" on the
// first message asks in a modal that lists the files, then puts the workspace and the conversation back to before
// it; "Undo Restore to Message" brings both back; after a restore the model is sent only what is left.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { waitUntil } from '../helpers/e2e/chatPanel';
import { markerScript } from '../helpers/e2e/markerScript';
import { E2ESession } from '../helpers/e2e/session';
import type { ScriptedReply } from '../helpers/fakeLlm';

const ORIGINAL = 'original notes\n';
const FIRST = '[[one]] Put "first" in the notes.';
const SECOND = '[[two]] Now "second", and add new.txt.';

/** Round 0 and 1 are the tool calls; every later round (a nudge, a retry) gets the closing answer. */
const turn = (calls: ScriptedReply[], answer: string) => (round: number) => calls[round] ?? { text: answer };

const script = markerScript({
  '[[one]]': turn([{ toolCalls: [{ name: 'edit_file', arguments: { path: 'notes.txt', old_text: 'original', new_text: 'first' } }] }], 'First edit done.'),
  '[[two]]': turn(
    [
      { toolCalls: [{ name: 'edit_file', arguments: { path: 'notes.txt', old_text: 'first', new_text: 'second' } }] },
      { toolCalls: [{ name: 'write_file', arguments: { path: 'new.txt', content: 'created by the agent\n' } }] },
    ],
    'Second edit done.',
  ),
  '[[three]]': turn([], 'Third answer.'),
});

let session: E2ESession;

before(async () => {
  session = await E2ESession.start({
    name: 'checkpoints',
    script,
    provider: 'openai',
    model: 'tiny-coder',
    contextLength: 8192,
    files: { 'notes.txt': ORIGINAL, 'other.txt': 'untouched\n' },
    settings: { 'localharness.approval.autoApprove': ['read', 'write'] },
  });
  await session.chat.open();
}, { timeout: 240_000 });

after(async () => {
  await session?.close();
}, { timeout: 60_000 });

const read = (name: string) => readFileSync(path.join(session.workspace, name), 'utf8');
const exists = (name: string) => existsSync(path.join(session.workspace, name));

describe('checkpoints', { timeout: 240_000 }, () => {
  test('review a turn (diff, Undo, Keep), Restore to here, Undo Restore', async () => {
    const chat = session.chat;
    const review = chat.frame.locator('section.turn-review');
    await session.step('two turns edit notes.txt and create new.txt', async () => {
      await chat.send(FIRST);
      await chat.assistantMessages.filter({ hasText: 'First edit done.' }).first().waitFor({ timeout: 30_000 });
      await chat.waitIdle();
      await chat.send(SECOND);
      await chat.assistantMessages.filter({ hasText: 'Second edit done.' }).first().waitFor({ timeout: 30_000 });
      await chat.waitIdle();
      assert.equal(read('notes.txt'), 'second notes\n');
      assert.equal(read('new.txt'), 'created by the agent\n');
    });

    await session.step('the panel lists the second turn\'s files; the diff opens in the diff editor', async () => {
      await review.getByText('2 files changed').waitFor({ timeout: 20_000 });
      const rows = review.locator('.turn-review-file');
      assert.deepEqual((await rows.locator('.review-open').allInnerTexts()).map((t) => t.trim()).sort(), ['new.txt', 'notes.txt']);
      await review.getByRole('button', { name: 'Open the diff of notes.txt' }).click();
      const diff = session.workbench.page.locator('.monaco-diff-editor').first();
      await diff.waitFor({ state: 'visible', timeout: 20_000 });
      await waitUntil(async () => {
        const text = (await diff.innerText()).replace(/\u00a0/g, ' ');
        return text.includes('first notes') && text.includes('second notes');
      }, 15_000, 'the diff editor to show "first notes" (before the turn) and "second notes" (now)');
      await session.screenshot('01-review-and-diff');
    });

    await session.step('Undo on new.txt deletes it; Keep on notes.txt keeps it', async () => {
      await review.getByRole('button', { name: 'Undo the change to new.txt' }).click();
      await waitUntil(() => !exists('new.txt'), 15_000, 'new.txt to be deleted');
      await review.locator('.turn-review-file.review-undone').filter({ hasText: 'new.txt' }).waitFor({ timeout: 10_000 });
      await review.getByRole('button', { name: 'Keep notes.txt' }).click();
      await review.locator('.turn-review-file.review-kept').filter({ hasText: 'notes.txt' }).waitFor({ timeout: 10_000 });
      assert.equal(read('notes.txt'), 'second notes\n', 'Keep changes nothing on disk');
      await session.screenshot('02-undo-keep');
    });

    await session.step('Restore to here on the first message: a modal lists the files, then files and conversation go back', async () => {
      const first = chat.userMessages.filter({ hasText: FIRST });
      await first.hover();
      await first.getByRole('button', { name: 'Restore to here' }).click();
      const dialog = await session.workbench.waitForDialog();
      assert.match(dialog.message, /Restore the workspace and the conversation to before this message\?/);
      assert.match(dialog.detail, /Restore notes\.txt/);
      assert.doesNotMatch(dialog.detail, /new\.txt/, 'new.txt is already as it was before the first message');
      assert.ok(dialog.buttons.includes('Restore'), dialog.buttons.join(' | '));
      await session.screenshot('03-restore-dialog');
      await session.workbench.answerDialog('Restore');
      await waitUntil(() => read('notes.txt') === ORIGINAL, 15_000, 'notes.txt to be restored');
      await waitUntil(async () => (await chat.userMessages.count()) === 0, 15_000, 'the conversation to be cut before the first message');
      await waitUntil(async () => (await chat.message.inputValue()) === FIRST, 10_000, 'the message to come back into the box');
      assert.equal(read('other.txt'), 'untouched\n');
      await session.screenshot('04-restored');
    });

    await session.step('Undo Restore brings the files and the conversation back', async () => {
      await session.workbench.runCommand('Local Harness: Undo Restore to Message');
      await waitUntil(() => read('notes.txt') === 'second notes\n', 15_000, 'notes.txt as the second turn left it');
      await chat.userMessages.filter({ hasText: SECOND }).waitFor({ timeout: 15_000 });
      assert.equal(await chat.userMessages.count(), 2);
      await session.screenshot('05-restore-undone');
    });

    await session.step('after Restore to here on the second message, the model is sent only the first turn and the new message', async () => {
      const second = chat.userMessages.filter({ hasText: SECOND });
      await second.hover();
      await second.getByRole('button', { name: 'Restore to here' }).click();
      const dialog = await session.workbench.waitForDialog();
      assert.match(dialog.detail, /Restore notes\.txt/);
      await session.workbench.answerDialog('Restore');
      await waitUntil(() => read('notes.txt') === 'first notes\n', 15_000, 'notes.txt as the first turn left it');
      await waitUntil(async () => (await chat.userMessages.count()) === 1, 15_000, 'the conversation to keep the first message only');
      await chat.send('[[three]] What do you know so far?');
      await chat.assistantMessages.filter({ hasText: 'Third answer.' }).first().waitFor({ timeout: 30_000 });
      await chat.waitIdle();
      const request = session.llm.requests.find((r) => JSON.stringify(r).includes('[[three]]'));
      assert.ok(request, 'the model was asked');
      const sent = JSON.stringify(request);
      assert.ok(sent.includes('[[one]]'), 'the first turn is still in the conversation');
      assert.ok(!sent.includes('[[two]]'), 'the second turn is gone from what the model sees');
      await session.screenshot('06-continued');
    });
  });
});
