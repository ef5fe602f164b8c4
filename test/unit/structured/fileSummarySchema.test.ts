// The summarizer's reply schema: lenient where weak models are clumsy, strict about the summary; and its mapping
// to the contract's FileSummary (1-based chunk numbers → positions).
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { FILE_SUMMARY_REPLY, readLineNumber, relationKindOf } from '../../../src/indexing/fileSummarySchema';
import { toFileSummary } from '../../../src/indexing/fileSummarizer';

function parse(value: unknown) {
  const result = FILE_SUMMARY_REPLY.safeParse(value);
  assert.ok(result.success, `expected success: ${JSON.stringify(result.error?.issues)}`);
  return result.data;
}

function issuesOf(value: unknown): string[] {
  const result = FILE_SUMMARY_REPLY.safeParse(value);
  assert.ok(!result.success, 'expected a validation failure');
  return result.error.issues.map((i) => i.path.join('.'));
}

describe('FILE_SUMMARY_REPLY', () => {
  test('clumsy numbers, extra fields, a nameless entity and a foreign relation kind still parse', () => {
    const data = parse({
      summary: '  Parses the config.  ',
      confidence: 'high',
      chunks: [{ index: '2', summary: 'reads it' }, { index: 1, summary: '' }],
      entities: [
        { name: 'parseConfig', kind: 'function', line: '12', exported: true },
        { kind: 'variable', line: '3' },
        { name: '   ', kind: 'variable', line: 4 },
        { name: 'Config', line: 'line 30' },
      ],
      relations: [
        { from: 'parseConfig', kind: 'invokes', to: 'readFile', line: '14' },
        { from: 'parseConfig', kind: 'Imports', to: 'node:fs' },
        { from: 'parseConfig', kind: 'mentions', to: 'Config', line: 'somewhere' },
        { from: '', kind: 'calls', to: 'x' },
      ],
    });
    assert.deepEqual(data, {
      summary: 'Parses the config.',
      chunks: [{ index: 2, summary: 'reads it' }],
      entities: [
        { name: 'parseConfig', kind: 'function', line: 12 },
        { name: 'Config', kind: 'symbol', line: 30 },
      ],
      relations: [
        { from: 'parseConfig', kind: 'calls', to: 'readFile', line: 14 },
        { from: 'parseConfig', kind: 'imports', to: 'node:fs' },
        { from: 'parseConfig', kind: 'references', to: 'Config', line: undefined },
      ],
    });
  });

  test('missing lists are empty, a lone object is a one-item list', () => {
    assert.deepEqual(parse({ summary: 'x', entities: { name: 'a', kind: 'type', line: 1 } }), {
      summary: 'x',
      chunks: [],
      entities: [{ name: 'a', kind: 'type', line: 1 }],
      relations: [],
    });
  });

  test('the summary is required and must not be blank', () => {
    assert.deepEqual(issuesOf({ chunks: [] }), ['summary']);
    assert.deepEqual(issuesOf({ summary: '   ' }), ['summary']);
    assert.deepEqual(issuesOf({ summary: { text: 'x' } }), ['summary']);
  });

  test('a named entity without a readable line is an error (the retry fixes it), not silently dropped', () => {
    assert.deepEqual(issuesOf({ summary: 'x', entities: [{ name: 'a', kind: 'function', line: 'top' }] }), ['entities.0.line']);
  });

  test('line numbers and relation kinds as weak models write them', () => {
    assert.equal(readLineNumber(' 12 '), 12);
    assert.equal(readLineNumber('L7'), 7);
    assert.equal(readLineNumber('12-20'), 12);
    assert.equal(readLineNumber('near the top'), 'near the top');
    assert.equal(relationKindOf('CALLS'), 'calls');
    assert.equal(relationKindOf('inherits'), 'extends');
    assert.equal(relationKindOf('depends on'), 'references');
    assert.equal(relationKindOf(3), 'references');
  });
});

describe('toFileSummary', () => {
  test('chunk numbers become positions; unknown numbers and repeats are dropped', () => {
    const summary = toFileSummary(
      {
        summary: 's',
        chunks: [
          { index: 3, summary: 'third' },
          { index: 1, summary: 'first' },
          { index: 1, summary: 'first again' },
          { index: 0, summary: 'no such chunk' },
          { index: 9, summary: 'no such chunk' },
        ],
        entities: [{ name: 'a', kind: 'function', line: 2 }],
        relations: [{ from: 'a', kind: 'calls', to: 'b', line: undefined }],
      },
      3,
    );
    assert.deepEqual(summary, {
      summary: 's',
      chunks: [{ index: 0, summary: 'first' }, { index: 2, summary: 'third' }],
      entities: [{ name: 'a', kind: 'function', line: 2 }],
      relations: [{ from: 'a', kind: 'calls', to: 'b' }],
    });
    assert.equal('line' in summary.relations[0]!, false);
  });
});
