// The attached-code format: what the model reads (fenced blocks with path:lines headers before the question)
// and the compact form the panel shows, recovered from the stored message alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { attachmentLabel, formatAttachedMessage, splitAttachedMessage, userMessageText } from '../../../src/shared/attachedMessage';

test('labels name the file and the 1-based lines; a whole file is just its path', () => {
  assert.equal(attachmentLabel({ path: 'src/a.ts', startLine: 3, endLine: 5 }), 'src/a.ts:3-5');
  assert.equal(attachmentLabel({ path: 'src/a.ts', startLine: 7, endLine: 7 }), 'src/a.ts:7');
  assert.equal(attachmentLabel({ path: 'src/a.ts' }), 'src/a.ts');
});

test('the model gets each chip as a fenced block under its header, then the question', () => {
  const message = formatAttachedMessage('Explain this code.', [
    { label: 'src/a.ts:3-4', languageId: 'typescript', text: 'const a = 1;\nconst b = 2;\n' },
    { label: 'README.md', text: '# hi', note: 'clipped to 4 characters' },
  ]);
  assert.equal(
    message,
    [
      'Code attached to this message (2 blocks, as it is in the editor now):',
      '',
      'src/a.ts:3-4',
      '```typescript',
      'const a = 1;',
      'const b = 2;',
      '```',
      '',
      'README.md \u2014 clipped to 4 characters',
      '```',
      '# hi',
      '```',
      '',
      'Explain this code.',
    ].join('\n'),
  );
  assert.deepEqual(splitAttachedMessage(message), { text: 'Explain this code.', labels: ['src/a.ts:3-4', 'README.md'] });
  // A message stored before attachments were data is shown from its text; a new one from its labels.
  assert.equal(userMessageText(message), `Explain this code.\nAttached: src/a.ts:3-4 \u00b7 README.md`);
  assert.equal(userMessageText('Explain this code.', ['src/a.ts:3-4', 'README.md']), `Explain this code.\nAttached: src/a.ts:3-4 \u00b7 README.md`);
});

test('code containing fences gets a longer fence, and the question may itself contain code blocks', () => {
  const code = 'Docs:\n```js\nrun()\n```\n````\nnested\n````';
  const question = 'Why?\n```\nmy own snippet\n```\nThanks';
  const message = formatAttachedMessage(question, [{ label: 'docs.md:1-7', languageId: 'markdown', text: code }]);
  assert.ok(message.includes('\n`````markdown\n'), 'a fence of five backticks, longer than any run in the code');
  const split = splitAttachedMessage(message);
  assert.deepEqual(split, { text: question, labels: ['docs.md:1-7'] });
  // An empty block (a file that could not be read) still round-trips.
  const empty = formatAttachedMessage('Q', [{ label: 'gone.ts', text: '', note: 'could not be read: ENOENT' }]);
  assert.deepEqual(splitAttachedMessage(empty), { text: 'Q', labels: ['gone.ts'] });
});

test('any other message is shown as it is', () => {
  for (const text of [
    'plain question',
    'Code attached to this message (as it is in the editor now):\nno count',
    'Code attached to this message (1 block, as it is in the editor now):\n\nsrc/a.ts\n```\nunterminated',
    'Code attached to this message (2 blocks, as it is in the editor now):\n\nsrc/a.ts\n```\nx\n```\n\nonly one block',
  ]) {
    assert.equal(splitAttachedMessage(text), undefined, text);
    assert.equal(userMessageText(text), text);
  }
  assert.equal(formatAttachedMessage('no chips', []), 'no chips');
});
