import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SamplingGate, SlidingWindowLimiter } from '../../../src/mcp/samplingGate';

test('the window slides: a request is allowed again once the oldest counted one is a window old', () => {
  let now = 1_000_000;
  const limiter = new SlidingWindowLimiter(3, 60_000, () => now);
  assert.deepEqual([limiter.take(), limiter.take()], [{ ok: true }, { ok: true }]);
  now += 30_000;
  assert.deepEqual(limiter.take(), { ok: true });
  assert.deepEqual(limiter.take(), { ok: false, retryInMs: 30_000 });
  now += 29_999;
  assert.deepEqual(limiter.take(), { ok: false, retryInMs: 1 });
  now += 1; // the first two leave the window together
  assert.deepEqual([limiter.take(), limiter.take()], [{ ok: true }, { ok: true }]);
  assert.deepEqual(limiter.take(), { ok: false, retryInMs: 30_000 });
});

test('refused requests are not counted, so a steady asker gets through as the window moves', () => {
  let now = 0;
  const limiter = new SlidingWindowLimiter(1, 1000, () => now);
  assert.equal(limiter.take().ok, true);
  for (let i = 0; i < 5; i++) assert.equal(limiter.take().ok, false);
  now = 1000;
  assert.equal(limiter.take().ok, true);
});

test('a limit of zero refuses everything; nonsense limits are rejected', () => {
  const limiter = new SlidingWindowLimiter(0, 1000, () => 0);
  assert.deepEqual(limiter.take(), { ok: false, retryInMs: 1000 });
  assert.throws(() => new SlidingWindowLimiter(-1, 1000), /whole number/);
  assert.throws(() => new SlidingWindowLimiter(1.5, 1000), /whole number/);
});

test('the gate counts per server and words the refusal for the server', () => {
  let now = 0;
  const gate = new SamplingGate(2, () => now);
  assert.equal(gate.check('a'), undefined);
  assert.equal(gate.check('a'), undefined);
  assert.equal(gate.check('b'), undefined, 'another server has its own allowance');
  now = 12_300;
  assert.equal(gate.check('a'), 'sampling request refused: MCP server "a" may make at most 2 sampling requests per minute; try again in 48 s');
  now = 60_000;
  assert.equal(gate.check('a'), undefined);
  const single = new SamplingGate(1, () => 0);
  assert.equal(single.check('x'), undefined);
  assert.match(single.check('x') ?? '', /at most 1 sampling request per minute; try again in 60 s$/);
});
