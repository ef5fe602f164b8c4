// The workspace index in a real VS Code (issue 10): "Index this file with Local Harness" in the Ctrl+. menu runs
// with progress, the Knowledge view lists the file, and a later question retrieves its chunk (the model's request
// carries it, "What the model knows" lists it). Then the queue: the agent reads two files; after its answer two
// QuickPicks ask, in order, and the choices (Index fully, Metadata only) are what the Knowledge view shows.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { waitUntil } from '../helpers/e2e/chatPanel';
import { contentText, markerScript } from '../helpers/e2e/markerScript';
import { E2ESession } from '../helpers/e2e/session';
import { embedRequests, type ChatBody, type Script } from '../helpers/fakeLlm';
import { indexingModel, isIndexingRequest } from '../helpers/weakModels';

const BILLING = `// Invoices for the shop.
export interface LineItem { price: number; quantity: number }

export function computeInvoiceTotal(items: LineItem[], discountRate: number): number {
  const gross = items.reduce((sum, item) => sum + item.price * item.quantity, 0);
  const discounted = gross * (1 - discountRate);
  return Math.round(discounted * 100) / 100;
}

export function formatInvoiceNumber(year: number, sequence: number): string {
  return \`INV-\${year}-\${String(sequence).padStart(5, '0')}\`;
}
`;

const ALPHA = `export function alphaGreeting(name: string): string {
  return \`Hello, \${name}\`;
}
`;

const BETA = `export function betaFarewell(name: string): string {
  return \`Goodbye, \${name}\`;
}
`;

const routes = markerScript({
  '[[invoice]]': [{ text: 'The total is the sum of price times quantity, reduced by the discount rate and rounded to cents.' }],
  '[[compare]]': [
    {
      toolCalls: [
        { name: 'read_file', arguments: { path: 'src/alpha.ts' } },
        { name: 'read_file', arguments: { path: 'src/beta.ts' } },
      ],
    },
    { text: 'alphaGreeting says hello and betaFarewell says goodbye.' },
  ],
});
const summarize = indexingModel('good');

/** The chat model answers the chat; the same server's model answers the file summarizer (slowly: progress shows). */
const script: Script = (body, index) =>
  isIndexingRequest(body) ? { ...summarize(body), delayMs: 1500 } : typeof routes === 'function' ? routes(body, index) : undefined;

let session: E2ESession;

before(async () => {
  session = await E2ESession.start({
    name: 'knowledge',
    script,
    files: { 'src/billing.ts': BILLING, 'src/alpha.ts': ALPHA, 'src/beta.ts': BETA, 'README.md': '# shop\n' },
    settings: { 'localharness.index.embeddingModel': 'nomic-embed-text', 'localharness.index.onRead': 'ask' },
  });
  await session.chat.open();
}, { timeout: 300_000 });

after(async () => {
  await session?.close();
}, { timeout: 60_000 });

/** The chat requests (not the summarizer's) whose last user message contains `marker`. */
function chatRequestsFor(marker: string): ChatBody[] {
  return (session.llm.requests as ChatBody[]).filter((body) => {
    if (isIndexingRequest(body)) return false;
    const users = (body.messages ?? []).filter((m) => m.role === 'user');
    return contentText(users.at(-1)?.content).includes(marker);
  });
}

/** The Knowledge view's row for a file, once its accessible label matches. */
async function knowledgeRow(file: string, state: RegExp, timeoutMs = 60_000): Promise<string> {
  let labels: string[] = [];
  await waitUntil(
    async () => {
      labels = await session.workbench.treeLabels('Knowledge');
      return labels.some((l) => l.startsWith(`${file}: `) && state.test(l));
    },
    timeoutMs,
    `the Knowledge view to list ${file} as ${state}`,
    250,
  ).catch((err: Error) => {
    throw new Error(`${err.message}; it shows: ${JSON.stringify(labels)}`);
  });
  return labels.find((l) => l.startsWith(`${file}: `))!;
}

describe('workspace knowledge in the editor', { timeout: 300_000 }, () => {
  test('the code action indexes a file with progress, the Knowledge view lists it, and a question retrieves it', async () => {
    await session.step('index by code action', async () => {
      const wb = session.workbench;
      await wb.openFile('src/billing.ts');
      await wb.goToLine(5);
      const actions = await wb.openCodeActions();
      assert.ok(actions.includes('Index this file with Local Harness'), `code actions: ${JSON.stringify(actions)}`);
      await session.screenshot('01-code-action');
      await wb.chooseCodeAction('Index this file with Local Harness');

      // The summarizer answers after 1.5 s: the progress notification is up meanwhile.
      const progress = wb.page
        .locator('.notifications-toasts .notification-list-item')
        .filter({ hasText: /Local Harness: \w+ src\/billing\.ts/ })
        .filter({ has: wb.page.getByRole('button', { name: 'Cancel' }) });
      await progress.first().waitFor({ state: 'visible', timeout: 30_000 });
      await session.screenshot('02-indexing-progress');
      await waitUntil(async () => (await wb.notifications()).some((n) => /^Local Harness: Indexed src\/billing\.ts \(\d+ chunks?\)\.$/.test(n)), 60_000, 'the "Indexed src/billing.ts" message');

      await wb.runCommand('Local Harness: Show Knowledge');
      const row = await knowledgeRow('src/billing.ts', /indexed · \d+ chunks? · just now/);
      assert.match(row, /^src\/billing\.ts: indexed · \d+ chunks? · just now$/);
      // The file's entities: the summarizer named the functions, with their lines.
      await wb.treeRows('Knowledge').filter({ hasText: 'src/billing.ts' }).first().click();
      await wb.page.keyboard.press('ArrowRight');
      await waitUntil(async () => (await wb.treeLabels('Knowledge')).some((l) => /computeInvoiceTotal/.test(l)), 15_000, 'the entity computeInvoiceTotal under the file');
      const labels = await wb.treeLabels('Knowledge');
      assert.ok(labels.includes('computeInvoiceTotal: function · line 4'), JSON.stringify(labels));
      assert.ok(labels.some((l) => l.startsWith('Summary of src/billing.ts: ')), JSON.stringify(labels));
      await session.screenshot('03-knowledge-view');
      assert.ok(embedRequests(session.llm).some((r) => (r.body as { model?: string }).model === 'nomic-embed-text'), 'the chunks were embedded with the index embedding model');
    });

    await session.step('retrieval in a question', async () => {
      const chatPanel = session.chat;
      await chatPanel.send('[[invoice]] How is the invoice total computed when a discount rate applies?');
      await chatPanel.assistantMessages.filter({ hasText: 'reduced by the discount rate' }).last().waitFor({ timeout: 60_000 });
      await chatPanel.waitIdle(30_000);

      const requests = chatRequestsFor('[[invoice]]');
      assert.ok(requests.length >= 1, 'the question reached the model');
      // The retrieved code travels with the question (the system prompt stays the same for the server's cache).
      const system = contentText(requests[0]!.messages?.find((m) => m.role === 'system')?.content);
      assert.doesNotMatch(system, /Retrieved from the workspace index/);
      const question = contentText(requests[0]!.messages?.filter((m) => m.role === 'user').at(-1)?.content);
      assert.match(question, /^\[\[invoice\]\] How is the invoice total computed/);
      assert.match(question, /Retrieved from the workspace index/);
      assert.match(question, /src\/billing\.ts:\d+-\d+/);
      assert.match(question, /const discounted = gross \* \(1 - discountRate\);/, 'the chunk text itself is in the request');

      await chatPanel.frame.getByRole('button', { name: 'What the model knows' }).click();
      const retrieved = chatPanel.frame.locator('.hot-context-retrieved li').filter({ hasText: 'src/billing.ts:' });
      await retrieved.first().waitFor({ state: 'visible', timeout: 15_000 });
      const text = (await retrieved.first().innerText()).trim();
      assert.match(text, /^src\/billing\.ts:\d+-\d+ — /);
      await session.screenshot('04-what-the-model-knows');
      await chatPanel.frame.getByRole('button', { name: 'What the model knows' }).click();
    });
  });

  test('files the agent read are asked about after the answer, one QuickPick each, in order', async () => {
    await session.step('queue', async () => {
      const wb = session.workbench;
      const chatPanel = session.chat;
      await chatPanel.reset();
      await chatPanel.send('[[compare]] Compare the greeting helpers.');
      await chatPanel.assistantMessages.filter({ hasText: 'betaFarewell says goodbye' }).last().waitFor({ timeout: 60_000 });

      const first = await wb.waitForQuickPick('Index src/alpha.ts? (1 of 2)', 60_000);
      assert.deepEqual(first.items, ['Index fully', 'Index lines\u2026', 'Metadata only', 'Skip', 'Never for .ts files']);
      // The questions come after the answer, never during it.
      assert.equal(await chatPanel.stopButton.isDisabled(), true, 'no turn runs while the question is shown');
      await waitUntil(async () => (await wb.page.locator('.part.statusbar').innerText()).includes('2 to index'), 10_000, 'the status bar to show 2 files to index');
      await session.screenshot('05-queue-first-question');
      await wb.chooseQuickPickItem('Index fully');

      const second = await wb.waitForQuickPick('Index src/beta.ts? (2 of 2)', 90_000);
      assert.equal(second.items[2], 'Metadata only');
      await session.screenshot('06-queue-second-question');
      await wb.chooseQuickPickItem('Metadata only');

      await wb.runCommand('Local Harness: Show Knowledge');
      const alpha = await knowledgeRow('src/alpha.ts', /: indexed · \d+ chunks?/);
      const beta = await knowledgeRow('src/beta.ts', /: metadata only/);
      assert.match(alpha, /^src\/alpha\.ts: indexed · \d+ chunks? · just now$/);
      assert.equal(beta, 'src/beta.ts: metadata only · just now');
      await waitUntil(async () => !(await wb.page.locator('.part.statusbar').innerText()).includes('to index'), 10_000, 'the queue status to disappear');
      await session.screenshot('07-knowledge-after-queue');
      const summarized = (session.llm.requests as ChatBody[]).filter(isIndexingRequest).map((b) => contentText(b.messages?.find((m) => m.role === 'user')?.content));
      assert.ok(summarized.some((t) => t.includes('File: src/alpha.ts')), 'alpha was summarized by the model');
      assert.ok(!summarized.some((t) => t.includes('File: src/beta.ts')), 'metadata only makes no model call for beta');
    });
  });

  test('Remove From Index in the view drops a file; Index Workspace… indexes what a glob matches after confirming', async () => {
    await session.step('remove and index workspace', async () => {
      const wb = session.workbench;
      await wb.runCommand('Local Harness: Show Knowledge');
      const beta = wb.treeRows('Knowledge').filter({ hasText: 'src/beta.ts' }).first();
      await beta.hover();
      await beta.getByRole('button', { name: 'Remove From Index' }).click();
      await waitUntil(async () => (await wb.notifications()).includes('Local Harness: removed src/beta.ts from the index.'), 15_000, 'the removal message');
      await waitUntil(async () => !(await wb.treeLabels('Knowledge')).some((l) => l.startsWith('src/beta.ts: ')), 15_000, 'src/beta.ts to leave the view');

      await wb.runCommand('Local Harness: Index Workspace…', { opensInput: true });
      const input = wb.page.locator('.quick-input-widget input');
      await input.waitFor({ state: 'visible', timeout: 10_000 });
      await input.fill('**/*.md');
      await wb.page.keyboard.press('Enter');
      const dialog = await wb.waitForDialog();
      assert.equal(dialog.message, 'Index 1 file matching "**/*.md"?');
      assert.ok(dialog.buttons.includes('Index') && dialog.buttons.includes('Metadata Only'), dialog.buttons.join(' | '));
      await session.screenshot('08-index-workspace-confirm');
      await wb.answerDialog('Index');
      const readme = await knowledgeRow('README.md', /: indexed · \d+ chunks?/);
      assert.match(readme, /^README\.md: indexed · 1 chunk · just now$/);
      await session.screenshot('09-knowledge-after-workspace');
    });
  });

  test('the extension host logged no errors from Local Harness', () => {
    const errors = session.extensionHostErrors();
    assert.deepEqual(errors, [], `errors in the extension host log:\n${errors.slice(0, 3).join('\n\n')}`);
  });
});
