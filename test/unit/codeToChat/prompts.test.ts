// The requests the code-to-chat commands and quick fixes send, and the lines a quick fix attaches.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  codeValue,
  EXPLAIN_PROMPT,
  fixActionTitle,
  fixCodePrompt,
  fixProblemPrompt,
  linesAround,
  WRITE_TESTS_PROMPT,
  FIX_PROMPT,
} from '../../../src/editor/codeToChat/prompts';

const problem = { message: "Type 'string' is not assignable to type 'number'.", source: 'ts', code: 2322, line: 3, column: 7, endLine: 3, endColumn: 8 };

test('the verbs send short requests', () => {
  assert.equal(EXPLAIN_PROMPT, 'Explain this code.');
  assert.equal(FIX_PROMPT, 'Fix the problems in this code.');
  assert.equal(WRITE_TESTS_PROMPT, 'Write tests for this code.');
});

test('a quick fix names the source, the code, the place and the message', () => {
  assert.equal(fixProblemPrompt(problem, 'src/a.ts'), "Fix this problem reported by ts (2322) at line 3, column 7 of src/a.ts: Type 'string' is not assignable to type 'number'.");
  assert.equal(fixProblemPrompt({ ...problem, source: undefined, code: undefined, endLine: 5 }, 'a.json'), "Fix this problem at lines 3-5 of a.json: Type 'string' is not assignable to type 'number'.");
  assert.equal(fixProblemPrompt({ ...problem, code: '' }, 'a.ts').startsWith('Fix this problem reported by ts at line 3'), true);
});

test('Fix This lists the problems reported in the code, a bounded number of them', () => {
  assert.equal(fixCodePrompt([]), 'Fix the problems in this code.');
  assert.equal(fixCodePrompt([problem]), "Fix the problems in this code.\nProblems reported in it:\n- line 3: Type 'string' is not assignable to type 'number'. (ts 2322)");
  const many = Array.from({ length: 12 }, (_, i) => ({ ...problem, line: i + 1, message: `problem ${i + 1}\nsecond line` }));
  const text = fixCodePrompt(many, 10);
  assert.equal(text.split('\n').filter((l) => l.startsWith('- line')).length, 10);
  assert.match(text, /- … and 2 more$/);
  assert.ok(!text.includes('second line'), 'one line per problem');
});

test('a problem is attached with a few lines around it, within the file', () => {
  assert.deepEqual(linesAround(10, 10, 100), { start: 5, end: 15 });
  assert.deepEqual(linesAround(1, 2, 3), { start: 1, end: 3 });
  assert.deepEqual(linesAround(40, 40, 12, 2), { start: 10, end: 12 });
  assert.deepEqual(linesAround(1, 1, 0), { start: 1, end: 1 });
});

test('diagnostic codes come as strings, numbers or { value, target }', () => {
  assert.equal(codeValue(2322), 2322);
  assert.equal(codeValue('no-unused-vars'), 'no-unused-vars');
  assert.equal(codeValue({ value: 'E501', target: {} }), 'E501');
  assert.equal(codeValue(undefined), undefined);
  assert.equal(codeValue({ target: {} }), undefined);
});

test('one problem: the bare title; several: each says which', () => {
  assert.equal(fixActionTitle('x', false), 'Fix with Local Harness');
  assert.equal(fixActionTitle('Missing semicolon.\nmore', true), 'Fix with Local Harness: Missing semicolon.');
  assert.equal(fixActionTitle('y'.repeat(100), true).length, 'Fix with Local Harness: '.length + 60);
});
