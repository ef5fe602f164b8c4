// The restart policy of a crashed server: the delays in turn, then giving up; a fresh series after a stable run or a
// start by hand; a stop cancels the pending restart.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RestartPolicy } from '../../../src/mcp/restartPolicy';

function policy() {
  let now = 0;
  const p = new RestartPolicy({ delaysMs: [5, 10], stableAfterMs: 1000, now: () => now });
  return { p, advance: (ms: number) => (now += ms) };
}

// The policy's timer is unref'd (a pending restart must not keep a process alive): hold the loop open meanwhile.
const ran = (p: RestartPolicy) =>
  new Promise<void>((resolve) => {
    const hold = setInterval(() => undefined, 1000);
    p.schedule(() => {
      clearInterval(hold);
      resolve();
    });
  });

test('each crash waits the next delay; after the last one it gives up', async () => {
  const { p } = policy();
  const calls: number[] = [];
  assert.deepEqual(p.schedule(() => calls.push(1)), { retry: true, delayMs: 5, attempt: 1, max: 2 });
  assert.equal(p.attemptText(), 'attempt 1 of 2');
  await new Promise((r) => setTimeout(r, 30));
  assert.deepEqual(calls, [1], 'the restart ran after its delay');
  assert.deepEqual(p.schedule(() => undefined), { retry: true, delayMs: 10, attempt: 2, max: 2 });
  assert.deepEqual(p.schedule(() => undefined), { retry: false, max: 2 });
  assert.equal(p.attempts, 2);
  p.cancel();
});

test('a server that stayed up long enough, or was started by hand, gets a fresh series', async () => {
  const { p, advance } = policy();
  await ran(p);
  p.up();
  advance(999);
  assert.equal((p.schedule(() => undefined) as { attempt: number }).attempt, 2, 'not stable yet: the series goes on');
  p.cancel();
  p.up();
  advance(1000);
  assert.equal((p.schedule(() => undefined) as { attempt: number }).attempt, 1, 'stable: a fresh series');
  p.reset();
  assert.equal(p.attempts, 0);
});

test('a stop cancels the pending restart', async () => {
  const { p } = policy();
  let restarted = false;
  p.schedule(() => (restarted = true));
  p.stopped();
  await new Promise((r) => setTimeout(r, 30));
  assert.equal(restarted, false);
});
