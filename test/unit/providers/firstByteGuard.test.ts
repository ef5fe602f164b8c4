import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { ProviderError } from '../../../src/core/provider';
import type { ProviderClock, TimerHandle } from '../../../src/providers/clock';
import { guardFirstItem, LOADING_STATUS, type Guarded } from '../../../src/providers/firstByteGuard';

/** A clock whose timers fire only when the test advances it. */
class ManualClock implements ProviderClock {
  private time = 0;
  private timers: Array<{ at: number; callback: () => void; handle: number }> = [];
  private nextHandle = 1;
  now(): number {
    return this.time;
  }
  setTimeout(callback: () => void, ms: number): TimerHandle {
    const handle = this.nextHandle++;
    this.timers.push({ at: this.time + ms, callback, handle });
    return handle;
  }
  clearTimeout(handle: TimerHandle): void {
    this.timers = this.timers.filter((t) => t.handle !== handle);
  }
  get pending(): number {
    return this.timers.length;
  }
  async advance(ms: number): Promise<void> {
    this.time += ms;
    const due = this.timers.filter((t) => t.at <= this.time);
    this.timers = this.timers.filter((t) => t.at > this.time);
    for (const t of due) t.callback();
    await settle();
  }
}

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A source whose first item arrives when the test says so. */
class GatedSource implements AsyncIterator<string> {
  returned = false;
  private release!: () => void;
  private readonly gate = new Promise<void>((resolve) => (this.release = resolve));
  private index = 0;
  constructor(private readonly items: string[]) {}
  open(): void {
    this.release();
  }
  async next(): Promise<IteratorResult<string>> {
    await this.gate;
    const value = this.items[this.index++];
    return value === undefined ? { done: true, value: undefined } : { done: false, value };
  }
  async return(): Promise<IteratorResult<string>> {
    this.returned = true;
    return { done: true, value: undefined };
  }
}

function guard(source: GatedSource, clock: ManualClock, onAbort: () => void = () => undefined) {
  return guardFirstItem(async () => source, {
    timeoutMs: 1000,
    statusDelayMs: 100,
    clock,
    abort: onAbort,
    serverLabel: 'Test server',
  });
}

describe('guardFirstItem', () => {
  test('a prompt first item: no status, everything passes through, timers cleared', async () => {
    const clock = new ManualClock();
    const source = new GatedSource(['a', 'b']);
    source.open();
    const seen: Guarded<string>[] = [];
    for await (const item of guard(source, clock)) seen.push(item);
    assert.deepEqual(seen, [
      { kind: 'item', value: 'a' },
      { kind: 'item', value: 'b' },
    ]);
    assert.equal(clock.pending, 0);
  });

  test('a slow first item: one status after the delay, then the items', async () => {
    const clock = new ManualClock();
    const source = new GatedSource(['a']);
    const iterator = guard(source, clock);
    const first = iterator.next();
    await clock.advance(100);
    assert.deepEqual((await first).value, { kind: 'status', message: LOADING_STATUS });
    const second = iterator.next();
    await clock.advance(500);
    source.open();
    assert.deepEqual((await second).value, { kind: 'item', value: 'a' });
    assert.equal((await iterator.next()).done, true);
  });

  test('no first item before the deadline: first_byte_timeout and the request is aborted', async () => {
    const clock = new ManualClock();
    const source = new GatedSource(['a']);
    let aborted = false;
    const iterator = guard(source, clock, () => (aborted = true));
    const first = iterator.next();
    await clock.advance(100);
    assert.equal((await first).value?.kind, 'status');
    const second = assert.rejects(iterator.next(), (e: unknown) => e instanceof ProviderError && e.kind === 'first_byte_timeout' && /1 s/.test(e.message));
    await clock.advance(899);
    assert.equal(aborted, false, 'not before the deadline');
    await clock.advance(1);
    await second;
    assert.equal(aborted, true);
  });

  test('with a reading plan: the status estimates the read, renewed until the estimate is done', async () => {
    const clock = new ManualClock();
    const source = new GatedSource(['a']);
    const iterator = guardFirstItem(async () => source, {
      timeoutMs: 10_000,
      statusDelayMs: 100,
      clock,
      abort: () => undefined,
      serverLabel: 'Test server',
      reading: { tokens: 1000, tokensPerSecond: 4000, expectedMs: 375 },
    });
    const seen: Guarded<string>[] = [];
    for (let i = 0; i < 3; i++) {
      const next = iterator.next();
      await clock.advance(100);
      seen.push((await next).value as Guarded<string>);
    }
    assert.deepEqual(seen, [
      { kind: 'status', message: 'Reading the prompt: about 400 / 1,000 tokens (estimated)', reading: { processed: 400, total: 1000, estimated: true } },
      { kind: 'status', message: 'Reading the prompt: about 800 / 1,000 tokens (estimated)', reading: { processed: 800, total: 1000, estimated: true } },
      { kind: 'status', message: 'Reading the prompt: about 1,000 / 1,000 tokens (estimated)', reading: { processed: 1000, total: 1000, estimated: true } },
    ]);
    const last = iterator.next();
    await clock.advance(1000);
    source.open();
    assert.deepEqual((await last).value, { kind: 'item', value: 'a' }, 'no more statuses once the estimate is done');
  });

  test('stopping early returns the source', async () => {
    const clock = new ManualClock();
    const source = new GatedSource(['a', 'b', 'c']);
    source.open();
    for await (const item of guard(source, clock)) {
      assert.equal(item.kind, 'item');
      break;
    }
    assert.equal(source.returned, true);
  });
});
