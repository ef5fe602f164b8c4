import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_SETTINGS } from '../../../src/editor/settings/harnessSettings';
import { modelDetail, modelListProblem, sameModel, unreachableMessage } from '../../../src/editor/models/modelText';

test('Ollama model names match with or without :latest', () => {
  assert.equal(sameModel('qwen3:latest', 'qwen3'), true);
  assert.equal(sameModel('qwen3:8b', 'qwen3'), false);
});

test('model list problems say what to do next', () => {
  const ollama = { ...DEFAULT_SETTINGS, model: 'llama3' };
  assert.match(modelListProblem(ollama, [])!, /ollama pull/);
  assert.match(modelListProblem(ollama, ['qwen3:latest'])!, /"llama3" is not on the Ollama server at http:\/\/127\.0\.0\.1:11434/);
  assert.equal(modelListProblem(ollama, ['llama3:latest']), undefined);
  assert.equal(modelListProblem({ ...DEFAULT_SETTINGS }, ['a']), undefined, 'no selection is fine');
  const openai = { ...DEFAULT_SETTINGS, provider: 'openai' as const };
  assert.match(modelListProblem(openai, [])!, /Load a model/);
  assert.match(unreachableMessage(DEFAULT_SETTINGS, 'ECONNREFUSED'), /Could not reach the Ollama server at http:\/\/127\.0\.0\.1:11434 \(ECONNREFUSED\)\. Start it with `ollama serve`/);
  assert.match(unreachableMessage(openai, 'x'), /LM Studio/);
});

test('model details for the picker', () => {
  assert.equal(modelDetail({ contextLength: 40960, capabilities: ['completion', 'tools', 'thinking'] }), 'up to 40,960 tokens of context · tools, thinking');
  assert.equal(modelDetail({ loadedContextLength: 8192, contextLength: 131072 }), 'loaded with 8,192 tokens of context');
  assert.equal(modelDetail({}), '');
});
