import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSettings } from '../../../src/editor/settings/harnessSettings';

const from = (values: Record<string, unknown>) => (key: string) => values[key];

test('index settings: ask by default, no re-index on save, embedding model falls back to the tools one', () => {
  const { settings, problems } = parseSettings(from({}));
  assert.equal(settings.indexOnRead, 'ask');
  assert.equal(settings.reindexOnSave, false);
  assert.equal(settings.indexEmbeddingModel, '');
  assert.deepEqual(problems, []);
  assert.equal(parseSettings(from({ 'tools.embeddingModel': 'nomic-embed-text' })).settings.indexEmbeddingModel, 'nomic-embed-text');
  const own = parseSettings(from({ 'tools.embeddingModel': 'nomic-embed-text', 'index.embeddingModel': ' bge-m3 ', 'index.onRead': 'auto', 'index.reindexOnSave': true }));
  assert.deepEqual([own.settings.indexEmbeddingModel, own.settings.embeddingModel, own.settings.indexOnRead, own.settings.reindexOnSave], ['bge-m3', 'nomic-embed-text', 'auto', true]);
  assert.deepEqual(own.problems, []);
});

test('bad index settings fall back and are reported', () => {
  const { settings, problems } = parseSettings(from({ 'index.onRead': 'always', 'index.reindexOnSave': 'yes', 'index.embeddingModel': 3 }));
  assert.equal(settings.indexOnRead, 'ask');
  assert.equal(settings.reindexOnSave, false);
  assert.equal(settings.indexEmbeddingModel, '');
  assert.deepEqual(problems, [
    'localharness.index.onRead must be "off", "ask" or "auto"; using "ask".',
    'localharness.index.reindexOnSave should be true or false; using false.',
    'localharness.index.embeddingModel should be a string; using "".',
  ]);
});
