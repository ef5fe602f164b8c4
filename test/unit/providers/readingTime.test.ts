import { test } from 'node:test';
import assert from 'node:assert/strict';
import { keepAliveMs } from '../../../src/providers/ollamaRequestFields';
import { PromptSpeed, planReading, progressFromLlamaCpp, readingDeadlineMs, readingMessage } from '../../../src/providers/readingTime';

test('PromptSpeed learns from replies with the server reading time, ignoring reads too short to time', () => {
  const speed = new PromptSpeed();
  speed.learn('m', { promptTokens: 50, completionTokens: 1, timings: { promptMs: 1000 } });
  assert.equal(speed.of('m'), undefined, 'a 50-token read says little');
  speed.learn('m', { promptTokens: 1000, completionTokens: 1, cachedTokens: 0, timings: { promptMs: 10_000 } });
  assert.equal(speed.of('m'), 100);
  // Only what was read counts: 1,800 of 2,000 came from the cache.
  speed.learn('m', { promptTokens: 2000, completionTokens: 1, cachedTokens: 1800, timings: { promptMs: 1000 } });
  assert.equal(speed.of('m'), 150, 'halfway to the new measurement (200)');
  speed.learn('m', { promptTokens: 2000, completionTokens: 1 });
  assert.equal(speed.of('m'), 150, 'no timings, nothing learned');
  assert.equal(new PromptSpeed(40).of('other'), 40, 'the measured speed until replies teach better');
});

test('planReading: the unshared part of the prompt at the known speed, with a margin; the deadline adds the slack', () => {
  const messages = [{ role: 'user' as const, content: 'word '.repeat(4000) }];
  assert.equal(planReading(undefined, messages, [], 0), undefined);
  const all = planReading(100, messages, [], 0)!;
  const half = planReading(100, messages, [], 0.5)!;
  assert.ok(all.tokens > 4000 && all.tokens < 6000, `${all.tokens}`);
  assert.ok(Math.abs(half.tokens - all.tokens / 2) <= 1);
  assert.equal(all.expectedMs, Math.ceil(all.tokens * 10 * 1.5));
  assert.equal(readingDeadlineMs(20_000, all), 20_000 + all.expectedMs);
  assert.equal(readingDeadlineMs(20_000, undefined), 20_000);
});

test('llama.cpp prompt_progress: counts without the cached prefix; malformed progress is ignored', () => {
  assert.deepEqual(progressFromLlamaCpp({ total: 12000, cache: 3000, processed: 9200, time_ms: 5000 }), { processed: 6200, total: 9000, cached: 3000 });
  assert.deepEqual(progressFromLlamaCpp({ total: 12000, cache: 0, processed: 6200 }), { processed: 6200, total: 12000 });
  assert.equal(progressFromLlamaCpp({ total: 0, processed: 0 }), undefined);
  assert.equal(progressFromLlamaCpp('50%'), undefined);
  assert.equal(readingMessage({ processed: 6200, total: 12000 }), 'Reading the prompt: 6,200 / 12,000 tokens');
  assert.equal(readingMessage({ processed: 6200, total: 9000, cached: 3000 }), 'Reading the prompt: 6,200 / 9,000 tokens (3,000 reused)');
});

test("Ollama keep_alive as a duration: after it, the model's cache is assumed gone", () => {
  assert.equal(keepAliveMs('30m'), 1_800_000);
  assert.equal(keepAliveMs('1h30m'), 5_400_000);
  assert.equal(keepAliveMs('300ms'), 300);
  assert.equal(keepAliveMs(600), 600_000);
  assert.equal(keepAliveMs('-1'), Infinity);
  assert.equal(keepAliveMs(-1), Infinity);
  assert.equal(keepAliveMs('soon'), Infinity);
});
