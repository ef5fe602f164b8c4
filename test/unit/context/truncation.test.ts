// Silent truncation: a server that counts clearly fewer prompt tokens than we sent earns one warning per
// session, with the fix, and its counts do not skew the calibration.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createContextManager } from '../../../src/core/context/contextManager';
import { TruncationWatch } from '../../../src/core/context/truncationWatch';
import { CompressingModel } from '../compression/compressionModels';
import { scriptedSession, systemMessage } from '../compression/sessionFixture';
import { referencePromptTokens } from './referenceTokenizer';

const signal = new AbortController().signal;

/** A server whose real context is 2,048 tokens whatever we budget for: it reports at most that. */
function underReported(sent: Parameters<typeof referencePromptTokens>[0]): number {
  return Math.min(2048, referencePromptTokens(sent));
}

for (const id of ['openai', 'ollama'] as const) {
  test(`an under-reporting ${id} server is warned about once, with the fix`, async () => {
    const warnings: string[] = [];
    const provider = new CompressingModel({ id });
    const manager = createContextManager({ provider, model: 'test-model', window: 16384, onWarning: (m) => warnings.push(m) });
    const history = scriptedSession({ messages: 30, seed: 9 });

    for (let n = 10; n <= 30; n += 5) {
      const sent = await manager.prepareMessages([systemMessage(), ...history.slice(0, n)], signal);
      manager.recordUsage({ promptTokens: underReported(sent) });
    }
    assert.equal(warnings.length, 1, warnings.join('\n'));
    assert.match(warnings[0]!, /^The server counted 2,048 prompt tokens, but we sent about [\d,]+ \(budgeting for a 16,384-token window\)\. It is probably cutting the prompt/);
    if (id === 'ollama') assert.match(warnings[0]!, /num_ctx/);
    else assert.match(warnings[0]!, /LM Studio.*llama\.cpp: --ctx-size.*vLLM: --max-model-len/);
    // Only the honest counts (small requests) fed the calibration.
    const status = manager.status();
    assert.ok(status.calibrationSamples < 5, `samples: ${status.calibrationSamples}`);
    assert.ok(status.calibrationFactor > 0.8 && status.calibrationFactor < 1.2);
  });
}

test('an honest server never triggers the warning', async () => {
  const warnings: string[] = [];
  const manager = createContextManager({ provider: new CompressingModel(), model: 'test-model', window: 16384, onWarning: (m) => warnings.push(m) });
  const history = scriptedSession({ messages: 30, seed: 9 });
  for (let n = 2; n <= 30; n += 2) {
    const sent = await manager.prepareMessages([systemMessage(), ...history.slice(0, n)], signal);
    manager.recordUsage({ promptTokens: referencePromptTokens(sent) });
  }
  assert.deepEqual(warnings, []);
  assert.equal(manager.status().calibrationSamples, 15);
});

test('small prompts are too noisy to judge; a missing count is no evidence', () => {
  const watch = new TruncationWatch({ ratio: 0.7, minTokens: 1000 });
  assert.equal(watch.suspicious({ expected: 600, reported: 100, window: 4096, providerId: 'ollama' }), false);
  assert.equal(watch.suspicious({ expected: 3000, reported: 2200, window: 4096, providerId: 'ollama' }), false);
  assert.equal(watch.suspicious({ expected: 3000, reported: 2000, window: 4096, providerId: 'ollama' }), true);
  assert.ok(watch.check({ expected: 3000, reported: 2000, window: 4096, providerId: 'ollama' }));
  assert.equal(watch.check({ expected: 3000, reported: 1000, window: 4096, providerId: 'ollama' }), undefined, 'once per session');
});
