// "A repository must not steer the agent", the model-server half, in a real VS Code: the user's settings point at
// one OpenAI-compatible server (with an API key stored for it), the trusted workspace's .vscode/settings.json at
// another. Opening the chat asks nothing and sends nothing there; the first message asks in a native modal. Enter
// is Deny; Deny keeps the traffic and the key on the user's server; Allow sends to the repository's server without
// the key, is remembered, listed in Manage Approval Rules and revocable.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { waitUntil } from '../helpers/e2e/chatPanel';
import { markerScript } from '../helpers/e2e/markerScript';
import { E2ESession } from '../helpers/e2e/session';
import { startFakeOpenAIServer, type FakeServerHandle } from '../helpers/fakeLlm';

const SECRET = 'sk-e2e-user-key-7c1d';
const MODEL = 'tiny-coder';

/** Both servers run the same script; each answer says whose server it came from. */
const scriptFor = (whose: string) =>
  markerScript({
    '[[hello]]': [{ text: `Hello from ${whose}.` }],
    '[[auth]]': [{ fault: 'http500', status: 401, errorMessage: 'Invalid API key' }],
  });

let theirs: FakeServerHandle;
let session: E2ESession;

before(async () => {
  theirs = await startFakeOpenAIServer(scriptFor('the REPOSITORY server'), {
    name: 'repository server',
    models: [{ id: MODEL, maxContextLength: 8192, loadedContextLength: 8192 }],
  });
  session = await E2ESession.start({
    name: 'server-consent',
    script: scriptFor('YOUR server'),
    provider: 'openai',
    model: MODEL,
    contextLength: 8192,
    files: { '.vscode/settings.json': JSON.stringify({ 'localharness.openai.baseUrl': theirs.url }, null, 2), 'README.md': '# repo\n' },
  });
}, { timeout: 240_000 });

after(async () => {
  await session?.close();
  await theirs?.close();
}, { timeout: 60_000 });

const mine = () => session.llm;
const chatRequests = (server: FakeServerHandle) => server.log.filter((r) => r.path === '/v1/chat/completions');
/** Every header any request to `server` carried, as text: the key must not hide anywhere in it. */
const allHeaders = (server: FakeServerHandle) => server.log.map((r) => JSON.stringify(r.headers)).join('\n');

/** Run a palette command that opens a quick input (it replaces the palette, which therefore never closes). */
async function runQuickInputCommand(label: string, title: RegExp): Promise<void> {
  const page = session.workbench.page;
  const input = page.locator('.quick-input-widget input');
  await session.workbench.focusWorkbench();
  await page.keyboard.press('F1');
  await input.waitFor({ state: 'visible', timeout: 5_000 });
  await input.fill(`>${label}`);
  await page.locator('.quick-input-list .monaco-list-row.focused').filter({ hasText: label.split(': ')[1]! }).waitFor({ timeout: 10_000 });
  await page.keyboard.press('Enter');
  await waitUntil(async () => title.test(await page.locator('.quick-input-widget .quick-input-title').innerText().catch(() => '')), 10_000, `the quick input "${title}"`);
}

/** Manage Approval Rules: the listed labels; picks and revokes `revoke` when given. */
async function manageRules(revoke?: string): Promise<string[]> {
  const page = session.workbench.page;
  await runQuickInputCommand('Local Harness: Manage Approval Rules', /approval rules/i);
  const rows = page.locator('.quick-input-list .monaco-list-row');
  await rows.first().waitFor({ timeout: 10_000 });
  const labels = (await rows.locator('.label-name').allInnerTexts()).map((t) => t.replace(/\u00a0/g, ' ').trim());
  if (revoke === undefined) {
    await page.keyboard.press('Escape');
  } else {
    const row = rows.filter({ hasText: revoke }).first();
    // A click on a row of a multi-select quick pick ticks it; OK accepts the ticked ones.
    await row.locator('.label-name').first().click();
    const count = page.locator('.quick-input-widget .quick-input-count');
    await waitUntil(async () => /1 Selected/i.test(await count.innerText().catch(() => '')), 5_000, 'the rule to be ticked');
    await page.locator('.quick-input-widget .quick-input-action').getByRole('button', { name: 'OK' }).click();
    await waitUntil(async () => (await session.workbench.notifications()).some((n) => /Revoked 1 approval rule/.test(n)), 10_000, 'the revoke notice');
  }
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 10_000 });
  return labels;
}

async function sendAndWaitAnswer(text: string, answer: string): Promise<void> {
  const chat = session.chat;
  const answers = chat.assistantMessages.filter({ hasText: answer });
  // The same answer text may already be on screen from an earlier turn: wait for one more.
  const before = await answers.count();
  await chat.send(text);
  await answers.nth(before).waitFor({ timeout: 30_000 });
  await chat.waitIdle();
}

const DIALOG = () => `This workspace sets the model server to ${theirs.url}. Send your code there?`;

describe('a model server named by the workspace', { timeout: 240_000 }, () => {
  test('Set API Key stores the key for the user\u2019s own server and says which', async () => {
    await session.step('set key', async () => {
      const page = session.workbench.page;
      // The palette lists the extension's commands once its contributions are registered.
      await session.workbench.activityBarItem('Local Harness').waitFor({ state: 'visible', timeout: 60_000 });
      await runQuickInputCommand('Local Harness: Set API Key', new RegExp(`API key for ${mine().origin.replace(/[.]/g, '\\.')}`));
      await session.screenshot('01-set-api-key');
      await page.locator('.quick-input-widget input').fill(SECRET);
      await page.keyboard.press('Enter');
      await waitUntil(
        async () => (await session.workbench.notifications()).some((n) => n.includes(`API key for ${mine().origin} was saved`)),
        10_000,
        'the "saved" notice naming the user\u2019s server',
      );
    });
  });

  test('opening the chat lists the user\u2019s models and sends nothing to the repository\u2019s server', async () => {
    await session.step('open', async () => {
      const chat = session.chat;
      await chat.open();
      await waitUntil(async () => (await chat.modelPicker.locator('option').allInnerTexts()).some((o) => o.includes(MODEL)), 15_000, 'the model list');
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      assert.equal(await session.workbench.dialog().isVisible(), false, 'no question before the user sends anything');
      assert.deepEqual(theirs.log, [], 'nothing reached the repository\u2019s server');
      const listing = mine().log.find((r) => r.path === '/v1/models');
      assert.equal(listing?.headers.authorization, `Bearer ${SECRET}`, 'the model list went to the user\u2019s server with its key');
    });
  });

  test('the first message asks; Enter is Deny: the request and the key go to the user\u2019s server only', async () => {
    await session.step('ask and press Enter', async () => {
      const chat = session.chat;
      const wb = session.workbench;
      await chat.send('[[hello]] first message');
      const dialog = await wb.waitForDialog();
      assert.equal(dialog.message, DIALOG());
      assert.ok(dialog.detail.includes(`Your own settings use ${mine().url}`), dialog.detail);
      assert.ok(dialog.detail.includes(`never sent to ${theirs.origin} unless you stored a key for that server`), dialog.detail);
      for (const b of ['Allow', 'Deny', 'Cancel']) assert.ok(dialog.buttons.includes(b), `buttons: ${dialog.buttons.join(' | ')}`);
      // The focused button is the one Enter presses: it must be Deny.
      const focused = (await wb.dialog().locator('.dialog-buttons a:focus, .dialog-buttons button:focus').innerText()).trim();
      assert.equal(focused, 'Deny', 'the default button keeps the code at home');
      await session.screenshot('02-server-dialog');
      await wb.page.keyboard.press('Enter');
      await wb.dialog().waitFor({ state: 'hidden', timeout: 10_000 });
      await chat.assistantMessages.filter({ hasText: 'Hello from YOUR server.' }).waitFor({ timeout: 30_000 });
      await chat.waitIdle();
      assert.equal(chatRequests(mine()).length, 1);
      assert.equal(chatRequests(mine())[0]!.headers.authorization, `Bearer ${SECRET}`);
      assert.deepEqual(theirs.log, [], 'Deny: not one request to the repository\u2019s server');
      assert.match(session.extensionLog(), new RegExp(`${theirs.url.replace(/[.]/g, '\\.')}: denied`));
    });
  });

  test('the Deny is remembered and listed in Manage Approval Rules, where it is revoked', async () => {
    await session.step('remembered deny', async () => {
      await sendAndWaitAnswer('[[hello]] second message', 'Hello from YOUR server.');
      assert.equal(chatRequests(mine()).length, 2, 'no second question: the answer was remembered');
      assert.deepEqual(theirs.log, []);
      const labels = await manageRules(`Model server for this workspace: ${theirs.url} (denied)`);
      assert.ok(labels.includes(`Model server for this workspace: ${theirs.url} (denied)`), `listed: ${labels.join(' | ')}`);
    });
  });

  test('after the revoke it asks again; Allow sends to the repository\u2019s server without the key, and is remembered', async () => {
    await session.step('allow', async () => {
      const chat = session.chat;
      await chat.send('[[hello]] third message');
      const dialog = await session.workbench.waitForDialog();
      assert.equal(dialog.message, DIALOG());
      await session.workbench.answerDialog('Allow');
      await chat.assistantMessages.filter({ hasText: 'Hello from the REPOSITORY server.' }).waitFor({ timeout: 30_000 });
      await chat.waitIdle();
      assert.equal(chatRequests(theirs).length, 1);
      assert.ok(!allHeaders(theirs).includes(SECRET), `the key never went to the repository's server:\n${allHeaders(theirs)}`);
      assert.notEqual(chatRequests(theirs)[0]!.headers.authorization, `Bearer ${SECRET}`);
      await session.screenshot('03-allowed');

      await sendAndWaitAnswer('[[hello]] fourth message', 'Hello from the REPOSITORY server.');
      assert.equal(chatRequests(theirs).length, 2, 'no second question');
      assert.ok(!allHeaders(theirs).includes(SECRET));
    });
  });

  test('a 401 from the allowed server says that keys only go to the server they were entered for', async () => {
    await session.step('401', async () => {
      const chat = session.chat;
      await chat.send('[[auth]] fifth message');
      const notice = chat.notices.filter({ hasText: `This server (${theirs.origin}) has no API key stored` });
      await notice.waitFor({ timeout: 30_000 });
      await chat.waitIdle();
      assert.match(await notice.innerText(), /only sends a key to the server it was entered for/);
      await session.screenshot('04-401-notice');
      // Set API Key now names the server in use: the repository's (left without storing anything).
      await runQuickInputCommand('Local Harness: Set API Key', new RegExp(`API key for ${theirs.origin.replace(/[.]/g, '\\.')}`));
      await session.workbench.page.keyboard.press('Escape');
      assert.ok(!allHeaders(theirs).includes(SECRET));
    });
  });

  test('the Allow is listed and revocable; then a clicked Deny brings the traffic back to the user\u2019s server', async () => {
    await session.step('revoke allow, deny', async () => {
      const label = `Model server for this workspace: ${theirs.url} (allowed)`;
      const labels = await manageRules(label);
      assert.ok(labels.includes(label), `listed: ${labels.join(' | ')}`);
      const before = chatRequests(theirs).length;
      const chat = session.chat;
      await chat.send('[[hello]] sixth message');
      const dialog = await session.workbench.waitForDialog();
      assert.equal(dialog.message, DIALOG());
      await session.workbench.answerDialog('Deny');
      await chat.assistantMessages.filter({ hasText: 'Hello from YOUR server.' }).nth(2).waitFor({ timeout: 30_000 });
      await chat.waitIdle();
      assert.equal(chatRequests(theirs).length, before, 'nothing more went to the repository\u2019s server');
      assert.equal(chatRequests(mine()).at(-1)!.headers.authorization, `Bearer ${SECRET}`);
      assert.ok(!allHeaders(theirs).includes(SECRET));
    });
  });

  test('the extension host logged no errors from Local Harness', () => {
    const errors = session.extensionHostErrors();
    assert.deepEqual(errors, [], `errors in the extension host log:\n${errors.slice(0, 3).join('\n\n')}`);
  });
});
