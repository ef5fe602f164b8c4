// MCP beyond tools in a real VS Code, with the published `@modelcontextprotocol/server-everything` over stdio
// (defined by the workspace's `.vscode/mcp.json`, consent given in the dialog). A scripted model calls the
// server's tools that ask back: `trigger-elicitation-request` opens the native form (a modal, then one quick input
// per field, filled here by Chromium) and the answers reach the model in the tool result; Esc in the form
// cancels; `trigger-sampling-request` opens the approval modal, and after Allow the fake LLM server answers the
// server's prompt, whose text comes back in the tool result, while Deny keeps the prompt from the model; the
// workspace folder is the server's root; a long operation shows its progress on the tool card and Stop cancels it.
import assert from 'node:assert/strict';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { waitUntil } from '../helpers/e2e/chatPanel';
import { contentText, markerScript, toolResults } from '../helpers/e2e/markerScript';
import { REPO_ROOT } from '../helpers/e2e/paths';
import { E2ESession } from '../helpers/e2e/session';
import type { ChatBody, ScriptedReply } from '../helpers/fakeLlm';

const EVERYTHING_BIN = path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const MCP_JSON = JSON.stringify({ servers: { everything: { type: 'stdio', command: process.execPath, args: [EVERYTHING_BIN, 'stdio'] } } }, null, 2);

const ELICIT = 'everything__trigger-elicitation-request';
const SAMPLE = 'everything__trigger-sampling-request';
const LONG = 'everything__trigger-long-running-operation';
const ROOTS = 'everything__get-roots-list';
/** The fields of server-everything's form, in its order (2026.8.31). */
const FIELD_COUNT = 13;
const HAIKU = 'Steam curls from the cup / green leaves unfold in silence / the kettle sighs twice';
const SYSTEM_PROMPT = 'You are a helpful test server.';

const toolNames = (body: ChatBody): string[] => ((body.tools as Array<{ function?: { name?: string } }> | undefined) ?? []).map((t) => t.function?.name ?? '');

/** A weak model: calls the tool when it was offered, and otherwise says what it saw. */
function callIfOffered(name: string, args: Record<string, unknown>): (body: ChatBody) => ScriptedReply {
  return (body) => (toolNames(body).includes(name) ? { toolCalls: [{ name, arguments: args }] } : { text: `UNEXPECTED: ${name} was not offered (${toolNames(body).join(', ')})` });
}

/** Repeats the tool result so the chat shows it; the test reads the real request the model got. */
const echoResult = (body: ChatBody): ScriptedReply => ({ text: `Tool said: ${toolResults(body).join(' | ').slice(0, 400)}` });

const script = markerScript({
  '[[elicit]]': [callIfOffered(ELICIT, {}), echoResult],
  '[[elicit-esc]]': [callIfOffered(ELICIT, {}), echoResult],
  '[[elicit-stop]]': [callIfOffered(ELICIT, {}), echoResult],
  '[[sample]]': [callIfOffered(SAMPLE, { prompt: '[[haiku]] Write a haiku about green tea.', maxTokens: 60 }), echoResult],
  // The server's own sampling request: its message carries the prompt the model put in the tool call.
  '[[haiku]]': [() => ({ text: HAIKU })],
  '[[sample-deny]]': [callIfOffered(SAMPLE, { prompt: '[[haiku]] Another haiku, please.', maxTokens: 40 }), echoResult],
  '[[long]]': [callIfOffered(LONG, { duration: 120, steps: 120 }), echoResult],
  '[[roots]]': [callIfOffered(ROOTS, {}), echoResult],
});

let session: E2ESession;

before(async () => {
  session = await E2ESession.start({
    name: 'mcpElicitSampling',
    script,
    files: { '.vscode/mcp.json': MCP_JSON, 'README.md': '# everything demo\n' },
    settings: {
      // Tool approval dialogs are not what this file is about; the form and the sampling modal are.
      'localharness.approval.autoApprove': ['read', 'write'],
      // Offer every tool, so the scripted model finds the ones it calls.
      'localharness.tools.maxOffered': 80,
    },
  });
}, { timeout: 240_000 });

after(async () => {
  await session?.close();
}, { timeout: 60_000 });

type Message = { role?: unknown; content?: unknown };
const messagesOf = (body: Record<string, unknown>): Message[] => (Array.isArray(body.messages) ? (body.messages as Message[]) : []);
/** Requests that carry the server's sampling prompt (the marker the model put into the tool's arguments). */
const samplingRequests = (bodies: Array<Record<string, unknown>>) => bodies.filter((b) => messagesOf(b).some((m) => m.role === 'user' && contentText(m.content).includes('[[haiku]]')));

/** The chat requests that carried a tool result of `name`'s call, newest last. */
function requestsWithResultOf(text: RegExp): Array<Record<string, unknown>> {
  return session.llm.requests.filter((body) => toolResults(body).some((r) => text.test(r)));
}

const quickInput = () => session.workbench.page.locator('.quick-input-widget');
const inputBox = () => quickInput().locator('.quick-input-box input');

/** Waits for the form's question `n` and returns its title and the labels of its items (none for a text box). */
async function field(n: number): Promise<{ title: string; items: string[] }> {
  return session.workbench.waitForQuickPick(new RegExp(`\\(field ${n} of ${FIELD_COUNT}\\)$`), 20_000);
}

/** Types into the question's input box (replacing what is there) and presses Enter. */
async function typeAnswer(text: string): Promise<void> {
  await inputBox().fill(text);
  await session.workbench.page.keyboard.press('Enter');
}

async function clickItem(label: string): Promise<void> {
  const row = quickInput()
    .locator('.quick-input-list .monaco-list-row')
    .filter({ has: session.workbench.page.locator('.label-name', { hasText: new RegExp(`^\\s*${label}\\s*$`) }) })
    .first();
  await row.click();
}

async function validationText(): Promise<string> {
  return (await quickInput().locator('.quick-input-message').innerText().catch(() => '')).trim();
}

describe('MCP elicitation, sampling and progress in the editor', { timeout: 300_000 }, () => {
  test('consent for the workspace\u2019s server; the chat opens', async () => {
    await session.step('consent', async () => {
      const wb = session.workbench;
      await wb.activityBarItem('Local Harness').click();
      const asked = await wb.waitForDialog(60_000);
      assert.match(asked.message, /Start the MCP server "everything" defined by this workspace\?/);
      await wb.answerDialog('Allow');
      await session.chat.message.waitFor({ state: 'visible', timeout: 30_000 });
    });
  });

  test('an elicitation opens the native form; the filled answers reach the model in the tool result', async () => {
    await session.step('elicitation form', async () => {
      const wb = session.workbench;
      const page = wb.page;
      await session.chat.send('[[elicit]] Ask me for my details, please.');

      const opening = await wb.waitForDialog(60_000);
      assert.equal(opening.message, 'MCP server "everything" asks: Please provide inputs for the following fields:');
      assert.match(opening.detail, /The form has 13 fields:/);
      assert.match(opening.detail, /• String \(required\)/);
      assert.ok(opening.buttons.includes('Respond') && opening.buttons.includes('Decline'), `buttons: ${opening.buttons.join(', ')}`);
      await session.screenshot('01-elicitation-opening');
      await wb.answerDialog('Respond');

      // 1 name: a required string.
      const name = await field(1);
      assert.equal(name.title, 'everything: String (field 1 of 13)');
      await typeAnswer('');
      await waitUntil(async () => /required/i.test(await validationText()), 5_000, 'the "required" message');
      await typeAnswer('Ada Lovelace');
      // 2 check: a boolean, optional.
      assert.deepEqual((await field(2)).items, ['Yes', 'No', 'No answer']);
      await clickItem('Yes');
      // 3 firstLine: its default is already in the box.
      await field(3);
      assert.equal(await inputBox().inputValue(), 'It was a dark and stormy night.');
      await page.keyboard.press('Enter');
      // 4 email: a bad address is refused in place, then a good one.
      await field(4);
      await inputBox().fill('ada at example');
      await waitUntil(async () => /email address/i.test(await validationText()), 5_000, 'the email validation message');
      await session.screenshot('02-elicitation-validation');
      await page.keyboard.press('Enter');
      assert.match((await field(4)).title, /field 4 of 13/, 'Enter on an invalid value keeps the question open');
      await typeAnswer('ada@example.com');
      // 5 homepage: optional, left empty.
      await field(5);
      await typeAnswer('');
      // 6 birthdate.
      await field(6);
      await typeAnswer('1815-12-10');
      // 7 integer 1..100, default 42: out of range first.
      await field(7);
      assert.equal(await inputBox().inputValue(), '42');
      await inputBox().fill('150');
      await waitUntil(async () => /At most 100/.test(await validationText()), 5_000, 'the range message');
      await typeAnswer('7');
      // 8 number, default 3.14: taken as it is.
      await field(8);
      await page.keyboard.press('Enter');
      // 9 single-select enum.
      assert.ok((await field(9)).items.includes('Joey'));
      await clickItem('Joey');
      // 10 multi-select enum, default Guitar ticked: tick Piano too.
      const instruments = await field(10);
      assert.deepEqual(instruments.items, ['Guitar', 'Piano', 'Violin', 'Drums', 'Bass']);
      await clickItem('Piano');
      await session.screenshot('03-elicitation-multiselect');
      await page.keyboard.press('Enter');
      // 11 titled single-select: the titles are shown, the values sent.
      await field(11);
      await clickItem('Wonder Woman');
      // 12 titled multi-select, default Tuna: accepted as it is.
      await field(12);
      await page.keyboard.press('Enter');
      // 13 legacy enumNames.
      await field(13);
      await clickItem('Dogs');
      await quickInput().waitFor({ state: 'hidden', timeout: 10_000 });

      await session.chat.assistantMessages.filter({ hasText: /User provided|UNEXPECTED/ }).first().waitFor({ timeout: 30_000 });
      await session.chat.waitIdle();
      const [withResult] = requestsWithResultOf(/User provided the requested information/);
      assert.ok(withResult, 'the model got the tool result of the accepted form');
      const result = toolResults(withResult).find((r) => /User provided/.test(r))!;
      assert.match(result, /- Name: Ada Lovelace/);
      assert.match(result, /- Agreed to terms: true/);
      assert.match(result, /- Email: ada@example\.com/);
      assert.match(result, /- Birthdate: 1815-12-10/);
      assert.match(result, /- Favorite Integer: 7/);
      assert.match(result, /- Favorite Number: 3\.14/);
      const raw = JSON.parse(result.slice(result.indexOf('{'))) as { action: string; content: Record<string, unknown> };
      assert.deepEqual(raw, {
        action: 'accept',
        content: {
          name: 'Ada Lovelace',
          check: true,
          firstLine: 'It was a dark and stormy night.',
          email: 'ada@example.com',
          birthdate: '1815-12-10',
          integer: 7,
          number: 3.14,
          untitledSingleSelectEnum: 'Joey',
          untitledMultipleSelectEnum: ['Guitar', 'Piano'],
          titledSingleSelectEnum: 'hero-3',
          titledMultipleSelectEnum: ['fish-1'],
          legacyTitledEnum: 'pet-2',
        },
      });
      await session.screenshot('04-elicitation-answered');
    });
  });

  test('Esc in the middle of the form cancels it; the server hears "cancel"', async () => {
    await session.step('elicitation cancel', async () => {
      const wb = session.workbench;
      await session.chat.reset();
      await session.chat.send('[[elicit-esc]] Ask me again.');
      await wb.waitForDialog(60_000);
      await wb.answerDialog('Respond');
      await field(1);
      await typeAnswer('Grace Hopper');
      await field(2);
      await wb.page.keyboard.press('Escape');
      await quickInput().waitFor({ state: 'hidden', timeout: 10_000 });
      await session.chat.assistantMessages.filter({ hasText: /cancelled the elicitation|UNEXPECTED/ }).first().waitFor({ timeout: 30_000 });
      await session.chat.waitIdle();
      const [cancelled] = requestsWithResultOf(/User cancelled the elicitation dialog/);
      assert.ok(cancelled, 'the tool result says the user cancelled');
      assert.ok(!toolResults(cancelled).some((r) => r.includes('Grace Hopper')), 'nothing typed before Esc was sent');
    });
  });

  test('Stop while the form is open closes it and ends the turn', async () => {
    await session.step('elicitation stop', async () => {
      const wb = session.workbench;
      await session.chat.reset();
      await session.chat.send('[[elicit-stop]] Ask me once more.');
      await wb.waitForDialog(60_000);
      await wb.answerDialog('Respond');
      await field(1);
      await session.chat.stopButton.click();
      await quickInput().waitFor({ state: 'hidden', timeout: 10_000 });
      await session.chat.waitIdle(15_000);
      assert.notEqual(await session.chat.toolCard(ELICIT).last().getAttribute('data-status'), 'running');
    });
  });

  test('a sampling request asks for approval; after Allow the chat\u2019s model answers it', async () => {
    await session.step('sampling', async () => {
      const wb = session.workbench;
      await session.chat.reset();
      const before = session.llm.requests.length;
      await session.chat.send('[[sample]] Have the server ask you for a haiku.');
      const approval = await wb.waitForDialog(60_000);
      assert.equal(approval.message, 'MCP server "everything" wants your model to answer a prompt. Allow?');
      assert.match(approval.detail, /Model: qwen3:8b \(the chat's model\)/);
      assert.match(approval.detail, /Token limit: 60/);
      assert.match(approval.detail, /System prompt: You are a helpful test server\./);
      assert.match(approval.detail, /user: Resource trigger-sampling-request context: \[\[haiku\]\] Write a haiku about green tea\./);
      assert.ok(['Allow', 'Allow for This Server', 'Deny'].every((b) => approval.buttons.includes(b)), `buttons: ${approval.buttons.join(', ')}`);
      assert.equal(
        samplingRequests(session.llm.requests.slice(before)).length,
        0,
        'nothing reaches the model before the user allows it',
      );
      await session.screenshot('05-sampling-approval');
      await wb.answerDialog('Allow');

      await session.chat.assistantMessages.filter({ hasText: /LLM sampling result|UNEXPECTED/ }).first().waitFor({ timeout: 30_000 });
      await session.chat.waitIdle();
      const sampled = samplingRequests(session.llm.requests.slice(before));
      assert.equal(sampled.length, 1, 'the fake LLM got the server\u2019s prompt once');
      const messages = messagesOf(sampled[0]!);
      assert.ok(messages.some((m) => m.role === 'system' && contentText(m.content).includes(SYSTEM_PROMPT)), 'with the server\u2019s system prompt');
      assert.equal(sampled[0]!.model, 'qwen3:8b');
      const [withResult] = requestsWithResultOf(/LLM sampling result/);
      assert.ok(withResult, 'the model got the tool result of the sampling tool');
      const result = toolResults(withResult).find((r) => /LLM sampling result/.test(r))!;
      assert.ok(result.includes(HAIKU), `the sampled text is in the tool result: ${result.slice(0, 300)}`);
      assert.match(result, /"model": "qwen3:8b"/);
      await session.screenshot('06-sampling-answered');
    });
  });

  test('Deny refuses the sampling request: nothing reaches the model, the server hears the refusal', async () => {
    await session.step('sampling deny', async () => {
      const wb = session.workbench;
      await session.chat.reset();
      const before = session.llm.requests.length;
      await session.chat.send('[[sample-deny]] Have the server ask you again.');
      const approval = await wb.waitForDialog(60_000);
      assert.match(approval.detail, /Another haiku, please\./, 'the new request is asked about (a single Allow is not remembered)');
      await wb.answerDialog('Deny');
      await session.chat.assistantMessages.filter({ hasText: /Tool said|UNEXPECTED/ }).first().waitFor({ timeout: 30_000 });
      await session.chat.waitIdle();
      assert.equal(samplingRequests(session.llm.requests.slice(before)).length, 0, 'the model never saw the server\u2019s prompt');
      const [withResult] = requestsWithResultOf(/declined the sampling request/);
      assert.ok(withResult, 'the tool result carries the refusal');
    });
  });

  test('the workspace folder is announced as the server\u2019s root', async () => {
    await session.step('roots', async () => {
      await session.chat.reset();
      await session.chat.send('[[roots]] Which roots do you know?');
      await session.chat.assistantMessages.filter({ hasText: /Tool said|UNEXPECTED/ }).first().waitFor({ timeout: 30_000 });
      await session.chat.waitIdle();
      const results = session.llm.requests.flatMap((b) => toolResults(b)).filter((r) => r.includes(pathToFileURL(session.workspace).href));
      assert.ok(results.length > 0, `the roots list names file://${session.workspace}`);
    });
  });

  test('a long operation shows its progress on the tool card; Stop cancels the call', async () => {
    await session.step('progress and stop', async () => {
      const chat = session.chat;
      await chat.reset();
      await chat.send('[[long]] Run the long operation.');
      await chat.waitToolStatus(LONG, 'running', 60_000);
      // Not filtered by status: the same card is looked at after it stopped running.
      const card = chat.toolCard(LONG).last();
      const progress = card.locator('.tool-progress');
      await waitUntil(async () => /\b[2-9]\/120\b|\b\d{2}\/120\b/.test(await progress.innerText().catch(() => '')), 20_000, 'progress on the card');
      const first = await progress.innerText();
      await waitUntil(async () => (await progress.innerText().catch(() => first)) !== first, 10_000, 'the progress to move on');
      await session.screenshot('07-progress');
      await chat.stopButton.click();
      await chat.waitIdle(15_000);
      const status = await card.getAttribute('data-status');
      assert.notEqual(status, 'running');
      assert.notEqual(status, 'done', 'the 120 s operation did not run to its end');
      assert.equal(await progress.isVisible(), false, 'no progress once it stopped');
      assert.match(await card.locator('.tool-result-preview').innerText(), /Cancelled while the MCP tool was running; the server was told to stop/);
      const log = session.extensionLog();
      assert.ok(/stop requested/.test(log), 'the turn was cancelled');
    });
  });
});
