import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isIncompleteResponse } from '../../../src/core/analysis/incomplete';
import { isCompletionSummary } from '../../../src/core/analysis/completion';
import { DEFLECTION_PATTERNS, isDeflection } from '../../../src/core/analysis/deflection';
import { isEmptyResponse } from '../../../src/core/analysis/empty';

const INCOMPLETE = [
  "I've renamed 3 files. There are 4 remaining.",
  'Next, I will update the tests.',
  'Continuing with the remaining screenshots.',
  "I'll now rename the other files.",
  'Let me read the config file first.',
  'Processed 3 of 7 screenshots so far.',
  "Here's my plan:\n1. Read the file\n2. Fix the bug\n3. Run the tests",
  'Now I will update the imports:',
  '- [x] read file\n- [ ] fix bug',
  'The migration is not finished yet; two tables still need to be converted.',
  'I still need to update the README.',
  'Working on it...',
  "I’ll continue with the rest of the files.", // curly apostrophe
];

const COMPLETE = [
  'All screenshots have been renamed successfully.',
  "I've updated `src/app.ts` to use the new API and all tests pass.",
  'Done. I renamed the 7 files:\n1. a.png → meeting.png\n2. b.png → invoice.png',
  'Summary of changes:\n- Fixed the off-by-one error in parse()\n- Added a test',
  'I renamed 7 of 7 files. No files remaining.',
  'The fix is complete. Let me know if you need anything else.',
  'I created hello.py. If you want, I\'ll also add a test for it.',
  'Let me summarize: I updated the config and the build now passes.',
  'I updated the two call sites; the other files were left unchanged.',
];

test('isIncompleteResponse flags replies that say work remains', () => {
  for (const text of INCOMPLETE) assert.equal(isIncompleteResponse(text), true, text);
});

test('isIncompleteResponse does not flag finished work', () => {
  for (const text of COMPLETE) assert.equal(isIncompleteResponse(text), false, text);
  assert.equal(isIncompleteResponse(''), false);
  assert.equal(isIncompleteResponse('The function returns the sum of both numbers.'), false);
  assert.equal(isIncompleteResponse('Here is the updated function:\n```ts\nfunction add(a, b) { return a + b; }\n```'), false);
  // Code is not prose: a variable called "remaining" says nothing.
  assert.equal(isIncompleteResponse('I fixed it:\n```ts\nconst remaining = items.length - 3;\n// next I will\n```\nAll done.'), false);
});

test('isIncompleteResponse treats open todos as unfinished', () => {
  assert.equal(isIncompleteResponse('All done.', { openTodos: 2 }), true);
  assert.equal(isIncompleteResponse('All done.', { openTodos: 0 }), false);
});

test('isCompletionSummary recognises real summaries and rejects partial progress', () => {
  for (const text of COMPLETE) assert.equal(isCompletionSummary(text), true, text);
  assert.equal(isCompletionSummary("I've renamed 3 files. There are 4 remaining."), false);
  assert.equal(isCompletionSummary('Let me read the file first.'), false);
  assert.equal(isCompletionSummary('The function returns the sum of both numbers.'), false);
  assert.equal(isCompletionSummary(''), false);
});

const DEFLECTIONS = [
  "I can't access your files.",
  "I don't have access to your file system.",
  'As an AI language model, I cannot modify files on your computer.',
  "I'm sorry, but I can't do that.",
  'I am unable to run commands.',
  'I do not have the ability to execute code.',
  "I'm just a language model, so I can't help here.",
  'Unfortunately I have no way to read that file.',
  'You will need to run `npm test` yourself.',
  'Please run the following command and paste the output.',
  'Could you provide the contents of config.json?',
  'Would you like me to proceed with the changes?',
  'Shall I proceed?',
  'Do you want me to rename them?',
  "Here's how you can do it: open the file and change the port.",
  'Open the file in your editor and change line 3.',
  'That is beyond my capabilities.',
  'I would need access to your repository to do that.',
  "I’m not able to browse your workspace.",
  'To rename them, run:\n```bash\nmv a.png meeting.png\n```\nThat should do it?',
];

test('isDeflection catches refusals and hand-backs', () => {
  assert.ok(DEFLECTION_PATTERNS.length >= 20, `only ${DEFLECTION_PATTERNS.length} patterns`);
  for (const text of DEFLECTIONS) assert.equal(isDeflection(text), true, text);
});

test('isDeflection heuristic: commands for the user plus a question, without any work done', () => {
  assert.equal(isDeflection('Try this:\n```sh\ngit mv old.ts new.ts\n```\nDoes that work for you?'), true);
  // One signal alone is not enough.
  assert.equal(isDeflection('Does the config use YAML or JSON?'), false);
});

test('isDeflection leaves real answers and summaries alone', () => {
  for (const text of COMPLETE) assert.equal(isDeflection(text), false, text);
  assert.equal(isDeflection("I've updated the port to 8080. Would you like me to also update the docs?"), false);
  assert.equal(isDeflection('The bug was in parse(): it skipped the last line. I fixed it and added a test.'), false);
  assert.equal(isDeflection('The function returns the sum; you can call it with add(1, 2).'), false);
  assert.equal(isDeflection(''), false);
});

test('isEmptyResponse: no text and no calls; thinking alone counts as empty', () => {
  assert.equal(isEmptyResponse({ text: '' }), true);
  assert.equal(isEmptyResponse({ text: '  \n ' }), true);
  assert.equal(isEmptyResponse({ text: '<think>hmm</think>\n' }), true);
  assert.equal(isEmptyResponse({ text: 'ok' }), false);
  assert.equal(isEmptyResponse({ text: '', toolCalls: [{ id: '1', name: 'read_file', arguments: {} }] }), false);
});
