// Digging the JSON out of a model's reply: fences, prose, trailing commas, cut-off replies.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { extractJson, withoutTrailingCommas } from '../../../src/core/structured/extractJson';

function candidates(reply: string): unknown[] {
  const out = extractJson(reply);
  assert.ok(out.ok, `expected JSON in ${JSON.stringify(reply)}, got: ${out.ok ? '' : out.reason}`);
  return out.candidates;
}

function failure(reply: string): string {
  const out = extractJson(reply);
  assert.ok(!out.ok, `expected no JSON in ${JSON.stringify(reply)}, got ${JSON.stringify(out)}`);
  return out.reason;
}

describe('extractJson', () => {
  test('a bare object is the first candidate', () => {
    assert.deepEqual(candidates('  {"summary": "x", "n": [1, 2]}\n')[0], { summary: 'x', n: [1, 2] });
  });

  test('a ```json fence between lines of prose', () => {
    const reply = 'Here is the summary:\n\n```json\n{\n  "summary": "parses config"\n}\n```\n\nLet me know if you need more.';
    assert.deepEqual(candidates(reply)[0], { summary: 'parses config' });
  });

  test('an object inside prose without a fence, braces inside strings honoured', () => {
    const reply = 'Sure! {"summary": "uses {curly} and [square] brackets", "x": "a\\"}"} Hope that helps.';
    assert.deepEqual(candidates(reply)[0], { summary: 'uses {curly} and [square] brackets', x: 'a"}' });
  });

  test('prose brackets that are not JSON are skipped; the object after them is found', () => {
    const reply = 'I read [the file] and {its parts}. Result: {"summary": "ok"}';
    assert.deepEqual(candidates(reply), [{ summary: 'ok' }]);
  });

  test('trailing commas are forgiven, commas inside strings kept', () => {
    assert.deepEqual(candidates('{"a": [1, 2,], "b": "x,}",}')[0], { a: [1, 2], b: 'x,}' });
    assert.equal(withoutTrailingCommas('{"a": ",]", "b": [1 , ] }'), '{"a": ",]", "b": [1  ] }');
  });

  test('an unclosed fence around complete JSON still yields it', () => {
    assert.deepEqual(candidates('```json\n{"summary": "cut fence"}\n')[0], { summary: 'cut fence' });
  });

  test('every plausible value is offered in order: an example first, then the answer', () => {
    const reply = 'The shape is {"summary": ""}. My answer:\n```json\n{"summary": "real"}\n```';
    assert.deepEqual(candidates(reply), [{ summary: 'real' }, { summary: '' }]);
  });

  test('a reply cut off inside the object is invalid JSON, not the array nested in it', () => {
    const reason = failure('{"summary": "x" "chunks": [{"index": 1, "summary": "y"}], "entities": [');
    assert.match(reason, /JSON in the reply is invalid/);
  });

  test('empty and JSON-free replies say so', () => {
    assert.equal(failure('   '), 'the reply was empty');
    assert.equal(failure('I cannot summarize this file.'), 'the reply contains no JSON object');
  });
});
