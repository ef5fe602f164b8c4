import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_SETTINGS } from '../../../src/editor/settings/harnessSettings';
import { modelDetail, modelListProblem, sameModel, unreachableMessage } from '../../../src/editor/models/modelText';
import { firstChatModel } from '../../../src/core/modelNames';

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

test('without a chosen model, the first listed model that can chat is used (the editor, the CLI and the setup check alike)', () => {
  const listed = [
    { name: 'nomic-embed-text:latest' },
    { name: 'text-embedding-3-small', capabilities: ['embedding'] },
    { name: 'all-minilm:l6-v2', capabilities: ['completion'] },
    { name: 'qwen3:8b' },
  ];
  assert.equal(firstChatModel(listed)?.name, 'qwen3:8b', 'named or reported as embedding models are passed over');
  assert.equal(firstChatModel([{ name: 'bge-m3', capabilities: ['embedding', 'completion'] }, { name: 'llama3' }])?.name, 'llama3');
  assert.equal(firstChatModel([{ name: 'coder', capabilities: ['embedding', 'completion'] }])?.name, 'coder', 'a model that also completes can chat');
  assert.equal(firstChatModel([{ name: 'nomic-embed-text' }]), undefined);
});
