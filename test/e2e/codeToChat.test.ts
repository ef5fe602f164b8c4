// Code to chat in a real VS Code (issue 12): a TypeScript file with a real type error offers "Fix with Local
// Harness" in the Ctrl+. menu; choosing it opens the chat with the code as a chip and the problem as the request;
// the scripted model's edit goes through the approval dialog and changes the file. Then "Add Selection to Chat"
// from the palette shows a chip with the selected lines, which its × removes; the keybinding attaches a whole file.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { shownText, waitUntil } from '../helpers/e2e/chatPanel';
import { contentText, markerScript } from '../helpers/e2e/markerScript';
import { E2ESession } from '../helpers/e2e/session';
import type { ChatBody } from '../helpers/fakeLlm';

const BROKEN = `export function double(n: number): number {
  return n * 2;
}
const answer: number = "forty-two";
export { answer };
`;

const UTIL = `export function first<T>(items: T[]): T | undefined {
  return items[0];
}

export function last<T>(items: T[]): T | undefined {
  return items[items.length - 1];
}
`;

const FIX_MARKER = 'Fix this problem reported by ts (2322)';

// A weak model: it answers the fix request with one edit_file call, then a sentence.
const script = markerScript({
  [FIX_MARKER]: [
    { toolCalls: [{ name: 'edit_file', arguments: { path: 'src/broken.ts', old_text: 'const answer: number = "forty-two";', new_text: 'const answer: number = 42;' } }] },
    { text: 'Changed answer to the number 42, which matches its type.' },
  ],
  // Long enough for the steps below on a loaded machine; the test stops it when done.
  '[[slow]]': [{ text: 'Done waiting.', delayMs: 90_000 }],
  'Explain this code.': [{ text: 'first and last return the ends of the list.' }],
});

let session: E2ESession;

before(async () => {
  session = await E2ESession.start({
    name: 'codeToChat',
    script,
    files: { 'src/broken.ts': BROKEN, 'src/util.ts': UTIL, 'tsconfig.json': '{ "compilerOptions": { "strict": true, "target": "es2022", "module": "esnext" } }\n' },
  });
  // Opening the chat activates the extension (its code actions and commands register).
  await session.chat.open();
}, { timeout: 300_000 });

after(async () => {
  await session?.close();
}, { timeout: 60_000 });

function requestsWith(marker: string): ChatBody[] {
  return (session.llm.requests as ChatBody[]).filter((body) => (body.messages ?? []).some((m) => m.role === 'user' && contentText(m.content).includes(marker)));
}

describe('code to chat in the editor', { timeout: 300_000 }, () => {
  test('"Fix with Local Harness" on a type error sends the problem and the code; the model\'s edit is approved and lands on disk', async () => {
    await session.step('fix with local harness', async () => {
      const wb = session.workbench;
      const chat = session.chat;
      await wb.openFile('src/broken.ts');
      // The TypeScript server reports the error (it may take a while to start on a loaded machine).
      await wb.page.locator('.editor-group-container.active .squiggly-error').first().waitFor({ state: 'visible', timeout: 120_000 });
      // Cursor on `answer` (line 4, column 8), where the diagnostic is.
      await wb.page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click();
      await wb.page.keyboard.press('Control+G');
      const input = wb.page.locator('.quick-input-widget input');
      await input.waitFor({ state: 'visible', timeout: 10_000 });
      await input.fill(':4:8');
      await wb.page.keyboard.press('Enter');
      await input.waitFor({ state: 'hidden', timeout: 10_000 });

      const actions = await wb.openCodeActions(60_000);
      assert.ok(actions.includes('Fix with Local Harness'), `code actions: ${JSON.stringify(actions)}`);
      await session.screenshot('01-fix-code-action');
      await wb.chooseCodeAction('Fix with Local Harness');

      // The chat shows the request with its chip, compactly: the question and the label, not the code.
      const user = chat.userMessages.filter({ hasText: FIX_MARKER }).last();
      await user.waitFor({ state: 'visible', timeout: 60_000 });
      // The message's own text (the bubble also holds its "Restore to here" button once it is saved).
      const shown = await shownText(user.locator('.message-body'));
      assert.match(shown, /Fix this problem reported by ts \(2322\) at line 4, column 7 of src\/broken\.ts: Type 'string' is not assignable to type 'number'\./);
      assert.match(shown, /\nAttached: src\/broken\.ts:1-5$/);
      assert.ok(!shown.includes('forty-two'), `the panel shows the chip, not the pasted code: ${shown}`);

      // The edit asks first.
      const dialog = await wb.waitForDialog(60_000);
      assert.match(`${dialog.message}\n${dialog.detail}`, /src\/broken\.ts/);
      await session.screenshot('02-fix-approval-dialog');
      await wb.answerDialog('Allow');
      const file = path.join(session.workspace, 'src/broken.ts');
      await waitUntil(() => readFileSync(file, 'utf8').includes('const answer: number = 42;'), 60_000, 'the edit to reach the file on disk', 200);
      await chat.assistantMessages.filter({ hasText: 'matches its type' }).last().waitFor({ timeout: 60_000 });
      await chat.waitIdle(60_000);
      assert.equal(await chat.frame.locator('.attachment-chip').count(), 0, 'the sent chip left the message box');
      await session.screenshot('03-fixed');

      // What the model got: the diagnostic in words and the code as it was, under its path:lines header.
      const first = requestsWith(FIX_MARKER)[0];
      assert.ok(first, 'the fix request reached the model');
      const sent = contentText((first.messages ?? []).filter((m) => m.role === 'user').at(-1)?.content);
      assert.match(sent, /\nsrc\/broken\.ts:1-5\n```typescript\n/);
      assert.ok(sent.includes('const answer: number = "forty-two";'), sent);
      assert.ok(sent.includes("Type 'string' is not assignable to type 'number'."), sent);
      // The request closes the user's words; the working context follows it at the tail of the message.
      assert.ok(userWords(sent).endsWith(`${FIX_MARKER} at line 4, column 7 of src/broken.ts: Type 'string' is not assignable to type 'number'.`), sent);
      assert.match(sent, /\n\n# Working context\nFiles you read: src\/broken\.ts \(lines 1-5\)/);
    });
  });

  test('"Add Selection to Chat" shows a chip with the selected lines; its × removes it; Ctrl+Alt+A attaches the whole file', async () => {
    await session.step('add selection', async () => {
      const wb = session.workbench;
      const chat = session.chat;
      await wb.openFile('src/util.ts');
      await wb.goToLine(5);
      // Lines 5-6 selected (the selection ends at the start of line 7, which is not included).
      await wb.page.keyboard.press('Shift+ArrowDown');
      await wb.page.keyboard.press('Shift+ArrowDown');
      await wb.runCommand('Local Harness: Add Selection to Chat');

      const chip = chat.frame.locator('.attachment-chip').filter({ hasText: 'util.ts:5-6' });
      await chip.waitFor({ state: 'visible', timeout: 30_000 });
      assert.equal((await chip.locator('.attachment-label').innerText()).trim(), 'util.ts:5-6');
      assert.equal(await chip.getAttribute('title'), 'src/util.ts:5-6');
      // The chat has keyboard focus: the user can type the question at once.
      await waitUntil(async () => await chat.message.evaluate((el) => el === el.ownerDocument.activeElement), 15_000, 'the message box to have focus');
      await session.screenshot('04-selection-chip');

      await chat.frame.getByRole('button', { name: 'Remove src/util.ts:5-6', exact: true }).click();
      await chip.waitFor({ state: 'detached', timeout: 15_000 });
      await session.screenshot('05-chip-removed');

      // The keybinding, with nothing selected: the whole file.
      await wb.goToLine(2);
      await wb.page.keyboard.press('Control+Alt+A');
      const whole = chat.frame.locator('.attachment-chip').filter({ hasText: /^\s*util\.ts\s*×?\s*$/ });
      await whole.waitFor({ state: 'visible', timeout: 30_000 });
      assert.equal(await whole.getAttribute('title'), 'src/util.ts (whole file)');
      await session.screenshot('06-whole-file-chip');
      await chat.frame.getByRole('button', { name: 'Remove src/util.ts', exact: true }).click();
      await whole.waitFor({ state: 'detached', timeout: 15_000 });
    });
  });

  test('a verb used while a turn runs attaches the code and leaves the request in the message box, saying so', async () => {
    await session.step('verb while busy', async () => {
      const wb = session.workbench;
      const chat = session.chat;
      await chat.send('[[slow]] Take your time.');
      await chat.waitBusy(30_000);
      await wb.openFile('src/util.ts');
      await wb.runCommand('Local Harness: Explain This');
      await waitUntil(async () => (await wb.notifications()).some((n) => n.startsWith('Local Harness is still answering.')), 30_000, 'the note that the request waits');
      const chip = chat.frame.locator('.attachment-chip').filter({ hasText: /^\s*util\.ts\s*×?\s*$/ });
      await chip.waitFor({ state: 'visible', timeout: 30_000 });
      await waitUntil(async () => (await chat.message.inputValue()) === 'Explain this code.', 15_000, 'the request in the message box');
      assert.equal(requestsWith('Explain this code.').length, 0, 'nothing was sent behind the user\'s back');
      await session.screenshot('07-verb-while-busy');

      assert.equal(await chat.stopButton.isEnabled(), true, 'the slow turn was still running throughout');
      await chat.stopButton.click();
      await chat.waitIdle(60_000);
      assert.equal(await chat.message.inputValue(), 'Explain this code.', 'the request is still waiting in the message box');
      await chat.sendButton.click();
      await chat.assistantMessages.filter({ hasText: 'return the ends of the list' }).last().waitFor({ timeout: 60_000 });
      const sent = contentText((requestsWith('Explain this code.')[0]?.messages ?? []).filter((m) => m.role === 'user').at(-1)?.content);
      assert.match(sent, /\nsrc\/util\.ts\n```typescript\nexport function first<T>/);
      assert.ok(userWords(sent).endsWith('\n\nExplain this code.'), sent);
      await chip.waitFor({ state: 'detached', timeout: 15_000 });
    });
  });

  test('the extension host logged no errors from Local Harness', () => {
    const errors = session.extensionHostErrors();
    assert.deepEqual(errors, [], `errors in the extension host log:\n${errors.slice(0, 3).join('\n\n')}`);
  });
});

/** A user message as the model got it, without the working context the harness appends after the user's words. */
function userWords(sent: string): string {
  const at = sent.indexOf('\n\n# Working context\n');
  return at < 0 ? sent : sent.slice(0, at);
}
