// Silent truncation: a server that counts clearly fewer prompt tokens than we sent earns one warning per
// session, with the fix, and its counts do not skew the calibration.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createContextManager } from '../../../src/core/compression/contextManager';
import { WindowDetector } from '../../../src/core/window/windowDetector';
import { ContextBudgetError } from '../../../src/core/window/budgetError';
import { CompressingModel } from '../../helpers/compression/compressionModels';
import { scriptedSession, systemMessage } from '../../helpers/compression/sessionFixture';
import { referencePromptTokens } from '../../helpers/tokens/referenceTokenizer';

const signal = new AbortController().signal;

/** A server whose real context is 2,048 tokens whatever we budget for: it reports at most that. */
function underReported(sent: Parameters<typeof referencePromptTokens>[0]): number {
  return Math.min(2048, referencePromptTokens(sent));
}

for (const id of ['openai', 'ollama'] as const) {
  test(`an under-reporting ${id} server is warned about once, with the fix, and budgeted at what it runs`, async () => {
    const warnings: string[] = [];
    const changes: Array<{ window: number; previous: number; source: string }> = [];
    const provider = new CompressingModel({ id });
    const manager = createContextManager({
      provider,
      model: 'test-model',
      window: 16384,
      onWarning: (m) => warnings.push(m),
      onWindowChange: (c) => changes.push(c),
    });
    const history = scriptedSession({ messages: 30, seed: 9 });

    const sentAfterShrink: number[] = [];
    for (let n = 10; n <= 30; n += 5) {
      let sent;
      try {
        sent = await manager.prepareMessages([systemMessage(), ...history.slice(0, n)], signal);
      } catch (err) {
        // In a 2,048-token window the protected last exchanges may not leave room for an answer: stopping is right.
        assert.ok(err instanceof ContextBudgetError, String(err));
        assert.equal(err.details.window, 2048);
        continue;
      }
      if (changes.length) sentAfterShrink.push(referencePromptTokens(sent));
      manager.recordUsage({ promptTokens: underReported(sent) });
    }
    assert.equal(warnings.length, 1, warnings.join('\n'));
    assert.match(warnings[0]!, /^The server counted 2,048 prompt tokens, but we sent about [\d,]+ \(budgeting for a 16,384-token window\)\. It is probably cutting the prompt/);
    assert.match(warnings[0]!, /now budgets for 2,048/);
    if (id === 'ollama') assert.match(warnings[0]!, /num_ctx/);
    else assert.match(warnings[0]!, /LM Studio.*llama\.cpp: --ctx-size.*vLLM: --max-model-len/);
    // The flat counts showed the ceiling: the window shrank to it, once.
    assert.deepEqual(changes.map((c) => [c.window, c.previous, c.source]), [[2048, 16384, 'detected']]);
    assert.equal(manager.status().window, 2048);
    assert.equal(manager.status().windowSource, 'detected');
    for (const n of sentAfterShrink) assert.ok(n <= 2048, `a request of ${n} tokens after the shrink`);
    // Only honest counts fed the calibration (the small first requests, and the compression agent's requests
    // inside the real window); a cut count would drag the factor far below 1.
    const status = manager.status();
    assert.ok(status.calibrationSamples >= 1, `samples: ${status.calibrationSamples}`);
    assert.ok(status.calibrationFactor > 0.8 && status.calibrationFactor < 1.2, `factor ${status.calibrationFactor}`);
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

test('small prompts are too noisy to judge; one odd count only warns; a ceiling seen twice is the window', () => {
  const detector = new WindowDetector({ hardRatio: 0.7, softRatio: 0.9, minTokens: 1000 });
  assert.deepEqual(detector.observe({ expected: 600, reported: 100 }), { kind: 'ok' }, 'too small to judge');
  assert.deepEqual(detector.observe({ expected: 1500, reported: 1450 }), { kind: 'ok' });
  const hard = detector.observe({ expected: 3300, reported: 2000 });
  assert.equal(hard.kind, 'cut');
  assert.equal(hard.kind === 'cut' && hard.ceiling, undefined, 'one short count says the prompt was cut, not how big the window is');
  const flat = detector.observe({ expected: 3700, reported: 2000 });
  assert.equal(flat.kind, 'cut');
  assert.equal(flat.kind === 'cut' && flat.ceiling, 2000);

  // A flat count below one the server gave before cannot be its ceiling: it counted more without cutting.
  const honest = new WindowDetector({ hardRatio: 0.7, softRatio: 0.9, minTokens: 1000 });
  honest.observe({ expected: 3000, reported: 3000 });
  honest.observe({ expected: 2000, reported: 2000 });
  assert.deepEqual(honest.observe({ expected: 2100, reported: 2001 }), { kind: 'ok' });
});

test('a tokenizer that counts 20% fewer tokens is no cut; a count that stops growing is', () => {
  const detector = new WindowDetector({ hardRatio: 0.7, softRatio: 0.9, minTokens: 1000 });
  for (const expected of [1200, 1500, 1900, 2400, 3000]) {
    const verdict = detector.observe({ expected, reported: Math.round(expected * 0.8) });
    assert.notEqual(verdict.kind, 'cut', `at ${expected}`);
  }
  const other = new WindowDetector({ hardRatio: 0.7, softRatio: 0.9, minTokens: 1000 });
  assert.equal(other.observe({ expected: 4000, reported: 4000 }).kind, 'ok');
  assert.equal(other.observe({ expected: 4300, reported: 4096 }).kind, 'ok', 'a little short, not yet evidence');
  const verdict = other.observe({ expected: 4700, reported: 4096 });
  assert.equal(verdict.kind, 'cut', 'the same count while the prompt grew');
  assert.equal(verdict.kind === 'cut' && verdict.ceiling, 4096);
});
