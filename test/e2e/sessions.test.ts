// Durable sessions in a real VS Code: a turn that edits a file is saved, survives a window reload, shows up in
// the panel's History with its model, opens back into the panel, and "Undo Last Agent Edit" puts the file on
// disk back the way it was.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { waitUntil } from '../helpers/e2e/chatPanel';
import { markerScript } from '../helpers/e2e/markerScript';
import { E2ESession } from '../helpers/e2e/session';

const ORIGINAL = 'original notes\n';
const TASK = '[[edit]] Change the notes.';

const script = markerScript({
  '[[edit]]': [
    { toolCalls: [{ name: 'edit_file', arguments: { path: 'notes.txt', old_text: 'original', new_text: 'edited' } }] },
    { text: 'I edited notes.txt for you.' },
  ],
});

let session: E2ESession;

before(async () => {
  session = await E2ESession.start({
    name: 'sessions',
    script,
    provider: 'openai',
    model: 'tiny-coder',
    contextLength: 8192,
    files: { 'notes.txt': ORIGINAL },
    settings: { 'localharness.approval.autoApprove': ['read', 'write'] },
  });
  await session.chat.open();
}, { timeout: 240_000 });

after(async () => {
  await session?.close();
}, { timeout: 60_000 });

const notes = () => readFileSync(path.join(session.workspace, 'notes.txt'), 'utf8');

describe('durable sessions', { timeout: 180_000 }, () => {
  test('a saved session survives a reload, opens from History, and its edit can be undone', async () => {
    const chat = session.chat;
    await session.step('run a turn that edits a file', async () => {
      await chat.send(TASK);
      await chat.assistantMessages.filter({ hasText: 'I edited notes.txt for you.' }).waitFor({ timeout: 20_000 });
      await chat.waitIdle();
      assert.equal(notes(), 'edited notes\n', 'the agent changed the file on disk');
    });

    await session.step('reload the window', async () => {
      await session.workbench.reload();
      await chat.open();
    });

    const history = chat.frame.getByRole('button', { name: 'History', exact: true });
    const row = chat.frame.locator('.session-row').filter({ hasText: TASK });
    await session.step('History lists the session', async () => {
      await history.click();
      await row.waitFor({ timeout: 20_000 });
      assert.match(await row.locator('.session-meta').innerText(), /tiny-coder/, 'the row names the model');
      assert.match(await row.locator('.session-meta').innerText(), /\d+ messages/, 'the row counts the messages');
      await session.screenshot('01-history');
    });

    await session.step('open it', async () => {
      await row.locator('.session-open').click();
      await chat.userMessages.filter({ hasText: TASK }).waitFor({ timeout: 20_000 });
      await chat.assistantMessages.filter({ hasText: 'I edited notes.txt for you.' }).waitFor();
      await chat.toolCard('edit_file').first().waitFor();
      // The meter shows the restored conversation's size before any new turn (it used to read 0).
      await waitUntil(async () => Number(/\d+/.exec((await chat.contextMeter.getAttribute('aria-valuetext')) ?? '')?.[0] ?? 0) > 0, 10_000, 'the context meter to count the restored conversation');
      await session.screenshot('02-opened');
    });

    await session.step('Undo Last Agent Edit restores the file', async () => {
      await session.workbench.runCommand('Local Harness: Undo Last Agent Edit');
      await waitUntil(() => notes() === ORIGINAL, 15_000, 'notes.txt to be restored');
      await chat.notices.filter({ hasText: 'restored notes.txt' }).waitFor({ timeout: 10_000 });
      await session.screenshot('03-undone');
    });
  });
});
