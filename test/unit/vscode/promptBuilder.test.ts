import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ContextTracker } from '../../../src/core/context/tracker';
import { NO_FOLDER_NOTE, RESTRICTED_NOTE, buildSystemPrompt } from '../../../src/vscode/agent/promptBuilder';

const systemInfo = { os: 'Linux 6', shell: '/bin/bash', workspaceFolders: ['/ws'] };

test('the hot context is its own part and is rebuilt on every call', () => {
  const tracker = new ContextTracker();
  const source = { systemInfo, tracker, access: 'all' as const, loopBreakingTools: true };
  const before = buildSystemPrompt(source);
  assert.doesNotMatch(before, /# Working context/);
  assert.match(before, /task_completion/);
  tracker.fileRead('src/a.ts', { start: 1, end: 40 });
  tracker.fileModified('src/b.ts', { start: 3, end: 4 });
  tracker.setTodos([{ text: 'fix the bug', status: 'in_progress' }]);
  tracker.setEditorActivity({ activeFile: 'src/c.ts', selection: { start: 10, end: 12 } });
  const after = buildSystemPrompt(source);
  assert.match(after, /\n\n# Working context\n/);
  assert.match(after, /Files you modified: src\/b\.ts \(lines 3-4\)/);
  assert.match(after, /Files you read: src\/a\.ts \(lines 1-40\)/);
  assert.match(after, /- \[~\] fix the bug/);
  assert.match(after, /looking at src\/c\.ts \(selected lines 10-12\)/);
  assert.doesNotMatch(after, new RegExp(RESTRICTED_NOTE.slice(0, 30)));
});

test('restricted and folder-less turns tell the model what it cannot do', () => {
  const tracker = new ContextTracker();
  assert.ok(buildSystemPrompt({ systemInfo, tracker, access: 'read-only', loopBreakingTools: true }).includes(RESTRICTED_NOTE));
  assert.ok(buildSystemPrompt({ systemInfo, tracker, access: 'none', loopBreakingTools: false }).includes(NO_FOLDER_NOTE));
});

test('a tight budget drops low-priority parts before the instructions', () => {
  const tracker = new ContextTracker();
  for (let i = 0; i < 12; i++) tracker.fileRead(`src/some/long/path/file${i}.ts`, { start: 1, end: 100 });
  const full = buildSystemPrompt({ systemInfo, tracker, access: 'all', loopBreakingTools: true });
  const tight = buildSystemPrompt({ systemInfo, tracker, access: 'all', loopBreakingTools: true, budgetTokens: 150 });
  assert.ok(tight.length < full.length);
  assert.match(tight, /You are Local Harness/);
});
