// The host owns the conversation: hiding the view or reloading the whole window mid-turn must show the
// same conversation afterwards, including the turn that is still streaming. Uses the OpenAI-compatible
// provider (llama.cpp-style SSE) so both wire formats run in a real editor.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { waitUntil } from '../helpers/e2e/chatPanel';
import { markerScript } from '../helpers/e2e/markerScript';
import { E2ESession } from '../helpers/e2e/session';

/** A long answer streamed slowly (about 10 s), so there is time to hide or reload mid-stream. */
function slowAnswer(tag: string): string {
  const lines = Array.from({ length: 16 }, (_, i) => `Line ${i + 1} of the ${tag} answer, streaming slowly.`);
  return [...lines, `The ${tag} answer is complete.`].join('\n\n');
}

const script = markerScript({
  '[[first]]': [{ text: 'First answer: done.' }],
  '[[hide]]': [{ thinking: 'Planning a long answer.', text: slowAnswer('hide'), chunkSize: 6, chunkDelayMs: 50 }],
  '[[reload]]': [{ thinking: 'Planning another long answer.', text: slowAnswer('reload'), chunkSize: 6, chunkDelayMs: 50 }],
  // Answers whether the request still carried the conversation from before the reload.
  '[[after]]': [
    (body) => ({
      text: JSON.stringify(body.messages ?? []).includes('First answer: done.') ? 'I still know what we talked about.' : 'FORGOT: the earlier conversation was not sent.',
    }),
  ],
});

let session: E2ESession;

before(async () => {
  session = await E2ESession.start({ name: 'reload', script, provider: 'openai', model: 'tiny-coder', contextLength: 8192 });
  await session.step('open panel', () => session.chat.open());
}, { timeout: 240_000 });

after(async () => {
  await session?.close();
}, { timeout: 60_000 });

async function answerText(tag: string): Promise<string> {
  const answer = session.chat.assistantMessages.filter({ hasText: `of the ${tag} answer` });
  return (await answer.count()) ? answer.first().locator('.message-body').innerText() : '';
}

describe('conversation survives the view', { timeout: 120_000 }, () => {
  test('a hidden and re-shown view shows the same conversation, including the turn still streaming', async () => {
    await session.step('hide and show', async () => {
      const chat = session.chat;
      await chat.send('[[first]] Say something short.');
      await chat.assistantMessages.filter({ hasText: 'First answer: done.' }).waitFor({ timeout: 15_000 });
      await chat.waitIdle();

      await chat.send('[[hide]] Write a long answer.');
      await waitUntil(async () => /Line 3 of the hide/.test(await answerText('hide')), 15_000, 'the slow answer to start');
      // Switch the side bar to the Explorer: the webview is disposed while hidden.
      await session.workbench.activityBarItem('Explorer').click();
      await chat.message.waitFor({ state: 'hidden', timeout: 10_000 });
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await session.workbench.activityBarItem('Local Harness').click();
      await chat.message.waitFor({ state: 'visible', timeout: 20_000 });

      // Everything before is there, and the streaming answer picks up where it is and keeps growing.
      await chat.userMessages.filter({ hasText: '[[first]] Say something short.' }).waitFor({ timeout: 10_000 });
      await chat.assistantMessages.filter({ hasText: 'First answer: done.' }).waitFor();
      await chat.userMessages.filter({ hasText: '[[hide]] Write a long answer.' }).waitFor();
      const shownAfterReopen = await answerText('hide');
      assert.match(shownAfterReopen, /Line 1 of the hide answer/, 'the part streamed while hidden is shown');
      assert.doesNotMatch(shownAfterReopen, /The hide answer is complete/, 'the turn was still streaming when the view came back');
      await session.screenshot('01-reopened-mid-stream');
      await waitUntil(async () => /The hide answer is complete\./.test(await answerText('hide')), 30_000, 'the streamed answer to finish');
      await chat.waitIdle();
      assert.equal(await chat.assistantMessages.filter({ hasText: 'of the hide answer' }).count(), 1, 'one answer, not a duplicate');
    });
  });

  test('reloading the window mid-conversation shows the same conversation', async () => {
    await session.step('reload window', async () => {
      const chat = session.chat;
      await chat.send('[[reload]] Write another long answer.');
      await waitUntil(async () => /Line 3 of the reload/.test(await answerText('reload')), 15_000, 'the slow answer to start');
      await session.screenshot('02-before-reload');

      // A browser reload restarts the remote extension host: the conversation must come back from storage.
      await session.workbench.reload();
      await chat.open();
      await session.step('conversation after reload', async () => {
        await chat.userMessages.filter({ hasText: '[[first]] Say something short.' }).waitFor({ timeout: 20_000 });
      });
      await chat.assistantMessages.filter({ hasText: 'First answer: done.' }).waitFor();
      await chat.assistantMessages.filter({ hasText: 'The hide answer is complete.' }).waitFor();
      await chat.userMessages.filter({ hasText: '[[reload]] Write another long answer.' }).waitFor();
      await session.screenshot('03-after-reload');
      await chat.waitIdle(40_000);
      assert.equal(await chat.userMessages.count(), 3, 'each user message once');
      assert.ok((await chat.assistantMessages.filter({ hasText: 'of the reload answer' }).count()) <= 1, 'the interrupted answer is not duplicated');

      // The restored conversation is the one the model continues from.
      await chat.send('[[after]] Are you still there?');
      await chat.assistantMessages.filter({ hasText: /I still know what we talked about|FORGOT/ }).waitFor({ timeout: 15_000 });
      await chat.waitIdle();
      assert.equal(await chat.assistantMessages.filter({ hasText: 'FORGOT' }).count(), 0, 'the model received the conversation from before the reload');
      await session.screenshot('04-continued-after-reload');
    });
  });

  test('the extension host logged no errors from Local Harness', () => {
    const errors = session.extensionHostErrors();
    assert.deepEqual(errors, [], `errors in the extension host log:\n${errors.slice(0, 3).join('\n\n')}`);
  });
});
