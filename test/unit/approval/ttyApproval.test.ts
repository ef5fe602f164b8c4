// The CLI's terminal prompt: a sensitive change shows the warning first and can only be allowed once.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { ttyApprovalAsker } from '../../../src/cli/ttyApproval';
import type { ApprovalRequest } from '../../../src/core/approval/gate';

function terminal() {
  const input = new PassThrough() as unknown as NodeJS.ReadStream & PassThrough;
  (input as { isTTY?: boolean }).isTTY = true;
  const output = new PassThrough() as unknown as NodeJS.WriteStream & PassThrough;
  let shown = '';
  output.setEncoding('utf8');
  output.on('data', (d: string) => (shown += d));
  return { input, output, shown: () => shown };
}

const sensitiveRequest: ApprovalRequest = {
  toolName: 'write_file',
  risk: 'write',
  args: { path: '.vscode/settings.json', content: '{}' },
  description: {
    title: 'Overwrite .vscode/settings.json',
    detail: '\u26a0 Sensitive: this changes .vscode/settings.json. It is asked every time; no session or workspace rule covers it.\n.vscode/settings.json \u2014 editor settings\n\n.vscode/settings.json: 1 → 1 line',
    sensitive: { paths: ['.vscode/settings.json'], reason: '.vscode/settings.json \u2014 editor settings' },
  },
};
const ordinaryRequest: ApprovalRequest = { toolName: 'write_file', risk: 'write', args: {}, description: { title: 'Create a.txt', detail: 'New file a.txt' } };

async function answer(request: ApprovalRequest, typed: string) {
  const t = terminal();
  const ask = ttyApprovalAsker(t.input, t.output)!;
  const pending = ask(request, new AbortController().signal);
  await new Promise((r) => setImmediate(r));
  t.input.write(`${typed}\n`);
  return { decision: await pending, shown: t.shown() };
}

describe('terminal approval', () => {
  test('no TTY: no asker at all (the gate fails closed)', () => {
    const input = new PassThrough() as unknown as NodeJS.ReadStream;
    assert.equal(ttyApprovalAsker(input, new PassThrough() as unknown as NodeJS.WriteStream), undefined);
  });

  test('a sensitive change shows the warning before the prompt and offers no session option', async () => {
    const { decision, shown } = await answer(sensitiveRequest, 'y');
    assert.deepEqual(decision, { approved: true, scope: 'once' });
    assert.ok(shown.indexOf('\u26a0 Sensitive') < shown.indexOf('Allow this change once? [y]es / [N]o'), shown);
    assert.doesNotMatch(shown, /\[s\]ession/);
  });

  test('"s" is not a yes for a sensitive change', async () => {
    const { decision } = await answer(sensitiveRequest, 's');
    assert.equal(decision.approved, false);
  });

  test('ordinary calls keep yes / session / no', async () => {
    assert.deepEqual((await answer(ordinaryRequest, 's')).decision, { approved: true, scope: 'session' });
    assert.deepEqual((await answer(ordinaryRequest, 'y')).decision, { approved: true, scope: 'once' });
    assert.equal((await answer(ordinaryRequest, '')).decision.approved, false);
  });

  test('a sandboxed command without network may get it for this one run ("w"); a command without the sandbox only once', async () => {
    const command: ApprovalRequest = { toolName: 'run_command', risk: 'execute', args: {}, description: { title: 'Run `npm install`', detail: 'npm install', command: 'npm install', networkOffer: true } };
    const withNetwork = await answer(command, 'w');
    assert.deepEqual(withNetwork.decision, { approved: true, scope: 'once', network: true });
    assert.match(withNetwork.shown, /Allow\? \[y\]es \/ \[s\]ession \/ \[w\]ith network, once \/ \[N\]o: /);
    assert.equal((await answer(ordinaryRequest, 'w')).decision.approved, false);
    const unsandboxed: ApprovalRequest = { ...command, description: { ...command.description, networkOffer: false, unsandboxed: { reason: 'bwrap is not installed' } } };
    const once = await answer(unsandboxed, 's');
    assert.equal(once.decision.approved, false);
    assert.match(once.shown, /Run it without the sandbox, once\? \[y\]es \/ \[N\]o: /);
    assert.deepEqual((await answer(unsandboxed, 'y')).decision, { approved: true, scope: 'once' });
  });
});
