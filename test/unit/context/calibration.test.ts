// Token calibration: the estimate × a per-model factor learned from server counts converges on the truth,
// and the factor survives a restart through the key/value port.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TokenCalibration, calibrationKey, type KeyValuePort } from '../../../src/core/window/calibration';
import { createContextManager } from '../../../src/core/compression/contextManager';
import { TokenMeter } from '../../../src/core/window/meter';
import { mixedRequests } from '../../helpers/tokens/mixedCorpus';
import { referencePromptTokens, type Vocabulary } from '../../helpers/tokens/referenceTokenizer';
import { CompressingModel } from '../../helpers/compression/compressionModels';

class MemoryKeyValue implements KeyValuePort {
  readonly values = new Map<string, string>();
  writes = 0;
  get(key: string): string | undefined {
    return this.values.get(key);
  }
  set(key: string, value: string): void {
    this.writes++;
    this.values.set(key, value);
  }
}

class BrokenKeyValue implements KeyValuePort {
  async get(): Promise<string | undefined> {
    throw new Error('database is locked');
  }
  async set(): Promise<void> {
    throw new Error('database is locked');
  }
}

function meanError(requests: ReturnType<typeof mixedRequests>, factor: number, vocab: Vocabulary): number {
  const meter = new TokenMeter();
  let sum = 0;
  for (const r of requests) {
    const truth = referencePromptTokens(r, [], vocab);
    sum += Math.abs(meter.measure(r, [], factor).total - truth) / truth;
  }
  return sum / requests.length;
}

for (const vocab of ['small', 'large'] as const) {
  test(`calibration converges on a mixed prose/code/JSON corpus (${vocab} vocabulary)`, () => {
    const requests = mixedRequests(2024, 80);
    const learn = requests.slice(0, 30);
    const heldOut = requests.slice(40);
    const calibration = new TokenCalibration({ key: 'k', alpha: 0.1 });
    const meter = new TokenMeter();
    const before = meanError(heldOut, 1, vocab);
    for (const r of learn) calibration.observe(meter.measure(r, [], 1).raw, referencePromptTokens(r, [], vocab));
    const after = meanError(heldOut, calibration.factor, vocab);
    assert.equal(calibration.samples, 30);
    // What is left is the spread between prose, code and JSON, which no single factor removes.
    assert.ok(after < 0.07, `after calibration the estimate is within 7% on average (got ${(after * 100).toFixed(1)}%)`);
    if (vocab === 'small') {
      assert.ok(before > 0.2, `the small vocabulary is far off uncalibrated (${(before * 100).toFixed(1)}%)`);
      assert.ok(after < before / 3, `calibration removes most of the error (${(before * 100).toFixed(1)}% → ${(after * 100).toFixed(1)}%)`);
    } else {
      assert.ok(after < before + 0.01, `an unbiased estimate is not made worse (${(before * 100).toFixed(1)}% → ${(after * 100).toFixed(1)}%)`);
    }
  });
}

test('the first samples count fully, later ones by the moving average; odd samples are clamped', () => {
  const c = new TokenCalibration({ key: 'k', alpha: 0.25 });
  c.observe(1000, 1300);
  assert.equal(c.factor, 1.3, 'the first sample is the mean of one');
  c.observe(1000, 1100);
  assert.ok(Math.abs(c.factor - 1.2) < 1e-9, 'then a plain mean while samples are few');
  for (let i = 0; i < 20; i++) c.observe(1000, 1000);
  assert.ok(c.factor < 1.01 && c.factor > 1, 'and it tracks a change');
  c.observe(1000, 1_000_000);
  assert.ok(c.factor <= 1 + 0.25 * (3 - 1) + 0.01, 'a wild count moves it by a bounded step');
  c.observe(0, 500);
  c.observe(500, 0);
  assert.equal(c.samples, 23, 'empty counts are ignored');
});

test('the factor is persisted per model through the key/value port and loaded by the next session', async () => {
  const store = new MemoryKeyValue();
  const key = calibrationKey('ollama', 'qwen3:8b');
  const a = new TokenCalibration({ key, store, alpha: 0.3 });
  await a.load();
  a.observe(1000, 1250);
  a.observe(1000, 1250);
  assert.equal(store.writes, 2);
  assert.deepEqual(JSON.parse(store.values.get(key)!), { factor: 1.25, samples: 2 });

  const b = new TokenCalibration({ key, store, alpha: 0.3 });
  await b.load();
  assert.equal(b.factor, 1.25);
  assert.equal(b.samples, 2);
  const other = new TokenCalibration({ key: calibrationKey('ollama', 'llama3.2'), store, alpha: 0.3 });
  await other.load();
  assert.equal(other.factor, 1, 'another model starts fresh');
});

test('a malformed stored value is ignored; a failing store warns once and calibration keeps working', async () => {
  const store = new MemoryKeyValue();
  store.values.set('k', '{"factor": "lots"}');
  const a = new TokenCalibration({ key: 'k', store, alpha: 0.3 });
  await a.load();
  assert.equal(a.factor, 1);

  const warnings: string[] = [];
  const b = new TokenCalibration({ key: 'k', store: new BrokenKeyValue(), alpha: 0.3, onStoreError: (m) => warnings.push(m) });
  await b.load();
  b.observe(1000, 1200);
  b.observe(1000, 1200);
  await new Promise((r) => setImmediate(r));
  assert.equal(b.factor, 1.2);
  assert.equal(warnings.length, 1);
  assert.match(warnings[0]!, /Could not read the token calibration \(database is locked\)/);
});

test('the manager learns from usage reports and uses the factor for its budget', async () => {
  const store = new MemoryKeyValue();
  const requests = mixedRequests(7, 25);
  const manager = createContextManager({ provider: new CompressingModel(), model: 'small-vocab', window: 32768, calibrationStore: store });
  const signal = new AbortController().signal;
  for (const r of requests.slice(0, 20)) {
    const sent = await manager.prepareMessages(r, signal);
    manager.recordUsage({ promptTokens: referencePromptTokens(sent, [], 'small') });
  }
  const status = manager.status();
  assert.equal(status.calibrationSamples, 20);
  assert.ok(status.calibrationFactor > 1.2, `learned that this model counts more (${status.calibrationFactor})`);
  const last = requests[24]!;
  const sent = await manager.prepareMessages(last, signal);
  const truth = referencePromptTokens(sent, [], 'small');
  assert.ok(Math.abs(manager.status().used - truth) / truth < 0.08, `used ${manager.status().used} vs ${truth}`);
  assert.ok(store.values.has(calibrationKey('openai', 'small-vocab')));
  manager.recordUsage({ promptTokens: truth });
  assert.equal(manager.status().calibrationSamples, 21);

  // A second report for the same request (a retry, another call) teaches nothing.
  manager.recordUsage({ promptTokens: 5 });
  manager.recordUsage({ promptTokens: truth });
  assert.equal(manager.status().calibrationSamples, 21);
});
