import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IndexResult } from '../../../src/indexing/indexer';
import { describeBatch, describeResult } from '../../../src/editor/knowledge/indexMessages';

const result = (over: Partial<IndexResult>): IndexResult => ({ path: 'src/a.ts', outcome: 'indexed', chunks: 3, modelMs: 10, waitedMs: 0, totalMs: 12, notices: [], ...over });

test('each outcome is said plainly', () => {
  assert.deepEqual(describeResult(result({})), { severity: 'info', text: 'Indexed src/a.ts (3 chunks).' });
  assert.deepEqual(describeResult(result({ chunks: 1 })), { severity: 'info', text: 'Indexed src/a.ts (1 chunk).' });
  assert.deepEqual(describeResult(result({ outcome: 'unchanged' })), { severity: 'info', text: 'src/a.ts is already indexed and has not changed since.' });
  assert.deepEqual(describeResult(result({ outcome: 'metadata', chunks: 0 })), { severity: 'info', text: 'Indexed src/a.ts with metadata only (size, language, outline).' });
  assert.deepEqual(describeResult(result({ path: 'img/logo.png', outcome: 'refused', reason: 'img/logo.png looks like a binary file; only text files are indexed.' })), {
    severity: 'warning',
    text: 'Did not index img/logo.png: img/logo.png looks like a binary file; only text files are indexed.',
  });
  assert.deepEqual(describeResult(result({ outcome: 'failed', reason: 'storing src/a.ts failed: disk full' })), {
    severity: 'error',
    text: 'Could not index src/a.ts: storing src/a.ts failed: disk full.',
  });
});

test('fallbacks are named: invalid model JSON, no embedding model', () => {
  const invalid = describeResult(result({ outcome: 'metadata', notices: ["the model's JSON was invalid twice; indexed with metadata only"] }));
  assert.deepEqual(invalid, { severity: 'warning', text: "Indexed src/a.ts with metadata only: the model's JSON was invalid twice." });
  const keywords = describeResult(result({ notices: ['no embedding model is set; stored without vectors, retrieval uses keywords (BM25)'] }));
  assert.deepEqual(keywords, { severity: 'warning', text: 'Indexed src/a.ts (3 chunks): no embedding model is set; stored without vectors, retrieval uses keywords (BM25).' });
  const range = describeResult(result({ file: { range: { startLine: 4, endLine: 9 } } as IndexResult['file'] }));
  assert.equal(range.text, 'Indexed src/a.ts (3 chunks, lines 4-9).');
});

test('a batch is one line that counts what did not go to plan', () => {
  assert.deepEqual(describeBatch([result({}), result({ path: 'b.ts' })]), { severity: 'info', text: 'Indexed 2 files.' });
  const mixed = describeBatch([
    result({}),
    result({ outcome: 'unchanged' }),
    result({ outcome: 'metadata' }),
    result({ outcome: 'refused', reason: 'binary' }),
    result({ notices: ['no embedding model is set'] }),
  ]);
  assert.deepEqual(mixed, { severity: 'warning', text: 'Indexed 2 files (1 unchanged, 1 with metadata only, 1 refused, 1 with a note).' });
  assert.equal(describeBatch([result({ outcome: 'failed', reason: 'x' })]).severity, 'error');
  assert.equal(describeBatch([result({})], 1).text, 'Indexed 1 file. Cancelled after 1 of the files.');
});
