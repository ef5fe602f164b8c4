// The gate and sensitive requests: never covered by session rules, workspace rules or auto-approval; a deny
// rule still denies; "for this session" / "always" become "once"; no asker means denied (with a hook).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ApprovalGate, type ApprovalDecision, type ApprovalRequest, type ApprovalRule } from '../../../src/core/approval/gate';
import { RISK_LEVELS } from '../../../src/core/tools/tool';

const SENSITIVE = { paths: ['.vscode/settings.json'], reason: '.vscode/settings.json — editor settings' };

function writeRequest(path: string, sensitive = false): ApprovalRequest {
  return {
    toolName: 'write_file',
    risk: 'write',
    args: { path, content: '{}' },
    description: { title: `Overwrite ${path}`, detail: '…', ...(sensitive && { sensitive: SENSITIVE }) },
  };
}

function commandRequest(command: string, sensitive = false): ApprovalRequest {
  return {
    toolName: 'run_command',
    risk: 'execute',
    args: { command },
    description: { title: `Run ${command}`, detail: command, command, ...(sensitive && { sensitive: SENSITIVE }) },
  };
}

/** An asker that records every request and answers from a list. */
function scriptedAsker(...answers: ApprovalDecision[]) {
  const asked: ApprovalRequest[] = [];
  return {
    asked,
    ask: async (request: ApprovalRequest): Promise<ApprovalDecision> => {
      asked.push(request);
      return answers.shift() ?? { approved: false, reason: 'no more answers' };
    },
  };
}

const signal = new AbortController().signal;

describe('sensitive requests at the gate', () => {
  test('auto-approval does not cover them: asked even when every risk is auto-approved', async () => {
    const user = scriptedAsker({ approved: true, scope: 'once' });
    const gate = new ApprovalGate({ policy: { autoApprove: RISK_LEVELS, rules: [] }, ask: user.ask });
    assert.equal(gate.needsAsking(writeRequest('a.txt')), false);
    assert.equal(gate.needsAsking(writeRequest('.vscode/settings.json', true)), true);
    assert.deepEqual(await gate.check(writeRequest('.vscode/settings.json', true), signal), { approved: true, scope: 'once' });
    assert.equal(user.asked.length, 1);
  });

  test('workspace allow rules (tool-wide and command prefix) do not cover them', async () => {
    const rules: ApprovalRule[] = [
      { tool: 'write_file', decision: 'allow' },
      { tool: '*', decision: 'allow' },
      { tool: 'run_command', commandPrefix: 'printf', decision: 'allow' },
    ];
    const gate = new ApprovalGate({ policy: { autoApprove: [], rules }, ask: scriptedAsker().ask });
    assert.equal(gate.decideByPolicy(writeRequest('a.txt')), 'allow');
    assert.equal(gate.decideByPolicy(writeRequest('.vscode/settings.json', true)), undefined);
    assert.equal(gate.decideByPolicy(commandRequest('printf x')), 'allow');
    assert.equal(gate.decideByPolicy(commandRequest('printf x', true)), undefined);
  });

  test('an explicit deny rule still denies, without asking', async () => {
    const user = scriptedAsker({ approved: true, scope: 'once' });
    const gate = new ApprovalGate({ policy: { autoApprove: RISK_LEVELS, rules: [{ tool: 'write_file', decision: 'deny' }] }, ask: user.ask });
    const decision = await gate.check(writeRequest('.vscode/settings.json', true), signal);
    assert.equal(decision.approved, false);
    assert.equal(user.asked.length, 0);
  });

  test('"for this session" is taken as once: nothing remembered, the next sensitive call is asked again', async () => {
    const remembered: unknown[] = [];
    const user = scriptedAsker({ approved: true, scope: 'session' }, { approved: true, scope: 'workspace' }, { approved: false, reason: 'no' });
    const gate = new ApprovalGate({ policy: { autoApprove: [], rules: [] }, ask: user.ask, onRemember: (rule, scope) => remembered.push([rule, scope]) });
    assert.deepEqual(await gate.check(writeRequest('.vscode/settings.json', true), signal), { approved: true, scope: 'once' });
    assert.deepEqual(await gate.check(writeRequest('.vscode/settings.json', true), signal), { approved: true, scope: 'once' });
    assert.equal((await gate.check(writeRequest('.vscode/settings.json', true), signal)).approved, false);
    assert.equal(user.asked.length, 3);
    assert.deepEqual(remembered, []);
    // No session rule was added for write_file either: an ordinary write is still asked.
    assert.equal(gate.needsAsking(writeRequest('a.txt')), true);
  });

  test('a session rule from an ordinary call does not cover a later sensitive call', async () => {
    const user = scriptedAsker({ approved: true, scope: 'session' }, { approved: false, reason: 'denied by the user' });
    const gate = new ApprovalGate({ policy: { autoApprove: [], rules: [] }, ask: user.ask });
    assert.deepEqual(await gate.check(writeRequest('a.txt'), signal), { approved: true, scope: 'session' });
    assert.equal(gate.needsAsking(writeRequest('b.txt')), false, 'the session rule covers ordinary writes');
    assert.equal(gate.needsAsking(writeRequest('.vscode/settings.json', true)), true);
    assert.equal((await gate.check(writeRequest('.vscode/settings.json', true), signal)).approved, false);
    assert.equal(user.asked.length, 2);
  });

  test('no asker: denied with a reason naming the file, and the host hook hears about it', async () => {
    const heard: string[] = [];
    const gate = new ApprovalGate({ policy: { autoApprove: RISK_LEVELS, rules: [] }, onSensitiveDenied: (request, reason) => heard.push(`${request.toolName}: ${reason}`) });
    const decision = await gate.check(writeRequest('.vscode/settings.json', true), signal);
    assert.equal(decision.approved, false);
    assert.match(!decision.approved ? decision.reason : '', /\.vscode\/settings\.json.*sensitive.*non-interactive/);
    assert.equal(heard.length, 1);
    assert.match(heard[0]!, /^write_file: /);
    // Ordinary calls keep their old behaviour and do not trigger the hook.
    assert.deepEqual(await gate.check(writeRequest('a.txt'), signal), { approved: true, scope: 'once' });
    assert.equal(heard.length, 1);
  });

  test('allowSensitive (CLI --allow-sensitive) lets the ordinary policy decide', async () => {
    const user = scriptedAsker({ approved: true, scope: 'session' });
    const gate = new ApprovalGate({ policy: { autoApprove: RISK_LEVELS, rules: [] }, allowSensitive: true });
    assert.deepEqual(await gate.check(writeRequest('.vscode/settings.json', true), signal), { approved: true, scope: 'once' });
    const asking = new ApprovalGate({ policy: { autoApprove: [], rules: [] }, allowSensitive: true, ask: user.ask });
    assert.deepEqual(await asking.check(writeRequest('.vscode/settings.json', true), signal), { approved: true, scope: 'session' });
  });

  test('extra patterns are read on every call, so the host can change them in place', () => {
    const extra: string[] = [];
    const gate = new ApprovalGate({ policy: { autoApprove: [], rules: [] }, sensitivePatterns: extra });
    assert.equal(gate.sensitivePaths().match('deploy/prod.sh'), undefined);
    extra.push('deploy/**');
    assert.ok(gate.sensitivePaths().match('deploy/prod.sh'));
    assert.ok(gate.sensitivePaths().match('.git/config'), 'defaults stay');
  });
});
