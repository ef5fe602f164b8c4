// The summarizer's reply schema: lenient where weak models are clumsy, strict about the summary; and its mapping
// to the contract's FileSummary (1-based chunk numbers → positions).
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { FILE_SUMMARY_REPLY, readLineNumber, relationKindOf } from '../../../src/indexing/fileSummarySchema';
import { toFileSummary } from '../../../src/indexing/fileSummarizer';
import { outlineText } from '../../../src/core/knowledge/chunker';

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
      chunks: [{ chunk: 2, start_line: -1, summary: 'reads it' }],
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
  const chunks = [
    { kind: 'block' as const, startLine: 1, endLine: 1, text: '// three tiny functions' },
    { kind: 'function' as const, name: 'alpha', startLine: 2, endLine: 2, text: 'function alpha() { return beta(); }' },
    { kind: 'function' as const, name: 'beta', startLine: 3, endLine: 3, text: 'function beta() { return 1; }' },
  ];

  test('chunk numbers (from 1) become positions; unknown numbers and repeats are dropped, and the file is flagged', () => {
    const summary = toFileSummary(
      {
        summary: 's',
        chunks: [
          { chunk: 3, start_line: -1, summary: 'third' },
          { chunk: 1, start_line: -1, summary: 'first' },
          { chunk: 1, start_line: -1, summary: 'first again' },
          { chunk: 0, start_line: -1, summary: 'no such chunk' },
          { chunk: 9, start_line: -1, summary: 'no such chunk' },
        ],
        entities: [{ name: 'alpha', kind: 'function', line: 2 }],
        relations: [{ from: 'alpha', kind: 'calls', to: 'beta', line: undefined }],
      },
      { chunks, outline: outlineText(chunks.map((c) => c.text).join('\n'), 'src/tiny.ts') },
    );
    assert.deepEqual(summary, {
      summary: 's',
      chunks: [{ index: 0, summary: 'first' }, { index: 2, summary: 'third' }],
      entities: [{ name: 'alpha', kind: 'function', line: 2 }],
      relations: [{ from: 'alpha', kind: 'calls', to: 'beta' }],
      notes: ["The summarizer's answer did not match the code: 3 chunk summaries dropped: no chunk matched them for certain."],
    });
    assert.equal('line' in summary.relations[0]!, false);
  });

  test('an answer that matches the code is taken as it is, with no note', () => {
    const summary = toFileSummary(
      {
        summary: 's',
        chunks: [
          { chunk: 1, start_line: 1, summary: 'A comment.' },
          { chunk: 2, start_line: 2, summary: 'Defines alpha, which calls beta.' },
          { chunk: 3, start_line: -1, summary: 'beta returns 1.' },
        ],
        entities: [{ name: 'beta', kind: 'function', line: 3 }],
        relations: [{ from: 'alpha', kind: 'calls', to: 'beta', line: 2 }],
      },
      { chunks, outline: outlineText(chunks.map((c) => c.text).join('\n'), 'src/tiny.ts') },
    );
    assert.deepEqual(summary.chunks.map((c) => c.index), [0, 1, 2]);
    assert.equal(summary.notes, undefined);
    assert.deepEqual(summary.relations, [{ from: 'alpha', kind: 'calls', to: 'beta', line: 2 }]);
  });
});
