import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IndexedFile } from '../../../src/core/knowledge/types';
import { entityRow, fileDescription, fileRow, summaryLabel } from '../../../src/editor/knowledge/knowledgeRows';
import { SUMMARY_MISMATCH_NOTE } from '../../../src/core/knowledge/types';
import { relativeTime } from '../../../src/shared/relativeTime';

const NOW = Date.UTC(2026, 2, 10, 12, 0, 0);
const MIN = 60_000;

const file = (over: Partial<IndexedFile> = {}): IndexedFile => ({
  path: 'src/config.ts',
  hash: 'abc',
  mode: 'full',
  state: 'indexed',
  language: 'typescript',
  lines: 120,
  bytes: 3300,
  chunkCount: 7,
  embedModel: 'nomic-embed-text',
  indexedAt: NOW - 2 * MIN,
  ...over,
});

test('relative times read like a person would say them', () => {
  assert.equal(relativeTime(NOW - 10_000, NOW), 'just now');
  assert.equal(relativeTime(NOW + 5_000, NOW), 'just now', 'a clock a little ahead is not "in the future"');
  assert.equal(relativeTime(NOW - 2 * MIN, NOW), '2 min ago');
  assert.equal(relativeTime(NOW - 59 * MIN, NOW), '59 min ago');
  assert.equal(relativeTime(NOW - 3 * 60 * MIN, NOW), '3 h ago');
  assert.equal(relativeTime(NOW - 24 * 60 * MIN, NOW), '1 day ago');
  assert.equal(relativeTime(NOW - 5 * 24 * 60 * MIN, NOW), '5 days ago');
  assert.equal(relativeTime(Date.UTC(2025, 0, 2), NOW), '2025-01-02');
});

test('a file row says its state, chunks and age', () => {
  assert.equal(fileDescription(file(), NOW), 'indexed · 7 chunks · 2 min ago');
  assert.equal(fileDescription(file({ chunkCount: 1 }), NOW), 'indexed · 1 chunk · 2 min ago');
  assert.equal(fileDescription(file({ range: { startLine: 10, endLine: 42 } }), NOW), 'indexed (lines 10-42) · 7 chunks · 2 min ago');
  assert.equal(fileDescription(file({ state: 'metadata', mode: 'metadata', chunkCount: 0, indexedAt: NOW }), NOW), 'metadata only · just now');
  assert.equal(fileDescription(file({ state: 'failed' }), NOW), 'failed · 2 min ago');
  const corrected = `${SUMMARY_MISMATCH_NOTE}: 8 chunk summaries moved to the chunk they describe (the model numbered the chunks its own way).`;
  assert.equal(fileDescription(file({ note: corrected }), NOW), 'indexed · 7 chunks · summaries corrected · 2 min ago');
  assert.equal(fileDescription(file({ note: `no vectors: the server is down; ${corrected}` }), NOW), 'indexed · 7 chunks · summaries corrected · 2 min ago');
});

test('the tooltip tells how it was indexed and carries the note', () => {
  const note = "the model's JSON was invalid twice; indexed with metadata only";
  const row = fileRow(file({ state: 'metadata', note, embedModel: '' }), NOW);
  assert.equal(row.label, 'src/config.ts');
  assert.equal(row.description, 'metadata only · 2 min ago');
  assert.equal(row.contextValue, 'knowledgeFile.metadata');
  assert.equal(row.icon, 'metadata');
  assert.equal(row.ariaLabel, 'src/config.ts: metadata only · 2 min ago');
  const lines = row.tooltip.split('\n');
  assert.equal(lines[0], 'src/config.ts: metadata only · 2 min ago');
  assert.match(lines[1]!, /^Indexed fully/);
  assert.equal(lines[2], 'typescript, 120 lines, 3.2 KiB.');
  assert.equal(lines[3], 'No vectors: retrieval finds it by keywords.');
  assert.equal(lines.at(-1), note);

  const full = fileRow(file({ range: { startLine: 5, endLine: 5 } }), NOW);
  assert.match(full.tooltip, /Vectors: nomic-embed-text\./);
  assert.match(full.tooltip, /, line 5\./);
  assert.equal(full.contextValue, 'knowledgeFile.indexed');
});

test('entity rows name kind and line; summaries are cut to one line', () => {
  assert.deepEqual(entityRow({ name: 'parseConfig', kind: 'function', file: 'src/config.ts', line: 12 }), {
    label: 'parseConfig',
    description: 'function · line 12',
    tooltip: 'function parseConfig, src/config.ts line 12',
  });
  assert.equal(summaryLabel('  Reads the config.\nSecond line.'), 'Reads the config.');
  const long = summaryLabel('x'.repeat(300), 50);
  assert.equal(long.length, 50);
  assert.ok(long.endsWith('\u2026'));
});
