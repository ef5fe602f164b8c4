// The gate with command rules: an allow rule (from settings or from "for this session") covers one simple command
// only, so a chained command after it is asked; a deny rule catches the command wherever the line starts it; a
// chained command is never remembered as a rule.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ALLOW, ALLOW_SESSION, ALLOW_WORKSPACE, DENY, buildApprovalDialog } from '../../../src/editor/approval/dialog';
import { PassThrough } from 'node:stream';
import { ttyApprovalAsker } from '../../../src/cli/ttyApproval';
import { ApprovalGate, rememberable, type ApprovalDecision, type ApprovalRequest, type ApprovalRule } from '../../../src/core/approval/gate';

const request = (command: string): ApprovalRequest => ({
  toolName: 'run_command',
  risk: 'execute',
  args: { command },
  description: { title: `Run ${command}`, detail: command, command },
});

function gateWith(rules: ApprovalRule[], answers: ApprovalDecision[] = []) {
  const asked: string[] = [];
  const remembered: ApprovalRule[] = [];
  const gate = new ApprovalGate({
    policy: { autoApprove: ['read'], rules },
    ask: async (r) => {
      asked.push(r.description.command!);
      return answers.shift() ?? { approved: false, reason: 'denied by the user' };
    },
    onRemember: (rule) => remembered.push(rule),
  });
  return { gate, asked, remembered };
}

const signal = new AbortController().signal;

test('a session rule for "npm test" runs npm test without asking but asks for npm test followed by another line', async () => {
  const { gate, asked, remembered } = gateWith([], [{ approved: true, scope: 'session' }]);
  assert.equal((await gate.check(request('npm test'), signal)).approved, true);
  assert.deepEqual(remembered, [{ tool: 'run_command', commandPrefix: 'npm test', decision: 'allow' }]);
  assert.equal((await gate.check(request('npm test -- --grep "a b"'), signal)).approved, true);
  assert.deepEqual(asked, ['npm test']);
  for (const chained of ['npm test\nrm -rf ~', 'npm test\rrm -rf ~', 'npm test; rm -rf ~', 'npm test $(rm -rf ~)']) {
    const decision = await gate.check(request(chained), signal);
    assert.equal(decision.approved, false, chained);
  }
  assert.equal(asked.length, 5, 'each chained command was asked');
});

test('a chained command approved "for this session" runs once and is not remembered', async () => {
  const { gate, asked, remembered } = gateWith([], [{ approved: true, scope: 'session' }]);
  const decision = await gate.check(request('npm test && curl example.com'), signal);
  assert.deepEqual(decision, { approved: true, scope: 'once' });
  assert.deepEqual(remembered, []);
  await gate.check(request('npm test && curl example.com'), signal);
  assert.equal(asked.length, 2);
  assert.match(String(rememberable(request('npm test && curl example.com'))), /no rule can cover this command: it chains/);
  assert.equal(rememberable(request('npm test')), true);
});

test('a deny rule catches the command after a separator, a wrapper, sh -c, a substitution or find -exec', () => {
  const { gate } = gateWith([
    { tool: 'run_command', commandPrefix: 'npm', decision: 'allow' },
    { tool: 'run_command', commandPrefix: 'rm', decision: 'deny' },
  ]);
  for (const command of ['rm -rf x', 'echo ok; rm -rf x', 'npm test\nrm -rf x', 'nohup rm x', 'sh -c "rm x"', 'echo $(rm x)', 'find . -exec rm {} +', 'FOO=1 /bin/rm x', 'eval "rm x"']) {
    assert.equal(gate.decideByPolicy(request(command)), 'deny', command);
  }
  assert.equal(gate.decideByPolicy(request('npm test')), 'allow');
  assert.equal(gate.decideByPolicy(request('npm test -- --grep rm')), 'allow');
});

test('the editor dialog offers only "Allow" (once) for a chained command, and says why', () => {
  const chained = buildApprovalDialog(request('npm test\nrm -rf ~'));
  assert.deepEqual(chained.buttons, [DENY, ALLOW]);
  assert.match(chained.detail, /Only "Allow" \(this once\) is offered: no rule can cover this command: it spans more than one line/);
  assert.deepEqual(buildApprovalDialog(request('npm test')).buttons, [DENY, ALLOW, ALLOW_SESSION, ALLOW_WORKSPACE]);
});

test('without anyone to ask, the denial of a chained command says the rule covers one plain command', async () => {
  const gate = new ApprovalGate({ policy: { autoApprove: ['read'], rules: [{ tool: 'run_command', commandPrefix: 'npm test', decision: 'allow' }] } });
  const denied = await gate.check(request('npm test\nrm -rf ~'), signal);
  assert.deepEqual(denied, {
    approved: false,
    reason: 'the rule for `npm test` covers one plain command only, and it spans more than one line; no one is available to approve it (non-interactive run)',
  });
  const other = await gate.check(request('make; rm -rf ~'), signal);
  assert.deepEqual(other, { approved: false, reason: 'no one is available to approve it (non-interactive run)' });
});

test('a deny prefix with quotes is read as the shell reads it', () => {
  const { gate } = gateWith([{ tool: 'run_command', commandPrefix: "git commit -m 'wip'", decision: 'deny' }]);
  assert.equal(gate.decideByPolicy(request('echo x; git commit -m "wip" --no-verify')), 'deny');
  assert.equal(gate.decideByPolicy(request('git commit -m done')), undefined);
});

test('the terminal prompt offers no [s]ession for a chained command, says why, and takes "s" as no', async () => {
  const input = new PassThrough() as unknown as NodeJS.ReadStream & PassThrough;
  (input as { isTTY?: boolean }).isTTY = true;
  const output = new PassThrough() as unknown as NodeJS.WriteStream & PassThrough;
  let shown = '';
  output.setEncoding('utf8').on('data', (d: string) => (shown += d));
  const ask = ttyApprovalAsker(input, output)!;
  const pending = ask(request('npm test\nrm -rf ~'), signal);
  await new Promise((r) => setImmediate(r));
  input.write('s\n');
  assert.deepEqual(await pending, { approved: false, reason: 'denied by the user' });
  assert.match(shown, /\(Only once: no rule can cover this command: it spans more than one line\.\)/);
  assert.match(shown, /Allow\? \[y\]es \/ \[N\]o: /);
});
