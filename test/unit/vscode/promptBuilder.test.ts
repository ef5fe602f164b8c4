import { test } from 'node:test';
import assert from 'node:assert/strict';
import { composeSystemPrompt } from '../../../src/core/prompt/systemPromptBuilder';
import { NO_FOLDER_NOTE, RESTRICTED_NOTE, allowedRisksFor, restrictionParts } from '../../../src/editor/engine/toolAccess';

const system = { os: 'Linux 6', shell: '/bin/bash', workspaceFolders: ['/ws'] };

test('trusted workspaces get every tool and no restriction note', () => {
  assert.equal(allowedRisksFor('all'), undefined);
  assert.deepEqual(restrictionParts('all'), []);
});

test('Restricted Mode offers read tools only and says so in the prompt', () => {
  assert.deepEqual(allowedRisksFor('read-only'), ['read']);
  const text = composeSystemPrompt({ system, extraParts: restrictionParts('read-only') }).text;
  assert.ok(text.includes(RESTRICTED_NOTE));
});

test('without a folder no tool is offered and the model is told why', () => {
  assert.deepEqual(allowedRisksFor('none'), []);
  assert.ok(composeSystemPrompt({ system, extraParts: restrictionParts('none') }).text.includes(NO_FOLDER_NOTE));
});

test('the restriction survives a tight budget that drops lower-priority parts', () => {
  const hotContext = '# Working context\n' + 'Files you read: ' + Array.from({ length: 40 }, (_, i) => `src/file${i}.ts (lines 1-100)`).join(', ');
  const built = composeSystemPrompt({ system, hotContext, extraParts: restrictionParts('read-only'), budgetTokens: 400 });
  assert.ok(built.text.includes(RESTRICTED_NOTE));
  assert.ok(!built.text.includes('src/file39.ts'), 'the hot context went first');
});
