import { test } from 'node:test';
import assert from 'node:assert/strict';
import { queueChoices, queueStatusText, queueTitle } from '../../../src/editor/knowledge/queueQuestion';

test('each question names the file and where it is in the queue', () => {
  assert.equal(queueTitle('src/a.ts', 1, 2), 'Index src/a.ts? (1 of 2)');
  assert.equal(queueTitle('docs/guide.md', 2, 2), 'Index docs/guide.md? (2 of 2)');
});

test('the choices are the five the issue names, in order, and "never" names the type', () => {
  const choices = queueChoices('.ts');
  assert.deepEqual(choices.map((c) => c.answer), ['full', 'lines', 'metadata', 'skip', 'never-type']);
  assert.deepEqual(choices.map((c) => c.label.replace(/^\$\([a-z-]+\) /, '')), ['Index fully', 'Index lines\u2026', 'Metadata only', 'Skip', 'Never for .ts files']);
  assert.ok(choices.every((c) => c.detail.length > 0));
  assert.equal(queueChoices('Makefile').at(-1)!.label, '$(circle-slash) Never for files named Makefile');
});

test('the status bar shows the queue only when it is not empty', () => {
  assert.equal(queueStatusText(2), '$(database) 2 to index');
  assert.equal(queueStatusText(1), '$(database) 1 to index');
  assert.equal(queueStatusText(0), '');
});
