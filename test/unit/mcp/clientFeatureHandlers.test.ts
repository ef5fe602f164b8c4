import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clientCapabilities, toSamplingRequest } from '../../../src/mcp/clientFeatureHandlers';

const sample = async () => ({ model: 'm', text: '', stopReason: 'endTurn' as const });

test('only the capabilities whose ports were lent are declared', () => {
  assert.deepEqual(clientCapabilities(undefined), {});
  assert.deepEqual(clientCapabilities({}), {});
  assert.deepEqual(clientCapabilities({ roots: () => [] }), { roots: { listChanged: true } });
  assert.deepEqual(clientCapabilities({ elicit: async () => ({ action: 'cancel' }) }), { elicitation: { form: {} } });
  assert.deepEqual(clientCapabilities({ sample }), {}, 'sampling needs an approval port too');
  assert.deepEqual(clientCapabilities({ approveSampling: async () => true }), {}, 'and a model');
  assert.deepEqual(clientCapabilities({ approveSampling: async () => true, sample }), { sampling: {} });
});

test('a createMessage request becomes text messages; other content is named in brackets', () => {
  const request = toSamplingRequest('srv', {
    messages: [
      { role: 'user', content: { type: 'text', text: 'Describe this' } },
      { role: 'user', content: { type: 'image', data: 'AAAA', mimeType: 'image/png' } },
      { role: 'assistant', content: [{ type: 'text', text: 'Calling' }, { type: 'tool_use', name: 'lookup', id: '1', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', toolUseId: '1', content: [] }, { type: 'audio', data: '', mimeType: 'audio/wav' }] },
    ],
    maxTokens: 99,
    stopSequences: [],
    modelPreferences: { hints: [{ name: 'claude' }, {}, { name: '' }] },
  });
  assert.deepEqual(request, {
    server: 'srv',
    messages: [
      { role: 'user', text: 'Describe this' },
      { role: 'user', text: '[image: image/png]' },
      { role: 'assistant', text: 'Calling\n[tool call: lookup]' },
      { role: 'user', text: '[tool result]\n[audio: audio/wav]' },
    ],
    maxTokens: 99,
    modelHints: ['claude'],
  });
});
